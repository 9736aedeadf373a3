package org.oooengine.core.fragment;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.Period;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.oooengine.core.wire.PayloadReader;
import org.oooengine.core.wire.PayloadWriter;
import org.oooengine.core.wire.ProtocolException;
import org.oooengine.core.sql.JoinKind;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.sql.expr.AggregateCall;
import org.oooengine.core.sql.expr.Expr;
import org.oooengine.core.sql.expr.ExprCodec;
import org.oooengine.core.sql.expr.ScalarFunction;
import org.oooengine.core.sql.expr.WindowCall;

/**
 * Pipelines as the nodes run them: their wire form decodes to the same pipeline, and a GROUP BY
 * split into partial states on several "nodes" and merged gives what one aggregate over all rows
 * gives, for every aggregate kind and nulls included.
 */
class PipelineTest {
    private static final SqlType MONEY = SqlType.decimal(15, 2);
    // rows: (flag string, quantity bigint, price decimal(15,2), ship date, discount double)
    private static final Expr FLAG = new Expr.Column(0, SqlType.STRING);
    private static final Expr QUANTITY = new Expr.Column(1, SqlType.BIGINT);
    private static final Expr PRICE = new Expr.Column(2, MONEY);
    private static final Expr SHIPPED = new Expr.Column(3, SqlType.DATE);
    private static final Expr DISCOUNT = new Expr.Column(4, SqlType.DOUBLE);

    private static final List<AggregateCall> CALLS = List.of(
            new AggregateCall(AggregateCall.Kind.COUNT_STAR, null, false, SqlType.BIGINT),
            new AggregateCall(AggregateCall.Kind.COUNT, PRICE, false, SqlType.BIGINT),
            new AggregateCall(AggregateCall.Kind.SUM, QUANTITY, false, SqlType.BIGINT),
            new AggregateCall(AggregateCall.Kind.SUM, PRICE, false, SqlType.decimal(25, 2)),
            new AggregateCall(AggregateCall.Kind.AVG, PRICE, false, SqlType.decimal(19, 6)),
            new AggregateCall(AggregateCall.Kind.AVG, DISCOUNT, false, SqlType.DOUBLE),
            new AggregateCall(AggregateCall.Kind.MIN, SHIPPED, false, SqlType.DATE),
            new AggregateCall(AggregateCall.Kind.MAX, PRICE, false, MONEY));

    @Test
    void aSplitAggregateEqualsOneOverAllRows() {
        List<Object[]> rows = rows(5000, 7);
        // shipped before 1995-06-17, as a filter on the nodes
        Expr filter = new Expr.Call(ScalarFunction.LT, List.of(SHIPPED, new Expr.Literal(LocalDate.of(1995, 6, 17),
                SqlType.DATE)), SqlType.BOOLEAN);
        for (List<Expr> keys : List.of(List.<Expr>of(), List.of(FLAG))) {
            List<PipelineStep> steps = List.of(new PipelineStep.Filter(filter), new PipelineStep.PartialAggregate(keys, CALLS));
            FinalAggregation merged = new FinalAggregation(keys.size(), CALLS);
            for (int node = 0; node < 4; node++) {
                Pipeline p = new Pipeline(steps, batch -> batch.forEach(merged::accept));
                List<Object[]> part = new ArrayList<>();
                for (int i = node; i < rows.size(); i += 4) {
                    part.add(rows.get(i));
                }
                for (int from = 0; from < part.size(); from += Pipeline.BATCH_ROWS) {
                    p.accept(part.subList(from, Math.min(part.size(), from + Pipeline.BATCH_ROWS)));
                }
                p.finish();
            }
            List<Object[]> oneStep = new ArrayList<>();
            Pipeline filterOnly = new Pipeline(List.of(new PipelineStep.Filter(filter)), oneStep::addAll);
            filterOnly.accept(rows);
            GroupTable whole = new GroupTable(CALLS);
            for (Object[] row : oneStep) {
                whole.group(keys.isEmpty() ? new Object[0] : new Object[] {row[0]}).add(row);
            }
            List<Object[]> expected = new ArrayList<>();
            whole.groups().forEach(g -> expected.add(g.result()));
            assertSameRows(expected, merged.results());
        }
    }

    @Test
    void aGlobalAggregateOverNoRowsIsOneRowOfEmptyResults() {
        List<Object[]> out = new ArrayList<>();
        FinalAggregation merged = new FinalAggregation(0, CALLS);
        Pipeline p = new Pipeline(List.of(new PipelineStep.PartialAggregate(List.of(), CALLS)), b -> b.forEach(merged::accept));
        p.accept(List.of());
        p.finish();
        out.addAll(merged.results());
        assertEquals(1, out.size());
        assertArrayEquals(new Object[] {0L, 0L, null, null, null, null, null, null}, out.get(0));
        assertEquals(1, new FinalAggregation(0, CALLS).results().size(), "no node answered a row: still one row");
        assertTrue(new FinalAggregation(1, CALLS).results().isEmpty(), "with keys: no groups");
    }

    @Test
    void aWholeAggregateSendsItsGroupsThroughTheStepsAfterIt() {
        // per flag: the sum of quantities, then only the groups over 20,000, as flag and sum
        Expr sum = new Expr.Column(1, SqlType.BIGINT);
        List<PipelineStep> steps = List.of(
                new PipelineStep.Aggregate(List.of(FLAG), List.of(new AggregateCall(AggregateCall.Kind.SUM, QUANTITY, false,
                        SqlType.BIGINT), new AggregateCall(AggregateCall.Kind.COUNT, PRICE, true, SqlType.BIGINT))),
                new PipelineStep.Filter(new Expr.Call(ScalarFunction.GT, List.of(sum, new Expr.Literal(20_000L, SqlType.BIGINT)),
                        SqlType.BOOLEAN)),
                new PipelineStep.Project(List.of(FLAG, sum)));
        List<Object[]> rows = rows(3000, 11);
        List<Object[]> out = new ArrayList<>();
        Pipeline p = new Pipeline(steps, 5, Pipeline.BuildSource.ROWS_ONLY, out::addAll);
        p.accept(rows.subList(0, 1000));
        p.accept(rows.subList(1000, 3000));
        assertTrue(out.isEmpty(), "nothing before the input ends");
        p.finish();
        java.util.Map<Object, Long> sums = new java.util.HashMap<>();
        for (Object[] r : rows) {
            if (r[1] != null) {
                sums.merge(r[0], (Long) r[1], Long::sum);
            }
        }
        List<String> expected = sums.entrySet().stream().filter(e -> e.getValue() > 20_000)
                .map(e -> e.getKey() + "=" + e.getValue()).sorted().toList();
        assertEquals(expected, out.stream().map(r -> r[0] + "=" + r[1]).sorted().toList());
        assertTrue(!expected.isEmpty());
        assertEquals(3, Pipeline.widthAfter(steps.get(0), 9), "a key and two aggregates");
    }

    @Test
    void aDistinctAggregateIsNotSplit() {
        AggregateCall distinct = new AggregateCall(AggregateCall.Kind.COUNT, FLAG, true, SqlType.BIGINT);
        assertThrows(IllegalArgumentException.class, () -> new PipelineStep.PartialAggregate(List.of(), List.of(distinct)));
    }

    @Test
    void aPipelineCrossesTheWireUnchanged() {
        Expr everyKind = new Expr.And(List.of(
                new Expr.Or(List.of(new Expr.Not(new Expr.IsNull(FLAG, true)), new Expr.Like(FLAG, "A%_", false))),
                new Expr.InList(QUANTITY, List.of(new Expr.Literal(1L, SqlType.BIGINT), Expr.Literal.NULL), true),
                new Expr.Call(ScalarFunction.GE, List.of(SHIPPED, new Expr.Call(ScalarFunction.DATE_MINUS_INTERVAL,
                        List.of(new Expr.Literal(LocalDate.of(1998, 12, 1), SqlType.DATE),
                                new Expr.Literal(Period.ofDays(90), SqlType.INTERVAL)), SqlType.DATE)), SqlType.BOOLEAN),
                new Expr.Call(ScalarFunction.GT, List.of(new Expr.Case(List.of(new Expr.Call(ScalarFunction.EQ,
                        List.of(FLAG, new Expr.Literal("R", SqlType.STRING)), SqlType.BOOLEAN)),
                        List.of(PRICE), new Expr.Literal(new BigDecimal("-12345678901234567890.25"), SqlType.decimal(22, 2)),
                        SqlType.decimal(22, 2)), new Expr.Literal(0.5, SqlType.DOUBLE)), SqlType.BOOLEAN)));
        ScanPipeline p = new ScanPipeline("lineitem", 16, bits(0, 1, 2, 3, 4, 15), List.of(
                new PipelineStep.Filter(everyKind),
                new PipelineStep.Project(List.of(FLAG, PRICE, new Expr.Literal(true, SqlType.BOOLEAN))),
                new PipelineStep.PartialAggregate(List.of(new Expr.Column(0, SqlType.STRING)), CALLS)));
        ScanPipeline back = ScanPipeline.read(new PayloadReader(p.toBytes()));
        assertEquals(p, back);
        ScanPipeline skipping = new ScanPipeline("lineitem", 16, bits(0), List.of(
                new PipelineStep.PartialAggregate(List.of(new Expr.Column(0, SqlType.BIGINT)), CALLS, 85)));
        assertEquals(skipping, ScanPipeline.read(new PayloadReader(skipping.toBytes())));
        ScanPipeline top = new ScanPipeline("lineitem", 16, bits(0, 1), List.of(new PipelineStep.TopN(
                List.of(new SortKey(1, false, true), new SortKey(0, true, false)), 100)));
        assertEquals(top, ScanPipeline.read(new PayloadReader(top.toBytes())));
        ScanPipeline first = new ScanPipeline("lineitem", 16, bits(0), List.of(new PipelineStep.Limit(3_000_000_000L)));
        assertEquals(first, ScanPipeline.read(new PayloadReader(first.toBytes())));
        ScanPipeline sorted = new ScanPipeline("lineitem", 16, bits(0, 1), List.of(new PipelineStep.Sort(
                List.of(new SortKey(1, false, true), new SortKey(0, true, false)))));
        assertEquals(sorted, ScanPipeline.read(new PayloadReader(sorted.toBytes())));
    }

    @Test
    void aWindowCrossesTheWireUnchanged() {
        WindowCall.Frame sliding = new WindowCall.Frame(true, WindowCall.Bound.preceding(2L),
                WindowCall.Bound.following(1L));
        WindowCall.Frame range = new WindowCall.Frame(false, WindowCall.Bound.preceding(new BigDecimal("1.5")),
                WindowCall.Bound.CURRENT_ROW);
        PipelineStep.Window w = new PipelineStep.Window(List.of(FLAG), List.of(new WindowCall.OrderKey(PRICE, false, true)),
                List.of(WindowCall.ranking(WindowCall.Kind.RANK), WindowCall.ntile(4),
                        WindowCall.shift(WindowCall.Kind.LAG, QUANTITY, 2, new Expr.Literal(0L, SqlType.BIGINT)),
                        WindowCall.value(WindowCall.Kind.LAST_VALUE, SHIPPED, true, WindowCall.Frame.WHOLE_PARTITION),
                        WindowCall.aggregate(CALLS.get(0), sliding), WindowCall.aggregate(CALLS.get(0), range)));
        ScanPipeline p = new ScanPipeline("lineitem", 16, bits(0, 1, 2, 3), List.of(w,
                new PipelineStep.Filter(new Expr.IsNull(new Expr.Column(16, SqlType.INT), true))));
        assertEquals(p, ScanPipeline.read(new PayloadReader(p.toBytes())));
        assertEquals(22, Pipeline.widthAfter(w, 16), "a column per call");
        PipelineStep.MergePartials merge = new PipelineStep.MergePartials(1, CALLS);
        ScanPipeline merged = new ScanPipeline("lineitem", merge.inputWidth(), bits(0), List.of(merge));
        assertEquals(merged, ScanPipeline.read(new PayloadReader(merged.toBytes())));
        assertEquals(1 + CALLS.size(), Pipeline.widthAfter(merge, merge.inputWidth()));
    }

    @Test
    void partialRowsMergedInAPipelineGiveEachGroupOnceToTheStepsAfter() {
        // two "nodes" count and sum their halves by group; a third merges them, then ranks the groups by their sums
        Expr group = new Expr.Column(0, SqlType.STRING);
        Expr value = new Expr.Column(1, SqlType.BIGINT);
        List<AggregateCall> calls = List.of(new AggregateCall(AggregateCall.Kind.COUNT_STAR, null, false, SqlType.BIGINT),
                new AggregateCall(AggregateCall.Kind.SUM, value, false, SqlType.BIGINT));
        List<Object[]> partials = new ArrayList<>();
        for (int node = 0; node < 2; node++) {
            Pipeline partial = new Pipeline(List.of(new PipelineStep.PartialAggregate(List.of(group), calls)),
                    partials::addAll);
            List<Object[]> rows = new ArrayList<>();
            for (long i = node; i < 100; i += 2) {
                rows.add(new Object[] {i % 4 == 3 ? null : "g" + i % 4, i});
            }
            partial.accept(rows);
            partial.finish();
        }
        PipelineStep.MergePartials merge = new PipelineStep.MergePartials(1, calls);
        PipelineStep.Window rank = new PipelineStep.Window(List.of(), List.of(new WindowCall.OrderKey(
                new Expr.Column(2, SqlType.BIGINT), false, false)), List.of(WindowCall.ranking(WindowCall.Kind.RANK)));
        List<Object[]> out = new ArrayList<>();
        Pipeline merged = new Pipeline(List.of(merge, rank), merge.inputWidth(), Pipeline.BuildSource.ROWS_ONLY, out::addAll,
                QueryMemory.unbounded());
        merged.accept(partials);
        merged.finish();
        assertEquals(4, out.size(), "each group once");
        // sums: g0 = 0+4+...+96 = 1200, g1 = 1225, g2 = 1250, null (3, 7, ..., 99) = 1275
        assertArrayEquals(new Object[] {null, 25L, 1275L, 1}, out.get(0));
        assertArrayEquals(new Object[] {"g0", 25L, 1200L, 4}, out.get(3));
    }

    @Test
    void aWindowInAPipelineComputesWholePartitionsAndPassesThemOn() {
        // (group, value): row_number by value desc within each group, then only the first of each group
        List<Object[]> rows = new ArrayList<>();
        for (long i = 0; i < 5000; i++) {
            rows.add(new Object[] {i % 7 == 0 ? null : "g" + (i % 7), i});
        }
        Expr group = new Expr.Column(0, SqlType.STRING);
        PipelineStep.Window w = new PipelineStep.Window(List.of(group),
                List.of(new WindowCall.OrderKey(new Expr.Column(1, SqlType.BIGINT), false, false)),
                List.of(WindowCall.ranking(WindowCall.Kind.ROW_NUMBER)));
        List<Object[]> out = new ArrayList<>();
        QueryMemory memory = new QueryMemory("test", 1 << 20, "test.memory");
        Pipeline pipeline = new Pipeline(List.of(w, new PipelineStep.Filter(new Expr.Call(ScalarFunction.EQ,
                List.of(new Expr.Column(2, SqlType.INT), new Expr.Literal(1, SqlType.INT)), SqlType.BOOLEAN))),
                2, Pipeline.BuildSource.ROWS_ONLY, out::addAll, memory);
        for (int from = 0; from < rows.size(); from += 700) {
            pipeline.accept(rows.subList(from, Math.min(rows.size(), from + 700)));
        }
        pipeline.finish();
        assertEquals(7, out.size(), "one row per group, the NULL group too");
        for (Object[] row : out) {
            long top = row[0] == null ? 4998 - 4998 % 7 : 4999 - (4999 - Long.parseLong(((String) row[0]).substring(1))) % 7;
            assertEquals(top, row[1], "the largest value of group " + row[0]);
        }
        assertEquals(0, memory.used(), "the window's rows' memory is given back");
    }

    @Test
    void aLimitLetsOutItsFirstRowsAndNoMore() {
        List<Object[]> out = new ArrayList<>();
        Pipeline p = new Pipeline(List.of(new PipelineStep.Filter(new Expr.Call(ScalarFunction.GT,
                List.of(new Expr.Column(0, SqlType.BIGINT), new Expr.Literal(10L, SqlType.BIGINT)), SqlType.BOOLEAN)),
                new PipelineStep.Limit(25)), out::addAll);
        for (long from = 0; from < 100; from += 20) {
            List<Object[]> batch = new ArrayList<>();
            for (long v = from; v < from + 20; v++) {
                batch.add(new Object[] {v});
            }
            p.accept(batch);
        }
        p.finish();
        assertEquals(25, out.size());
        assertEquals(11L, out.get(0)[0]);
        assertEquals(35L, out.get(24)[0]);
        assertThrows(IllegalArgumentException.class, () -> new Pipeline(List.of(new PipelineStep.Limit(1),
                new PipelineStep.Filter(new Expr.Literal(true, SqlType.BOOLEAN))), rows -> { }));
    }

    @Test
    void aTopNKeepsTheFirstRowsInOrderNullsAndTiesIncluded() {
        // (flag, quantity): ordered by quantity descending with nulls first, then flag ascending
        List<SortKey> keys = List.of(new SortKey(1, false, true), new SortKey(0, true, false));
        List<Object[]> rows = new ArrayList<>();
        Random r = new Random(3);
        for (int i = 0; i < 5000; i++) {
            rows.add(new Object[] {r.nextInt(9) == 0 ? null : "f" + r.nextInt(20), r.nextInt(50) == 0 ? null : (long) r.nextInt(300)});
        }
        List<Object[]> expected = new ArrayList<>(rows);
        expected.sort(SortKey.order(keys)); // stable: ties keep their arrival order
        for (int n : new int[] {0, 1, 7, 100, 6000}) {
            List<Object[]> out = new ArrayList<>();
            QueryMemory memory = new QueryMemory("test", 1 << 20, "test.memory");
            Pipeline p = new Pipeline(List.of(new PipelineStep.TopN(keys, n)), 2, Pipeline.BuildSource.ROWS_ONLY, out::addAll,
                    memory);
            for (int from = 0; from < rows.size(); from += 700) {
                p.accept(rows.subList(from, Math.min(rows.size(), from + 700)));
            }
            p.finish();
            assertEquals(expected.subList(0, Math.min(n, rows.size())), out, "the first " + n);
            assertEquals(0, memory.used(), "the kept rows' memory is given back");
        }
        assertThrows(IllegalArgumentException.class, () -> new Pipeline(List.of(new PipelineStep.TopN(keys, 1),
                new PipelineStep.Filter(new Expr.IsNull(FLAG, false))), batch -> { }), "a top-N ends a pipeline");
    }

    @Test
    void joinsCrossTheWireWithTheirBuilds() {
        ScanPipeline orders = new ScanPipeline("orders", 9, bits(0, 1), List.of(new PipelineStep.Filter(new Expr.IsNull(FLAG, true))));
        List<Object[]> nations = List.of(new Object[] {0L, "ALGERIA"}, new Object[] {1L, null});
        ScanPipeline p = new ScanPipeline("lineitem", 16, bits(0, 1), List.of(
                new PipelineStep.HashJoin(new JoinBuild.Local(orders), JoinKind.FULL, List.of(0), List.of(0),
                        new Expr.IsNull(new Expr.Column(17, SqlType.STRING), false), 9),
                new PipelineStep.HashJoin(new JoinBuild.Rows(nations), JoinKind.ANTI_NULL_AWARE, List.of(1), List.of(0), null, 2)));
        ScanPipeline back = ScanPipeline.read(new PayloadReader(p.toBytes()));
        assertArrayEquals(p.toBytes(), back.toBytes());
        assertEquals("ALGERIA", ((JoinBuild.Rows) ((PipelineStep.HashJoin) back.steps().get(1)).build()).rows().get(0)[1]);
        assertThrows(IllegalStateException.class, () -> new ScanPipeline("t", 2, bits(0), List.of(new PipelineStep.HashJoin(
                new JoinBuild.Broadcast(0), JoinKind.INNER, List.of(0), List.of(0), null, 1))).toBytes(),
                "a broadcast is sent as its rows");
        assertThrows(IllegalArgumentException.class, () -> new PipelineStep.HashJoin(new JoinBuild.Rows(nations), JoinKind.RIGHT,
                List.of(0), List.of(0), null, 2), "each node would send the build rows no probe met");
    }

    @Test
    void buildRowsNoProbeRowMetGoThroughTheStepsAfterTheJoin() {
        // probe (k, v) full join build (k, w) on k, then keep rows where w is not 'drop'
        List<Object[]> build = List.of(new Object[] {1L, "one"}, new Object[] {2L, "drop"}, new Object[] {3L, "three"});
        Expr w = new Expr.Column(3, SqlType.STRING);
        Expr notDrop = new Expr.Or(List.of(new Expr.IsNull(w, false), new Expr.Not(new Expr.Call(ScalarFunction.EQ,
                List.of(w, new Expr.Literal("drop", SqlType.STRING)), SqlType.BOOLEAN))));
        ScanPipeline localBuild = new ScanPipeline("b", 2, bits(0, 1), List.of());
        List<Object[]> out = new ArrayList<>();
        Pipeline p = new Pipeline(List.of(new PipelineStep.HashJoin(new JoinBuild.Local(localBuild), JoinKind.FULL, List.of(0),
                List.of(0), null, 2), new PipelineStep.Filter(notDrop)), 2,
                Pipeline.BuildSource.ofRows((b, rows) -> rows.accept(build)), out::addAll);
        p.accept(List.of(new Object[] {1L, "a"}, new Object[] {4L, "d"}, new Object[] {null, "n"}));
        p.finish();
        assertEquals(List.of("1|a|1|one", "4|d|null|null", "null|n|null|null", "null|null|3|three"),
                out.stream().map(r -> java.util.Arrays.stream(r).map(String::valueOf).collect(java.util.stream.Collectors.joining("|")))
                        .toList());
    }

    @Test
    void aPipelineReadsOnlyTheColumnsItsStepsUse() {
        List<PipelineStep> steps = List.of(new PipelineStep.Filter(new Expr.IsNull(DISCOUNT, false)),
                new PipelineStep.Project(List.of(PRICE, FLAG)),
                new PipelineStep.Filter(new Expr.IsNull(new Expr.Column(1, SqlType.STRING), true)));
        assertEquals(bits(0, 2, 4), ScanPipeline.of("t", 5, steps, bits(0, 1)).columns(), "both outputs read");
        // only the flag is read of the output: the price is neither decoded nor computed from anything but nulls
        assertEquals(bits(0, 4), ScanPipeline.of("t", 5, steps, bits(1)).columns(), "a projection reads what is read of it");
        assertEquals(bits(3, 4), ScanPipeline.of("t", 5, List.of(steps.get(0)), bits(3)).columns());
        // a join: the probe reads its key and what comes after; its local build the same of its own table
        ScanPipeline joined = ScanPipeline.of("probe", 16, List.of(
                new PipelineStep.HashJoin(new JoinBuild.Local(new ScanPipeline("build", 9, new BitSet(), List.of())),
                        JoinKind.INNER, List.of(0), List.of(1), null, 9),
                new PipelineStep.Project(List.of(new Expr.Column(2, SqlType.STRING), new Expr.Column(16 + 4, SqlType.STRING)))),
                bits(0, 1));
        assertEquals(bits(0, 2), joined.columns());
        JoinBuild.Local build = (JoinBuild.Local) ((PipelineStep.HashJoin) joined.steps().get(0)).build();
        assertEquals(bits(1, 4), build.pipeline().columns());
    }

    /** GROUPING SETS' copies: each row once per projection, in order; only what is read of them is decoded; the wire keeps them. */
    @Test
    void anExpansionCopiesEachRowOncePerProjection() {
        Expr none = new Expr.Literal(null, SqlType.STRING);
        PipelineStep.Expand expand = new PipelineStep.Expand(List.of(
                List.of(FLAG, QUANTITY, new Expr.Literal(0L, SqlType.BIGINT)),
                List.of(none, QUANTITY, new Expr.Literal(1L, SqlType.BIGINT))));
        List<Object[]> out = new ArrayList<>();
        Pipeline p = new Pipeline(List.of(expand), 5, Pipeline.BuildSource.ROWS_ONLY, out::addAll);
        p.accept(List.of(new Object[] {"A", 3L, null, null, null}, new Object[] {"R", null, null, null, null}));
        p.finish();
        assertEquals(List.of("[A, 3, 0]", "[null, 3, 1]", "[R, null, 0]", "[null, null, 1]"),
                out.stream().map(java.util.Arrays::toString).toList());
        assertEquals(bits(0), ScanPipeline.of("t", 5, List.of(expand), bits(0)).columns(), "the flag, of the first copy");
        assertEquals(bits(1), ScanPipeline.of("t", 5, List.of(expand), bits(1, 2)).columns());
        ScanPipeline wired = new ScanPipeline("t", 5, bits(0, 1), List.of(expand,
                new PipelineStep.PartialAggregate(List.of(new Expr.Column(0, SqlType.STRING), new Expr.Column(2, SqlType.BIGINT)),
                        CALLS.subList(0, 1))));
        assertEquals(wired, ScanPipeline.read(new PayloadReader(wired.toBytes())));
        assertThrows(IllegalArgumentException.class, () -> new PipelineStep.Expand(List.of(List.of(FLAG), List.of(QUANTITY))),
                "every copy has the same types");
    }

    /**
     * Sets that nest (ROLLUP) may be grouped each from the groups of the one before, when the
     * aggregates read only what every copy passes alike and their states merge; the wire keeps the mark.
     */
    @Test
    void nestedSetsCascadeWhenEveryCopyPassesTheAggregatesColumns() {
        Expr noFlag = new Expr.Literal(null, SqlType.STRING);
        Expr noDate = new Expr.Literal(null, SqlType.DATE);
        List<List<Expr>> rollup = List.of(List.of(FLAG, SHIPPED, PRICE, id(0)), List.of(FLAG, noDate, PRICE, id(1)),
                List.of(noFlag, noDate, PRICE, id(3)));
        List<Expr> keys = List.of(new Expr.Column(0, SqlType.STRING), new Expr.Column(1, SqlType.DATE),
                new Expr.Column(3, SqlType.BIGINT));
        List<AggregateCall> sums = List.of(CALLS.get(0), new AggregateCall(AggregateCall.Kind.SUM, new Expr.Column(2, MONEY),
                false, SqlType.decimal(25, 2)), new AggregateCall(AggregateCall.Kind.MIN, new Expr.Column(2, MONEY), false, MONEY));
        assertTrue(new PipelineStep.Expand(rollup).cascades(keys, sums));
        assertFalse(new PipelineStep.Expand(List.of(rollup.get(2), rollup.get(1), rollup.get(0))).cascades(keys, sums),
                "coarsest first: a set's keys are not in the groups of the one before");
        List<List<Expr>> cube = List.of(rollup.get(0), rollup.get(1), List.of(noFlag, SHIPPED, PRICE, id(2)), rollup.get(2));
        assertFalse(new PipelineStep.Expand(cube).cascades(keys, sums), "CUBE's sets do not nest");
        AggregateCall ofAKey = new AggregateCall(AggregateCall.Kind.COUNT, new Expr.Column(1, SqlType.DATE), false,
                SqlType.BIGINT);
        assertFalse(new PipelineStep.Expand(rollup).cascades(keys, List.of(ofAKey)), "a count of a key some sets null");
        AggregateCall distinct = new AggregateCall(AggregateCall.Kind.COUNT, new Expr.Column(2, MONEY), true, SqlType.BIGINT);
        AggregateCall variance = new AggregateCall(AggregateCall.Kind.VAR_POP, new Expr.Column(2, MONEY), false,
                SqlType.DOUBLE);
        assertFalse(new PipelineStep.Expand(rollup).cascades(keys, List.of(distinct)));
        assertFalse(new PipelineStep.Expand(rollup).cascades(keys, List.of(variance)));
        assertFalse(new PipelineStep.Expand(rollup).cascades(List.of(new Expr.IsNull(new Expr.Column(0, SqlType.STRING),
                false)), sums), "a key computed from the copies");
        ScanPipeline wired = new ScanPipeline("t", 5, bits(0, 2, 3), List.of(new PipelineStep.Expand(rollup, true),
                new PipelineStep.PartialAggregate(keys, sums)));
        assertEquals(wired, ScanPipeline.read(new PayloadReader(wired.toBytes())));
        assertTrue(((PipelineStep.Expand) ScanPipeline.read(new PayloadReader(wired.toBytes())).steps().get(0)).cascaded());
    }

    private static Expr id(long id) {
        return new Expr.Literal(id, SqlType.BIGINT);
    }

    @Test
    void badWireFormsAreProtocolErrors() {
        byte[] good = new ScanPipeline("t", 2, bits(0), List.of(new PipelineStep.Filter(new Expr.IsNull(FLAG, false))))
                .toBytes();
        for (int cut = 0; cut < good.length; cut++) {
            byte[] truncated = java.util.Arrays.copyOf(good, cut);
            assertThrows(ProtocolException.class, () -> ScanPipeline.read(new PayloadReader(truncated)), "cut at " + cut);
        }
        IllegalArgumentException beyond = assertThrows(IllegalArgumentException.class, () -> new Pipeline(
                List.of(new PipelineStep.Filter(new Expr.IsNull(new Expr.Column(20, SqlType.BIGINT), false))), 5,
                Pipeline.BuildSource.ROWS_ONLY, b -> { }));
        assertEquals("step 1 of the pipeline reads column 20 of rows of 5", beyond.getMessage());
        PayloadWriter deep = new PayloadWriter();
        for (int i = 0; i < 10_000; i++) {
            deep.put(6); // NOT, NOT, ...
        }
        assertThrows(ProtocolException.class, () -> ExprCodec.read(new PayloadReader(deep.toByteArray())));
        PayloadWriter wrongColumn = new PayloadWriter().putString("t").putVarInt(2).putBytes(bits(5).toByteArray()).putVarInt(0);
        assertThrows(ProtocolException.class, () -> ScanPipeline.read(new PayloadReader(wrongColumn.toByteArray())));
    }

    private static List<Object[]> rows(int n, long seed) {
        Random random = new Random(seed);
        List<Object[]> rows = new ArrayList<>();
        String[] flags = {"A", "N", "R"};
        for (int i = 0; i < n; i++) {
            rows.add(new Object[] {
                flags[random.nextInt(3)],
                random.nextInt(10) == 0 ? null : (long) random.nextInt(50),
                random.nextInt(10) == 0 ? null : BigDecimal.valueOf(random.nextInt(10_000_000), 2),
                LocalDate.of(1992, 1, 1).plusDays(random.nextInt(2500)),
                random.nextInt(10) == 0 ? null : random.nextInt(11) / 100.0});
        }
        return rows;
    }

    private static BitSet bits(int... columns) {
        BitSet b = new BitSet();
        for (int c : columns) {
            b.set(c);
        }
        return b;
    }

    private static void assertSameRows(List<Object[]> expected, List<Object[]> actual) {
        Comparator<Object[]> byFirst = Comparator.comparing(r -> r.length == 0 || r[0] == null ? "" : r[0].toString());
        List<Object[]> e = new ArrayList<>(expected);
        List<Object[]> a = new ArrayList<>(actual);
        e.sort(byFirst);
        a.sort(byFirst);
        assertEquals(e.size(), a.size());
        for (int i = 0; i < e.size(); i++) {
            Object[] x = e.get(i);
            Object[] y = a.get(i);
            assertEquals(x.length, y.length);
            for (int c = 0; c < x.length; c++) {
                if (x[c] instanceof Double d) {
                    assertEquals(d, (Double) y[c], 1e-9 * Math.max(1, Math.abs(d)), "column " + c);
                } else {
                    assertEquals(x[c], y[c], "column " + c);
                }
            }
        }
    }
}
