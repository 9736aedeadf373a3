package org.oooengine.core.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.oooengine.core.fragment.ScanPipeline;

/**
 * A scan of a table kept twice on three nodes, each partition's rows delivered once: as served
 * when no node is slow; with one node answering 1.5 s late, its partition also run on the other
 * holder after the two runs that ended said it was late, the first to end delivering; with hedging
 * off and that node stopped while its run goes on, the run started again on the other holder.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class HedgedPartitionsTest {
    private static final long ROWS = 3_000;
    private static final Duration SLOW = Duration.ofMillis(1_500);

    @TempDir
    Path dir;
    private TestCluster cluster;
    private ClusterSession session;

    @BeforeEach
    void start() throws Exception {
        cluster = new TestCluster(dir, 3, NodeService.Caps.DEFAULTS, 2);
        session = cluster.session();
        new ClusterLoader(session.peers()).writeTable(TestCluster.ID_NAME,
                LongStream.range(0, ROWS).mapToObj(i -> new Object[] {i, "name " + i}).iterator(), false, (t, d, e) -> { });
    }

    @AfterEach
    void stop() {
        session.close();
        cluster.close();
    }

    @Test
    void everyPartitionDeliversOnceWhenNoNodeIsSlow() throws Exception {
        Scan scan = new Scan(session.serving().of("t"), true);
        assertEquals(ids(), scan.ids(), "hedged runs: " + scan.started.hedged());
        assertEquals(0, scan.started.rerun());
    }

    @Test
    void aLateRunIsHedgedOnTheOtherHolder() throws Exception {
        cluster.stop("n2");
        cluster.restart("n2", SLOW);
        session.peers().client("n2"); // connected while the test is not timed: its handshake is late too
        long t0 = System.nanoTime();
        Scan scan = new Scan(served("n1", "n2", "n3"), true);
        assertEquals(ids(), scan.ids());
        double seconds = (System.nanoTime() - t0) / 1e9;
        assertEquals(1, scan.started.hedged());
        assertEquals(List.of("n1", "n3", "n3"), scan.nodes(), "partition 1 delivered by its other holder");
        assertTrue(seconds < SLOW.toMillis() / 1000.0, seconds + " s: the slow node's answer not waited for");
    }

    @Test
    void aRunThatLosesItsNodeRunsAgainOnTheOtherHolder() throws Exception {
        cluster.stop("n2");
        cluster.restart("n2", SLOW);
        session.peers().client("n2");
        Scan scan = new Scan(served("n1", "n2", "n3"), false);
        Thread.sleep(300);
        cluster.stop("n2");
        assertEquals(ids(), scan.ids());
        assertEquals(1, scan.started.rerun());
        assertEquals(0, scan.started.hedged());
        assertEquals(List.of("n1", "n3", "n3"), scan.nodes());
    }

    /** The three partitions of t served by these nodes, in order. */
    private static List<ServingNodes.Served> served(String... nodes) {
        List<ServingNodes.Served> served = new ArrayList<>();
        for (int p = 0; p < nodes.length; p++) {
            served.add(new ServingNodes.Served(p, nodes[p]));
        }
        return served;
    }

    private static List<Long> ids() {
        return LongStream.range(0, ROWS).boxed().toList();
    }

    /** A scan of t's ids over the partitions as served, hedged or not. */
    private final class Scan {
        final List<Long> delivered = new ArrayList<>();
        final HedgedPartitions started;

        Scan(List<ServingNodes.Served> served, boolean hedge) {
            BitSet id = new BitSet();
            id.set(0);
            ScanPipeline pipeline = new ScanPipeline("t", 2, id, List.of());
            started = HedgedPartitions.start(session.serving(), "t", served,
                    (part, rows) -> session.pipeline(part.node(), part.partition(), pipeline, QueryLimits.DEFAULTS,
                            TransactionalReads.NONE, FileReads.NONE, rows),
                    part -> rows -> {
                        synchronized (delivered) {
                            rows.forEach(r -> delivered.add((Long) r[0]));
                        }
                    }, hedge);
        }

        List<Long> ids() throws Exception {
            CompletableFuture.allOf(started.runs().toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
            synchronized (delivered) {
                return delivered.stream().sorted().toList();
            }
        }

        List<String> nodes() {
            return started.runs().stream().map(r -> r.join().part().node()).toList();
        }
    }
}
