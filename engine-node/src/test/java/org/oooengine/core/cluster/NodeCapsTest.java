package org.oooengine.core.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.oooengine.core.fragment.PartitionPipeline;
import org.oooengine.core.fragment.PipelineStep;
import org.oooengine.core.fragment.ScanPipeline;
import org.oooengine.core.fragment.SortKey;
import org.oooengine.core.net.ErrorCode;
import org.oooengine.core.net.RemoteException;

/**
 * A node holds to its own caps whoever asks: a member that asks for all the memory there is gets
 * the node's per-query cap, and the spill files of all its queries stop at the node's spill space.
 * The coordinator is not the only client of a node, so these hold for any request.
 */
class NodeCapsTest {
    private static final long MEMORY_CAP = 256 << 10;
    private static final long SPILL_CAP = 1 << 20;
    private static final long FILE_CACHE_CAP = 3 << 20;
    private static TpchCluster tpch;

    @BeforeAll
    static void start() throws Exception {
        tpch = new TpchCluster("ooo-node-caps-test", 3, 0.01, List.of(), new NodeService.Caps(MEMORY_CAP, SPILL_CAP)
                .withFileCache(FILE_CACHE_CAP));
    }

    @AfterAll
    static void stop() throws Exception {
        if (tpch != null) {
            tpch.close();
        }
    }

    /** lineitem's rows on one node, sorted on their order key: {@code columns} of its 16 read. */
    private static PartitionPipeline.Summary sort(String node, BitSet columns, QueryLimits limits) {
        AtomicLong rows = new AtomicLong();
        ScanPipeline sort = new ScanPipeline("lineitem", 16, columns,
                List.of(new PipelineStep.Sort(List.of(new SortKey(0, true, false)))));
        PartitionPipeline.Summary summary = tpch.session.pipeline(node, sort, limits, batch -> rows.addAndGet(batch.size()))
                .join();
        assertEquals(summary.rowsOut(), rows.get());
        return summary;
    }

    private static BitSet columns(int count) {
        BitSet b = new BitSet();
        b.set(0, count);
        return b;
    }

    @Test
    void aRequestForAllTheMemoryThereIsGetsTheNodesCap() throws Exception {
        // with all it asked the sort would hold every row; held to the cap, it spills sorted runs
        PartitionPipeline.Summary s = sort("n1", columns(1), new QueryLimits(Long.MAX_VALUE, 0));
        assertTrue(s.rowsOut() > 10_000, "rows: " + s.rowsOut());
        assertTrue(s.spilledBytes() > 0, "the node held the sort to its cap of " + MEMORY_CAP + " bytes and it spilled");
        JsonNode stats = tpch.session.stats().get("n1");
        assertEquals(MEMORY_CAP, stats.path("queryMaxMemory").asLong(), stats.toString());
        assertEquals(SPILL_CAP, stats.path("spillMaxBytes").asLong(), stats.toString());
        assertEquals(0, stats.path("spillBytesInUse").asLong(), "the sort's runs are deleted");
        assertEquals(FILE_CACHE_CAP, stats.path("fileCacheMaxBytes").asLong(), stats.toString());
        assertEquals(0, stats.path("fileCacheBytes").asLong(), "no file read");
    }

    @Test
    void aQueryThatSpillsPastTheNodesSpaceFailsByNameAndLeavesNoFile() throws Exception {
        CompletionException e = assertThrows(CompletionException.class,
                () -> sort("n2", columns(16), QueryLimits.DEFAULTS));
        RemoteException remote = (RemoteException) e.getCause();
        assertEquals(ErrorCode.DISK_FULL, remote.code(), remote.getMessage());
        assertTrue(remote.getMessage().contains("sort on node n2 cannot spill"), remote.getMessage());
        assertTrue(remote.getMessage().contains("the spill space of node n2 for all its queries, 1.0 MiB "
                + "(ooo node --spill-max)"), remote.getMessage());
        assertNoSpillFiles("n2");
        // the node serves on: a sort that fits its space answers
        assertTrue(sort("n2", columns(1), QueryLimits.DEFAULTS).spilledBytes() > 0);
        assertNoSpillFiles("n2");
    }

    @Test
    void aQueryThatSpillsPastItsOwnLimitFailsByName() throws Exception {
        CompletionException e = assertThrows(CompletionException.class,
                () -> sort("n3", columns(1), new QueryLimits(0, 64 << 10)));
        RemoteException remote = (RemoteException) e.getCause();
        assertEquals(ErrorCode.DISK_FULL, remote.code(), remote.getMessage());
        assertTrue(remote.getMessage().contains("on node n3 cannot spill"), remote.getMessage());
        assertTrue(remote.getMessage().contains("the query's spill limit there is 0.1 MiB (ooo.spill.max-bytes)"),
                remote.getMessage());
        assertNoSpillFiles("n3");
    }

    /** The node's spill directory is empty once its request ended (the answer may come first). */
    private static void assertNoSpillFiles(String node) throws Exception {
        Path spill = tpch.cluster.dir.resolve("nodes").resolve(node).resolve("spill");
        long left = -1;
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (left != 0 && (left == -1 || System.nanoTime() < deadline)) {
            if (!Files.exists(spill)) {
                return;
            }
            try (Stream<Path> files = Files.list(spill)) {
                left = files.count();
            }
            if (left != 0) {
                Thread.sleep(50);
            }
        }
        assertEquals(0, left, "spill files left on node " + node);
        assertEquals(0, tpch.session.stats().get(node).path("spillBytesInUse").asLong());
    }
}
