package org.oooengine.core.fragment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.oooengine.core.sql.expr.AggregateCall;
import org.oooengine.core.sql.SqlType;

/**
 * The coordinator's operators that hold rows give the same answer in memory and spilled: a sort
 * merged from sorted runs (in passes past its fan-in), a result kept in order across memory and
 * disk, and operators that spill when another one needs the room.
 */
class SpillingOperatorsTest {
    @TempDir
    Path dir;

    private QueryMemory memory(long limit) {
        return new QueryMemory("the coordinator", limit, "ooo.query.max-memory", dir.resolve("spill"));
    }

    private static List<Object[]> randomRows(int count, long seed) {
        Random random = new Random(seed);
        List<Object[]> rows = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            rows.add(new Object[] {random.nextInt(500) == 0 ? null : (long) random.nextInt(1000), "row " + i, (long) i});
        }
        return rows;
    }

    private static void inBatches(List<Object[]> rows, java.util.function.Consumer<List<Object[]>> to) {
        for (int from = 0; from < rows.size(); from += 100) {
            to.accept(new ArrayList<>(rows.subList(from, Math.min(rows.size(), from + 100))));
        }
    }

    @Test
    void aSortSpilledInManyRunsMergesToTheOrderOfOneInMemory() throws Exception {
        List<SortKey> keys = List.of(new SortKey(0, false, true), new SortKey(2, true, false));
        List<Object[]> rows = randomRows(20_000, 7);
        List<Object[]> expected = new ArrayList<>(rows);
        expected.sort(SortKey.order(keys));
        // runs of about a batch each: more than the fan-in, merged in two passes
        for (long limit : new long[] {Long.MAX_VALUE, 20_000}) {
            QueryMemory memory = memory(limit);
            ExternalSort sort = new ExternalSort(keys, memory, "sort (ORDER BY)");
            inBatches(rows, sort::add);
            if (limit < Long.MAX_VALUE) {
                assertTrue(sort.runsSpilled() > ExternalSort.FAN_IN, "runs: " + sort.runsSpilled());
            }
            List<Object[]> sorted = new ArrayList<>();
            sort.finish(sorted::addAll);
            assertEquals(expected.size(), sorted.size());
            for (int i = 0; i < expected.size(); i++) {
                assertEquals(expected.get(i)[2], sorted.get(i)[2], "row " + i);
            }
            assertEquals(0, memory.used(), "the sort gave its memory back");
            memory.close();
            assertEquals(0, spillFiles(), "no run is left on disk");
        }
    }

    @Test
    void aPipelineEndingInASortSendsItsRowsInOrderFromRunsOnDisk() {
        List<SortKey> keys = List.of(new SortKey(0, true, false), new SortKey(2, false, false));
        List<Object[]> rows = randomRows(5_000, 13);
        List<Object[]> expected = new ArrayList<>(rows);
        expected.sort(SortKey.order(keys));
        QueryMemory memory = memory(50_000);
        List<Object[]> out = new ArrayList<>();
        Pipeline p = new Pipeline(List.of(new PipelineStep.Sort(keys)), 3, Pipeline.BuildSource.ROWS_ONLY, out::addAll, memory);
        inBatches(rows, p::accept);
        assertTrue(memory.spilledBytes() > 0, "sorted runs went to disk");
        p.finish();
        assertEquals(expected.size(), out.size());
        for (int i = 0; i < expected.size(); i++) {
            assertEquals(expected.get(i)[2], out.get(i)[2], "row " + i);
        }
        memory.close();
    }

    @Test
    void aSortThatMayNotSpillFailsByName() {
        QueryMemory memory = new QueryMemory("the coordinator", 10_000, "ooo.query.max-memory");
        ExternalSort sort = new ExternalSort(List.of(new SortKey(0, true, false)), memory, "sort (ORDER BY)");
        MemoryLimitExceededException e = assertThrows(MemoryLimitExceededException.class,
                () -> inBatches(randomRows(1_000, 3), sort::add));
        assertTrue(e.getMessage().startsWith("sort (ORDER BY) on the coordinator needs more than"), e.getMessage());
    }

    /** Chunks of columns a result spilled come back from disk as chunks of columns, their rows as they were. */
    @Test
    void spooledChunksStayColumnsOnDisk() throws Exception {
        List<Object[]> rows = randomRows(3_000, 5);
        QueryMemory memory = memory(100_000);
        SpooledRows spool = new SpooledRows(memory, "result rows not yet fetched");
        for (int from = 0; from < rows.size(); from += 1_000) {
            org.oooengine.core.wire.PayloadWriter w = new org.oooengine.core.wire.PayloadWriter();
            org.oooengine.core.wire.ColumnarRows.write(w, rows.subList(from, from + 1_000));
            spool.accept(org.oooengine.core.wire.ColumnarRows.readKeepingColumns(new org.oooengine.core.wire.PayloadReader(w.toByteArray())));
        }
        assertTrue(memory.spilledBytes() > 0);
        List<List<Object[]>> pieces = spool.iterator().take(rows.size());
        assertTrue(pieces.stream().allMatch(p -> org.oooengine.core.wire.ColumnarRows.chunkOf(p) != null), "columns");
        List<Object[]> back = new ArrayList<>();
        pieces.forEach(back::addAll);
        assertEquals(rows.size(), back.size());
        for (int i = 0; i < rows.size(); i++) {
            org.junit.jupiter.api.Assertions.assertArrayEquals(rows.get(i), back.get(i), "row " + i);
        }
        memory.close();
    }

    @Test
    void spooledRowsComeBackInOrderFromMemoryAndDisk() throws Exception {
        List<Object[]> rows = randomRows(5_000, 11);
        for (boolean revokedEarly : new boolean[] {false, true}) {
            QueryMemory memory = memory(200_000);
            SpooledRows spool = new SpooledRows(memory, "result rows not yet fetched");
            inBatches(rows.subList(0, 300), spool);
            if (revokedEarly) {
                spool.revoke(); // another operator needed the room: what is held goes to disk first
                assertEquals(0, memory.used());
            }
            inBatches(rows.subList(300, rows.size()), spool);
            assertTrue(memory.used() <= 200_000 / SpooledRows.SHARE, "held " + memory.used());
            assertTrue(memory.spilledBytes() > 0);
            List<Object[]> back = new ArrayList<>();
            SpooledRows.Cursor cursor = spool.iterator();
            for (int i = 0; i < 40; i++) {
                back.add(cursor.next());
            }
            // the rest in runs that cross the lists they were kept in, memory's and disk's
            for (List<List<Object[]>> run = cursor.take(777); !run.isEmpty(); run = cursor.take(777)) {
                int n = run.stream().mapToInt(List::size).sum();
                assertTrue(n == 777 || !cursor.hasNext(), "a short run before the end: " + n);
                run.forEach(back::addAll);
            }
            assertEquals(rows.size(), back.size());
            for (int i = 0; i < rows.size(); i++) {
                assertEquals(rows.get(i)[2], back.get(i)[2], "row " + i);
            }
            memory.close();
            assertEquals(0, spillFiles());
        }
    }

    @Test
    void anOperatorThatNeedsRoomHasTheOthersSpill() throws Exception {
        // the groups hold half the memory; the sort's rows fit in the rest only once the groups go to disk
        QueryMemory memory = memory(300_000);
        AggregateCall count = new AggregateCall(AggregateCall.Kind.COUNT_STAR, null, false, SqlType.BIGINT);
        FinalAggregation groups = new FinalAggregation(1, List.of(count), memory);
        memory.revocable(groups::revoke);
        ExternalSort sort = new ExternalSort(List.of(new SortKey(2, true, false)), memory, "sort (ORDER BY)");
        memory.revocable(sort::revoke);
        List<Object[]> rows = randomRows(5_000, 5);
        int grouped = 0;
        while (memory.used() < 150_000) {
            Object[] row = rows.get(grouped++);
            groups.add(new Object[] {row[2]}, row);
        }
        List<Object[]> sorted = new ArrayList<>();
        long sortBytes = 0;
        for (int from = 0; sortBytes < 200_000; from += 100) { // more than the groups leave, less than the limit
            List<Object[]> batch = new ArrayList<>(rows.subList(from, from + 100));
            sortBytes += QueryMemory.rowsBytes(batch);
            sorted.addAll(batch);
            sort.add(batch);
        }
        assertTrue(memory.spilledBytes() > 0, "the groups spilled");
        assertEquals(0, sort.runsSpilled(), "the sort kept its rows: the groups made the room");
        List<Object[]> results = groups.results();
        assertEquals(grouped, results.size());
        List<Object[]> out = new ArrayList<>();
        sort.finish(out::addAll);
        assertEquals(sorted.size(), out.size());
        memory.close();
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
