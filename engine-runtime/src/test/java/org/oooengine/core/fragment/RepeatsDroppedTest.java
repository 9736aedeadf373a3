package org.oooengine.core.fragment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.oooengine.core.wire.PayloadReader;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.sql.expr.Expr;

/**
 * A step that drops the repeats a DISTINCT above would drop: on column batches and on rows alike,
 * it lets through the first row of each key (nulls alike) in the order they came, stops looking
 * where few rows repeat, forgets what it saw when that outgrows its share of the memory (letting
 * repeats through, losing none of the keys), and crosses the wire as it was.
 */
class RepeatsDroppedTest {
    private static final SqlType[] TYPES = {SqlType.BIGINT, SqlType.DATE, SqlType.varchar(10), SqlType.INT};
    private static final Expr CUSTOMER = new Expr.Column(0, SqlType.BIGINT);
    private static final Expr DAY = new Expr.Column(1, SqlType.DATE);
    private static final Expr NAME = new Expr.Column(2, SqlType.varchar(10));

    @Test
    void theFirstRowOfEachKeyComesThroughInOrderOnBatchesAndOnRows() {
        // tickets of up to 12 lines, each line a row of the ticket's customer and day; nulls among them
        List<Object[]> rows = tickets(new Random(3), 60_000);
        for (List<Expr> keys : List.of(List.of(CUSTOMER, DAY), List.of(NAME), List.of(DAY, NAME, CUSTOMER))) {
            PipelineStep.DropRepeats step = new PipelineStep.DropRepeats(keys, 90);
            List<Object[]> expected = firstOfEachKey(rows, keys);
            assertTrue(expected.size() * 3 < rows.size(), "the rows repeat");
            assertSameRows(expected, vectors(List.of(step), rows, QueryMemory.unbounded()), keys + " on batches");
            assertSameRows(expected, onRows(List.of(step), rows, QueryMemory.unbounded()), keys + " on rows");
        }
    }

    @Test
    void whereFewRowsRepeatItStopsLookingAndLetsEveryRowThrough() {
        Random r = new Random(4);
        List<Object[]> rows = new ArrayList<>();
        for (int i = 0; i < 150_000; i++) { // a repeat in every 20 rows: too few to look for
            long id = r.nextInt(20) == 0 ? i / 2 : i;
            rows.add(new Object[] {id, LocalDate.ofEpochDay(10_000), "x", i});
        }
        PipelineStep.DropRepeats step = new PipelineStep.DropRepeats(List.of(CUSTOMER), 90);
        for (Function<List<Object[]>, List<Object[]>> run : List.<Function<List<Object[]>, List<Object[]>>>of(
                in -> vectors(List.of(step), in, QueryMemory.unbounded()), in -> onRows(List.of(step), in, QueryMemory.unbounded()))) {
            List<Object[]> out = run.apply(rows);
            long looked = RepeatsDropped.SAMPLE_ROWS;
            // the repeats among the first rows are dropped; every row after the batch that reached the sample comes through
            long dropped = rows.size() - out.size();
            assertTrue(dropped > 0 && dropped < looked / 10, "dropped " + dropped);
            assertSameRows(rows.subList(rows.size() - 40_000, rows.size()), out.subList(out.size() - 40_000, out.size()),
                    "the rows after it stopped");
        }
    }

    @Test
    void keysOutgrowingTheirShareOfTheMemoryAreForgottenNotLost() {
        Random r = new Random(5);
        List<Object[]> rows = new ArrayList<>();
        for (int i = 0; i < 120_000; i++) { // 60,000 keys, each twice, a thousand rows apart
            long id = i / 2000 * 1000 + i % 1000;
            rows.add(new Object[] {id, null, r.nextBoolean() ? null : "n" + (id % 7), (int) id});
        }
        PipelineStep.DropRepeats step = new PipelineStep.DropRepeats(List.of(CUSTOMER), PipelineStep.PartialAggregate.NEVER_SKIP);
        for (boolean batches : new boolean[] {true, false}) {
            QueryMemory memory = new QueryMemory("n1", 4 << 20, "ooo.query.max-memory-per-node"); // a share of 1 MiB
            List<Object[]> out = batches ? vectors(List.of(step), rows, memory) : onRows(List.of(step), rows, memory);
            assertTrue(out.size() > 60_000, "some repeats let through: " + out.size());
            assertTrue(out.size() < rows.size(), "some dropped: " + out.size());
            assertSameRows(firstOfEachKey(rows, List.of(CUSTOMER)), firstOfEachKey(out, List.of(CUSTOMER)), "every key");
        }
    }

    @Test
    void aPipelineThatDropsRepeatsCrossesTheWireAsItWas() {
        BitSet columns = new BitSet();
        columns.set(0, 4);
        ScanPipeline sent = new ScanPipeline("sales", 4, columns, List.of(
                new PipelineStep.Filter(new Expr.IsNull(NAME, true)),
                new PipelineStep.DropRepeats(List.of(CUSTOMER, DAY), 75),
                new PipelineStep.PartialAggregate(List.of(DAY), List.of())));
        assertEquals(sent, ScanPipeline.read(new PayloadReader(sent.toBytes())));
        assertEquals(Arrays.asList(true, true, true, false), Arrays.asList(readColumns(sent)));
        // a join building from partial groups merged as they arrive (two GROUP BYs joined on the nodes)
        BitSet two = new BitSet();
        two.set(0, 2);
        ScanPipeline merging = new ScanPipeline("", 4, two, List.of(new PipelineStep.MergePartials(1, List.of(
                new org.oooengine.core.sql.expr.AggregateCall(org.oooengine.core.sql.expr.AggregateCall.Kind.COUNT_STAR, null,
                        false, SqlType.BIGINT)))));
        ScanPipeline joining = new ScanPipeline("sales", 4, columns, List.of(new PipelineStep.HashJoin(
                new JoinBuild.Exchanged("q/build0", 3, true, merging), org.oooengine.core.sql.JoinKind.FULL, List.of(0), List.of(0),
                null, 2)));
        assertEquals(joining, ScanPipeline.read(new PayloadReader(joining.toBytes())));
    }

    private static Boolean[] readColumns(ScanPipeline p) {
        BitSet read = ScanPipeline.inputsRead(4, p.steps(), new BitSet());
        Boolean[] out = new Boolean[4];
        for (int c = 0; c < 4; c++) {
            out[c] = read.get(c);
        }
        return out;
    }

    /** Ticket lines: a ticket's customer (or null) and day on each of its lines. */
    private static List<Object[]> tickets(Random r, int count) {
        List<Object[]> rows = new ArrayList<>();
        while (rows.size() < count) {
            Long customer = r.nextInt(30) == 0 ? null : (long) r.nextInt(5000);
            LocalDate day = r.nextInt(40) == 0 ? null : LocalDate.ofEpochDay(10_000 + r.nextInt(365));
            String name = customer == null ? null : "c" + customer % 500;
            for (int line = 1 + r.nextInt(12); line > 0; line--) {
                rows.add(new Object[] {customer, day, name, line});
            }
        }
        return rows;
    }

    private static List<Object[]> firstOfEachKey(List<Object[]> rows, List<Expr> keys) {
        Map<List<Object>, Object[]> first = new LinkedHashMap<>();
        for (Object[] row : rows) {
            first.putIfAbsent(Arrays.asList(keys.stream().map(k -> k.eval(row)).toArray()), row);
        }
        return new ArrayList<>(first.values());
    }

    private static List<Object[]> vectors(List<PipelineStep> steps, List<Object[]> rows, QueryMemory memory) {
        List<Object[]> out = new ArrayList<>();
        VectorPipeline p = new VectorPipeline(steps, TYPES, Pipeline.BuildSource.ROWS_ONLY, out::addAll, memory);
        UngroupedPartialsTest.inBatches(rows, TYPES, p::accept);
        p.finish();
        return out;
    }

    private static List<Object[]> onRows(List<PipelineStep> steps, List<Object[]> rows, QueryMemory memory) {
        List<Object[]> out = new ArrayList<>();
        Pipeline p = new Pipeline(steps, TYPES.length, Pipeline.BuildSource.ROWS_ONLY, out::addAll, memory);
        for (int from = 0; from < rows.size(); from += Pipeline.BATCH_ROWS) {
            p.accept(rows.subList(from, Math.min(rows.size(), from + Pipeline.BATCH_ROWS)));
        }
        p.finish();
        return out;
    }

    /** The same rows in the same order. */
    private static void assertSameRows(List<Object[]> expected, List<Object[]> actual, String what) {
        assertEquals(expected.size(), actual.size(), what + ": rows");
        for (int i = 0; i < expected.size(); i++) {
            assertEquals(Arrays.asList(expected.get(i)), Arrays.asList(actual.get(i)), what + ": row " + i);
        }
    }
}
