package org.oooengine.core.fragment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.oooengine.core.sql.JoinKind;

/**
 * Spill as an attacker would use it: a result no client fetches, and joins and sorts past their
 * memory, writing to disk without end. A query's spill files stop at its spill limit, and the spill
 * files of all the queries of a place (a node, the coordinator) at the place's spill space; past
 * either the query fails by name and its files are gone.
 */
class SpillLimitsTest {
    @TempDir
    Path dir;

    private QueryMemory memory(String where, long limit, long spillLimit, SpillSpace space) {
        return new QueryMemory(where, limit, QueryMemory.raiseWith("ooo.query.max-memory"), dir.resolve("spill"),
                spillLimit, space);
    }

    private static List<Object[]> rows(int from, int count) {
        List<Object[]> rows = new ArrayList<>();
        for (int i = from; i < from + count; i++) {
            rows.add(new Object[] {(long) i, "a row of a result that nobody fetches, number " + i, (long) (i % 7)});
        }
        return rows;
    }

    @Test
    void aResultNobodyFetchesStopsAtTheQuerysSpillLimitAndLeavesNoFile() throws Exception {
        SpillSpace coordinator = new SpillSpace("the coordinator", Long.MAX_VALUE, "ooo.spill.coordinator-max-bytes");
        QueryMemory memory = memory("the coordinator", 100_000, 256 << 10, coordinator);
        SpooledRows result = new SpooledRows(memory, "result rows not yet fetched");
        // a cross join's rows, batch after batch, until something stops them
        SpillLimitExceededException e = assertThrows(SpillLimitExceededException.class, () -> {
            for (int from = 0; from < 10_000_000; from += 1000) {
                result.accept(rows(from, 1000));
            }
        });
        assertTrue(e.getMessage().startsWith("result rows not yet fetched on the coordinator cannot spill "), e.getMessage());
        assertTrue(e.getMessage().contains("the query's spill limit there is 0.3 MiB (ooo.spill.max-bytes)"), e.getMessage());
        assertTrue(memory.spillBytesOnDisk() <= 256 << 10, "on disk: " + memory.spillBytesOnDisk());
        assertTrue(spillFiles() > 0, "what it spilled up to the limit is still there until the query ends");
        memory.close();
        assertEquals(0, spillFiles(), "the query's spill files are removed");
        assertEquals(0, memory.spillBytesOnDisk());
        assertEquals(0, coordinator.used(), "the coordinator's spill space is given back");
    }

    @Test
    void theSpillSpaceOfANodeIsSharedByItsQueriesAndGivenBackWhenEachEnds() throws Exception {
        SpillSpace node = new SpillSpace("node n1", 1 << 20, "ooo node --spill-max");
        // a sort that spills about half of the node's space, within its own query's limit
        QueryMemory first = memory("node n1", 50_000, SpillSpace.DEFAULT_QUERY_MAX_BYTES, node);
        ExternalSort sort = new ExternalSort(List.of(new SortKey(0, true, false)), first, "sort (ORDER BY)");
        for (int from = 0; first.spillBytesOnDisk() < 500 << 10; from += 1000) {
            sort.add(rows(from, 1000));
        }
        assertTrue(node.used() >= 500 << 10, "the sort's runs take the node's space: " + node.used());
        // a second query's hash join that spills its build rows by key finds the rest too small
        QueryMemory second = memory("node n1", 50_000, SpillSpace.DEFAULT_QUERY_MAX_BYTES, node);
        List<Object[]> build = rows(0, 20_000);
        SpillLimitExceededException e = assertThrows(SpillLimitExceededException.class, () -> {
            Pipeline p = new Pipeline(List.of(new PipelineStep.HashJoin(new JoinBuild.Rows(build), JoinKind.INNER,
                    List.of(0), List.of(0), null, 3)), 3, Pipeline.BuildSource.ROWS_ONLY, out -> { }, second);
            p.accept(rows(0, 1000));
            p.finish();
        });
        assertTrue(e.getMessage().startsWith("hash join (build rows spilled by key) on node n1 cannot spill "),
                e.getMessage());
        assertTrue(e.getMessage().contains("the spill space of node n1 for all its queries, 1.0 MiB "
                + "(ooo node --spill-max), has "), e.getMessage());
        second.close();
        long firstOnDisk = first.spillBytesOnDisk();
        assertEquals(firstOnDisk, node.used(), "the failed query gave its share back; the first keeps its own");
        // the first query goes on, and ends
        List<Object[]> sorted = new ArrayList<>();
        sort.finish(sorted::addAll);
        assertEquals(0L, sorted.get(0)[0]);
        first.close();
        assertEquals(0, node.used());
        assertEquals(0, spillFiles());
        // with its space back, the node's next query spills the same join and answers
        QueryMemory third = memory("node n1", 50_000, SpillSpace.DEFAULT_QUERY_MAX_BYTES, node);
        List<Object[]> joined = new ArrayList<>();
        Pipeline p = new Pipeline(List.of(new PipelineStep.HashJoin(new JoinBuild.Rows(rows(0, 2_000)), JoinKind.INNER,
                List.of(0), List.of(0), null, 3)), 3, Pipeline.BuildSource.ROWS_ONLY, joined::addAll, third);
        p.accept(rows(0, 1000));
        p.finish();
        assertEquals(1000, joined.size());
        assertTrue(third.spilledBytes() > 0, "it spilled");
        third.close();
        assertEquals(0, node.used());
        assertEquals(0, spillFiles());
    }

    @Test
    void aQueryThatMayNotSpillAtAllFailsAtItsFirstWrite() throws Exception {
        QueryMemory memory = memory("node n2", 20_000, 1, SpillSpace.unbounded());
        ExternalSort sort = new ExternalSort(List.of(new SortKey(0, true, false)), memory, "sort (ORDER BY)");
        SpillLimitExceededException e = assertThrows(SpillLimitExceededException.class,
                () -> sort.add(rows(0, 1000)));
        assertTrue(e.getMessage().startsWith("sort (ORDER BY) on node n2 cannot spill"), e.getMessage());
        memory.close();
        assertEquals(0, spillFiles());
    }

    private long spillFiles() throws Exception {
        Path spill = dir.resolve("spill");
        if (!Files.exists(spill)) {
            return 0;
        }
        try (Stream<Path> files = Files.list(spill)) {
            return files.count();
        }
    }
}
