package org.oooengine.core.fragment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.sql.expr.AggregateCall;
import org.oooengine.core.sql.expr.Expr;
import org.oooengine.core.sql.expr.ScalarFunction;
import org.oooengine.core.vector.Batch;
import org.oooengine.core.vector.GatheredRows;
import org.oooengine.core.vector.Vector;
import org.oooengine.core.wire.ColumnarRows;
import org.oooengine.core.wire.PayloadReader;
import org.oooengine.core.wire.PayloadWriter;

/**
 * A partial aggregate on column batches that stops grouping once its groups are nearly as many as
 * its rows, and the final step that merges partial rows in arrays ({@link MergedGroups}), give
 * exactly what grouping every row whole gives: every aggregate kind, null keys and values, keys of
 * every representation, decimal sums past a long, groups spilled to disk and merged back; merged
 * from rows or from the columns partial rows travel in.
 */
class UngroupedPartialsTest {
    // the columns of VectorScanTest's rows
    private static final SqlType MONEY = VectorScanTest.MONEY;
    private static final Expr ID = VectorScanTest.ID;
    private static final Expr FLAG = VectorScanTest.FLAG;
    private static final Expr NAME = VectorScanTest.NAME;
    private static final Expr QTY = VectorScanTest.QTY;
    private static final Expr PRICE = VectorScanTest.PRICE;
    private static final Expr SHIPPED = VectorScanTest.SHIPPED;
    private static final Expr DISC = VectorScanTest.DISC;
    private static final Expr OK = VectorScanTest.OK;
    private static final SqlType[] TYPES = {SqlType.BIGINT, SqlType.varchar(1), SqlType.varchar(20), SqlType.INT, MONEY,
            SqlType.DATE, SqlType.DOUBLE, SqlType.BOOLEAN};
    private static final int ROWS = 6000;

    private static final List<AggregateCall> CALLS = List.of(
            new AggregateCall(AggregateCall.Kind.COUNT_STAR, null, false, SqlType.BIGINT),
            new AggregateCall(AggregateCall.Kind.COUNT, PRICE, false, SqlType.BIGINT),
            new AggregateCall(AggregateCall.Kind.COUNT, OK, false, SqlType.BIGINT),
            new AggregateCall(AggregateCall.Kind.SUM, QTY, false, SqlType.BIGINT),
            new AggregateCall(AggregateCall.Kind.AVG, QTY, false, SqlType.DOUBLE),
            new AggregateCall(AggregateCall.Kind.SUM, PRICE, false, SqlType.decimal(25, 2)),
            new AggregateCall(AggregateCall.Kind.AVG, PRICE, false, SqlType.decimal(19, 6)),
            new AggregateCall(AggregateCall.Kind.SUM, DISC, false, SqlType.DOUBLE),
            new AggregateCall(AggregateCall.Kind.AVG, DISC, false, SqlType.DOUBLE),
            new AggregateCall(AggregateCall.Kind.MIN, SHIPPED, false, SqlType.DATE),
            new AggregateCall(AggregateCall.Kind.MAX, SHIPPED, false, SqlType.DATE),
            new AggregateCall(AggregateCall.Kind.MIN, PRICE, false, MONEY),
            new AggregateCall(AggregateCall.Kind.MAX, QTY, false, SqlType.INT),
            new AggregateCall(AggregateCall.Kind.MIN, NAME, false, SqlType.varchar(20)),
            new AggregateCall(AggregateCall.Kind.MAX, DISC, false, SqlType.DOUBLE),
            // sums past a long's range: kept exactly in 128 bits, on both sides
            new AggregateCall(AggregateCall.Kind.SUM, new Expr.Call(ScalarFunction.MULTIPLY, List.of(PRICE,
                    new Expr.Literal(new BigDecimal("10000000.0000"), SqlType.decimal(12, 4))), SqlType.decimal(27, 6)),
                    false, SqlType.decimal(37, 6)));

    @TempDir
    Path dir;

    @Test
    void aPartialAggregateThatStopsGroupingGivesTheWholeAggregatesAnswer() {
        List<Object[]> rows = rows(new Random(7));
        // few groups (grouping pays) and nearly a group per row;
        // keys of every representation, with nulls; constant keys (a NULL kept as a key) hash nothing
        for (List<Expr> keys : List.of(List.of(FLAG), List.of(FLAG, QTY), List.of(ID), List.of(NAME, SHIPPED),
                List.of(PRICE, DISC), List.of(Expr.Literal.NULL, ID, FLAG), List.of(new Expr.Literal("x", SqlType.STRING), QTY))) {
            List<Object[]> expected = whole(keys, rows);
            // past which share of groups, weighed after how many rows
            long[][] cases = {{0, 1}, {0, 2000}, {0, 100_000}, {90, 1}, {PipelineStep.PartialAggregate.NEVER_SKIP, 1}};
            for (long[] when : cases) {
                int percent = (int) when[0];
                long sample = when[1];
                long[] skipped = {0};
                List<Object[]> partials = partials(keys, percent, sample, rows, skipped);
                String what = keys + " past " + percent + "% after " + sample + " rows";
                VectorScanTest.assertSameRows(expected, merge(keys.size(), partials, QueryMemory.unbounded()), what);
                VectorScanTest.assertSameRows(expected, mergeAsSent(keys.size(), partials, QueryMemory.unbounded()),
                        what + ", merged from the columns they travel in");
                if (percent == PipelineStep.PartialAggregate.NEVER_SKIP || sample > ROWS
                        || keys.equals(List.of(FLAG)) && percent > 0) {
                    assertEquals(0, skipped[0], what + ": rows sent on ungrouped");
                } else if (percent == 0 || keys.contains(ID)) {
                    // weighed after the batch that reached the sample; every row after it went on alone
                    long grouped = (sample + Pipeline.BATCH_ROWS - 1) / Pipeline.BATCH_ROWS * Pipeline.BATCH_ROWS;
                    assertEquals(ROWS - grouped, skipped[0], what + ": rows sent on ungrouped");
                }
            }
        }
    }

    @Test
    void partialGroupsSentAsColumnBatchesMergeToTheSameAnswer() {
        List<Object[]> rows = rows(new Random(11));
        // every aggregate but those whose states go as rows: a string's extreme, a sum past 18 digits
        List<AggregateCall> inColumns = CALLS.subList(0, CALLS.size() - 1).stream().filter(c -> c.arg() == null
                || Vector.representation(c.arg().type()) != Vector.Representation.OBJECT).toList();
        for (List<AggregateCall> calls : List.of(inColumns, CALLS)) {
            // constant keys too, as a grouping set has them (its rolled-up keys' nulls and its grouping id)
            for (List<Expr> keys : List.<List<Expr>>of(List.of(FLAG), List.of(ID), List.of(ID, FLAG),
                    List.of(NAME, SHIPPED), List.of(), List.of(FLAG, new Expr.Literal(null, SqlType.varchar(20)),
                            new Expr.Literal(3L, SqlType.BIGINT)), List.of(new Expr.Literal(null, SqlType.DATE), ID,
                            new Expr.Literal(new BigDecimal("1.50"), MONEY)))) {
                List<ColumnarRows.Chunk> chunks = new ArrayList<>();
                VectorAggregation a = VectorAggregation.of(new PipelineStep.PartialAggregate(keys, calls, 0), 1_000_000,
                        QueryMemory.unbounded(), new Shuffled(chunks));
                inBatches(rows, TYPES, a::add);
                a.finish();
                String what = keys + " of " + calls.size() + " aggregates";
                assertTrue(calls != inColumns || chunks.stream().allMatch(c -> c.columns() != null), what + ": rows");
                FinalAggregation merged = new FinalAggregation(keys.size(), calls);
                chunks.forEach(merged::acceptChunk);
                FinalAggregation whole = new FinalAggregation(keys.size(), calls);
                for (Object[] row : rows) {
                    whole.add(keys.stream().map(k -> k.eval(row)).toArray(), row);
                }
                VectorScanTest.assertSameRows(whole.results(), merged.results(), what + ", sent as batches");
            }
        }
    }

    /**
     * A whole aggregate hands its groups to what follows as column batches of its keys and
     * results, each of the call's type: the row engine's groups, keys constant or not; a decimal
     * sum past 18 digits goes as rows (a vector of longs does not hold it), as its right answer.
     */
    @Test
    void aWholeAggregateHandsItsGroupsOnAsBatches() {
        List<Object[]> rows = rows(new Random(12));
        List<AggregateCall> inColumns = CALLS.subList(0, CALLS.size() - 1);
        for (List<AggregateCall> calls : List.of(inColumns, CALLS)) {
            for (List<Expr> keys : List.<List<Expr>>of(List.of(FLAG), List.of(ID, FLAG), List.of(NAME, SHIPPED),
                    List.of(FLAG, new Expr.Literal(null, SqlType.varchar(20)), new Expr.Literal(3L, SqlType.BIGINT)))) {
                List<Object[]> rowsOut = new ArrayList<>();
                List<Object[]> batchesOut = new ArrayList<>();
                BatchSink sink = new BatchSink() {
                    @Override
                    public void accept(List<Object[]> some) {
                        rowsOut.addAll(some);
                    }

                    @Override
                    public void acceptBatch(Batch batch, SqlType[] types) {
                        assertEquals(keys.size() + calls.size(), types.length);
                        for (int a = 0; a < calls.size(); a++) {
                            assertEquals(calls.get(a).type(), types[keys.size() + a], "a result of its call's type");
                        }
                        batchesOut.addAll(batch.toRows(types));
                    }
                };
                VectorAggregation a = VectorAggregation.of(new PipelineStep.Aggregate(keys, calls), QueryMemory.unbounded(), sink);
                inBatches(rows, TYPES, a::add);
                a.finish();
                String what = keys + " of " + calls.size() + " aggregates";
                if (calls == inColumns) {
                    assertTrue(rowsOut.isEmpty(), what + ": rows");
                } else if (keys.equals(List.of(FLAG))) {
                    assertTrue(batchesOut.isEmpty(), what + ": a sum past a long sent as batches");
                }
                FinalAggregation whole = new FinalAggregation(keys.size(), calls);
                for (Object[] row : rows) {
                    whole.add(keys.stream().map(k -> k.eval(row)).toArray(), row);
                }
                List<Object[]> out = new ArrayList<>(rowsOut);
                out.addAll(batchesOut);
                VectorScanTest.assertSameRows(whole.results(), out, what);
            }
        }
    }

    /** A shuffle's end as a test sees it: each batch gathered into a chunk of columns, as it goes on the wire. */
    private record Shuffled(List<ColumnarRows.Chunk> chunks) implements BatchSink {
        @Override
        public void accept(List<Object[]> rows) {
            chunks.add(ColumnarRows.Chunk.ofRows(new ArrayList<>(rows)));
        }

        @Override
        public void acceptBatch(Batch batch, SqlType[] types) {
            GatheredRows g = new GatheredRows(batch, types, batch.size());
            g.add(batch, Arrays.copyOf(batch.positions(), batch.size()), batch.size());
            chunks.add(g.toChunk());
        }
    }

    @Test
    void theRowEnginesPartialAggregateStopsGroupingAsWell() {
        int count = 130_000;
        List<Object[]> rows = rows(new Random(10), count);
        List<Expr> keys = List.of(ID, FLAG);
        List<Object[]> partials = new ArrayList<>();
        Pipeline p = new Pipeline(List.of(new PipelineStep.PartialAggregate(keys, CALLS, 90)), partials::addAll);
        for (int from = 0; from < rows.size(); from += Pipeline.BATCH_ROWS) {
            p.accept(rows.subList(from, Math.min(rows.size(), from + Pipeline.BATCH_ROWS)));
        }
        p.finish();
        long grouped = (VectorAggregation.SKIP_SAMPLE_ROWS + Pipeline.BATCH_ROWS - 1) / Pipeline.BATCH_ROWS * Pipeline.BATCH_ROWS;
        assertEquals(count - grouped, p.rowsUngrouped());
        VectorScanTest.assertSameRows(whole(keys, rows), merge(keys.size(), partials, QueryMemory.unbounded()), "row engine");
    }

    /** Rows shuffled to a node whose steps end in a partial aggregate: the rows it sent on ungrouped are counted there too. */
    @Test
    void aPartialAggregateOverShuffledRowsCountsTheRowsItSentUngrouped() {
        int count = 130_000;
        List<Object[]> rows = rows(new Random(13), count);
        BitSet all = new BitSet();
        all.set(0, TYPES.length);
        List<Object[]> partials = new ArrayList<>();
        PartitionPipeline.OverRows shuffled = new PartitionPipeline.OverRows(new ScanPipeline("", TYPES.length, all,
                List.of(new PipelineStep.PartialAggregate(List.of(ID, FLAG), CALLS, 90))), Pipeline.BuildSource.ROWS_ONLY,
                partials::addAll, QueryMemory.unbounded());
        for (int from = 0; from < count; from += 1024) {
            PayloadWriter w = new PayloadWriter();
            ColumnarRows.write(w, rows.subList(from, Math.min(count, from + 1024)));
            shuffled.accept(ColumnarRows.readChunk(new PayloadReader(w.toByteArray())));
        }
        shuffled.finish();
        // grouped up to the chunk that reached the sample, every row after it sent on alone
        long grouped = (VectorAggregation.SKIP_SAMPLE_ROWS + 1023) / 1024 * 1024;
        assertEquals(count - grouped, shuffled.rowsUngrouped());
        VectorScanTest.assertSameRows(whole(List.of(ID, FLAG), rows), merge(2, partials, QueryMemory.unbounded()), "shuffled");
    }

    @Test
    void aPartialAggregateWithoutKeysNeverStopsGrouping() {
        List<Object[]> rows = rows(new Random(8));
        long[] skipped = {0};
        List<Object[]> partials = partials(List.of(), 0, 1, rows, skipped);
        assertEquals(1, partials.size());
        assertEquals(0, skipped[0]);
        VectorScanTest.assertSameRows(whole(List.of(), rows), merge(0, partials, QueryMemory.unbounded()), "no keys");
        // no row at all: one group, counting 0
        List<Object[]> none = merge(0, List.of(), QueryMemory.unbounded());
        assertEquals(1, none.size());
        assertEquals(0L, none.get(0)[0]);
        assertEquals(null, none.get(0)[5]);
    }

    @Test
    void mergedGroupsSpillToDiskAndMergeBackExactly() {
        List<Object[]> rows = rows(new Random(9));
        List<Expr> keys = List.of(ID, FLAG);
        List<Object[]> partials = partials(keys, 0, 1, rows, new long[1]);
        QueryMemory small = new QueryMemory("the node", 200_000, "ooo.query.max-memory-per-node", dir.resolve("spill"));
        VectorScanTest.assertSameRows(whole(keys, rows), merge(keys.size(), partials, small), "spilled");
        assertTrue(small.spilledRows() > 0, "nothing spilled");
        QueryMemory smallToo = new QueryMemory("the node", 200_000, "ooo.query.max-memory-per-node", dir.resolve("spill2"));
        VectorScanTest.assertSameRows(whole(keys, rows), mergeAsSent(keys.size(), partials, smallToo), "spilled, from columns");
        assertTrue(smallToo.spilledRows() > 0, "nothing spilled from columns");
        QueryMemory noDisk = new QueryMemory("the node", 200_000, "ooo.query.max-memory-per-node");
        assertThrows(MemoryLimitExceededException.class, () -> merge(keys.size(), partials, noDisk));
    }

    @Test
    void keysEqualAsGroupKeysAreOneGroupAndComeOutAsFirstSeen() {
        List<AggregateCall> count = List.of(new AggregateCall(AggregateCall.Kind.COUNT_STAR, null, false, SqlType.BIGINT));
        FinalAggregation f = new FinalAggregation(2, count);
        f.acceptAll(List.of(
                new Object[] {1, "a", 1L, null, null},
                new Object[] {1L, "a", 2L, null, null},
                new Object[] {new BigDecimal("1.00"), "a", 4L, null, null},
                new Object[] {new BigDecimal("1.50"), "a", 8L, null, null},
                new Object[] {new BigDecimal("1.5"), "a", 16L, null, null},
                new Object[] {null, "a", 32L, null, null},
                new Object[] {null, null, 64L, null, null},
                new Object[] {null, "a", 128L, null, null},
                new Object[] {2.5, null, 256L, null, null},
                new Object[] {LocalDate.of(2000, 1, 1), null, 512L, null, null},
                new Object[] {LocalDate.of(2000, 1, 1), null, 1024L, null, null}));
        List<String> got = f.results().stream().map(Arrays::toString).toList();
        assertEquals(List.of("[1, a, 7]", "[1.50, a, 24]", "[null, a, 160]", "[null, null, 64]", "[2.5, null, 256]",
                "[2000-01-01, null, 1536]"), got);
        assertEquals(Integer.class, f.results().get(0)[0].getClass());

        // the same keys as they travel, in columns: integers as longs beside the rows merged before
        FinalAggregation g = new FinalAggregation(2, count);
        g.acceptAll(Arrays.asList(new Object[][] {{new BigDecimal("1.00"), "a", 4L, null, null}}));
        g.acceptChunk(sent(List.of(new Object[] {1, "a", 1L, null, null}, new Object[] {2, "a", 2L, null, null})));
        g.acceptChunk(sent(List.of(new Object[] {1L, "a", 8L, null, null}, new Object[] {null, "a", 16L, null, null})));
        g.acceptChunk(sent(Arrays.asList(new Object[][] {{LocalDate.of(2000, 1, 1), null, 32L, null, null}})));
        // a date keyed by its day number from a column, by the LocalDate from a row: one group, and
        // not the group of the integer that is its day number
        g.acceptAll(Arrays.asList(new Object[][] {{LocalDate.of(2000, 1, 1), null, 64L, null, null}}));
        long day = LocalDate.of(2000, 1, 1).toEpochDay();
        g.acceptChunk(sent(Arrays.asList(new Object[][] {{day, null, 128L, null, null}})));
        g.acceptAll(Arrays.asList(new Object[][] {{new BigDecimal(day + ".00"), null, 256L, null, null}}));
        assertEquals(List.of("[1.00, a, 13]", "[2, a, 2]", "[null, a, 16]", "[2000-01-01, null, 96]", "[10957, null, 384]"),
                g.results().stream().map(Arrays::toString).toList());
        assertEquals(LocalDate.class, g.results().get(3)[0].getClass());
    }

    /** Rows with nulls in every column but the id; ids repeat now and then, so some groups have two rows. */
    private static List<Object[]> rows(Random r) {
        return rows(r, ROWS);
    }

    private static List<Object[]> rows(Random r, int count) {
        List<Object[]> rows = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            long id = r.nextInt(20) == 0 ? i / 2 : i;
            rows.add(new Object[] {id, r.nextInt(15) == 0 ? null : "ABC".substring(r.nextInt(3)).substring(0, 1),
                    r.nextInt(10) == 0 ? null : "name-" + r.nextInt(1000), r.nextInt(11) == 0 ? null : r.nextInt(50) - 10,
                    r.nextInt(12) == 0 ? null : BigDecimal.valueOf(r.nextInt(10_000_000) - 1_000_000, 2),
                    r.nextInt(13) == 0 ? null : LocalDate.ofEpochDay(8000 + r.nextInt(2500)),
                    r.nextInt(9) == 0 ? null : (double) r.nextInt(1000) / 8, r.nextInt(7) == 0 ? null : r.nextBoolean()});
        }
        return rows;
    }

    /** The answer of grouping every row whole, by the row engine's accumulators. */
    private static List<Object[]> whole(List<Expr> keys, List<Object[]> rows) {
        FinalAggregation f = new FinalAggregation(keys.size(), CALLS);
        for (Object[] row : rows) {
            f.add(keys.stream().map(k -> k.eval(row)).toArray(), row);
        }
        return f.results();
    }

    /** The partial rows of a vector partial aggregate over the rows, a batch at a time. */
    private static List<Object[]> partials(List<Expr> keys, int percent, long sample, List<Object[]> rows, long[] skipped) {
        List<Object[]> out = new ArrayList<>();
        VectorAggregation a = VectorAggregation.of(new PipelineStep.PartialAggregate(keys, CALLS, percent), sample,
                QueryMemory.unbounded(), out::addAll);
        inBatches(rows, TYPES, a::add);
        a.finish();
        skipped[0] = a.rowsUngrouped();
        return out;
    }

    /** The rows, SQL values of {@code types}, as column batches of {@link Pipeline#BATCH_ROWS}, in order. */
    static void inBatches(List<Object[]> rows, SqlType[] types, java.util.function.Consumer<Batch> batches) {
        for (int from = 0; from < rows.size(); from += Pipeline.BATCH_ROWS) {
            List<Object[]> part = rows.subList(from, Math.min(rows.size(), from + Pipeline.BATCH_ROWS));
            Vector[] columns = new Vector[types.length];
            for (int c = 0; c < types.length; c++) {
                columns[c] = Vector.allocate(types[c], part.size());
                for (int i = 0; i < part.size(); i++) {
                    columns[c].setBoxed(i, part.get(i)[c], types[c]);
                }
            }
            batches.accept(Batch.of(columns, part.size()));
        }
    }

    /** As {@link #merge}, each 700 partial rows sent over the wire as a chunk of columns and merged from them. */
    private static List<Object[]> mergeAsSent(int keyCount, List<Object[]> partials, QueryMemory memory) {
        FinalAggregation f = new FinalAggregation(keyCount, CALLS, memory);
        for (int from = 0; from < partials.size(); from += 700) {
            ColumnarRows.Chunk chunk = sent(partials.subList(from, Math.min(partials.size(), from + 700)));
            assertTrue(chunk.columns() != null, "sent as rows");
            f.acceptChunk(chunk);
        }
        return f.results();
    }

    /** The rows as a node receives them: written to the wire in columns, read back. */
    private static ColumnarRows.Chunk sent(List<Object[]> rows) {
        PayloadWriter w = new PayloadWriter();
        ColumnarRows.write(w, rows);
        return ColumnarRows.readChunk(new PayloadReader(w.toByteArray()));
    }

    private static List<Object[]> merge(int keyCount, List<Object[]> partials, QueryMemory memory) {
        FinalAggregation f = new FinalAggregation(keyCount, CALLS, memory);
        for (int from = 0; from < partials.size(); from += 700) {
            f.acceptAll(partials.subList(from, Math.min(partials.size(), from + 700)));
        }
        return f.results();
    }
}
