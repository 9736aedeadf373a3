package org.oooengine.core.fragment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.RandomAccessFile;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.Period;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.oooengine.core.columnar.ColumnFormat;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.sql.expr.AggregateCall;
import org.oooengine.core.sql.expr.Expr;
import org.oooengine.core.sql.expr.ScalarFunction;
import org.oooengine.core.storage.StorageException;
import org.oooengine.core.store.Store;
import org.oooengine.core.store.StoreManifest;
import org.oooengine.core.store.StoreOptions;
import org.oooengine.core.store.TableDefinition;
import org.oooengine.core.store.TableLoader;
import org.oooengine.core.types.Column;
import org.oooengine.core.types.DataType;
import org.oooengine.core.types.Schema;

/**
 * Scans of a columnar copy run on column batches give exactly what the row engine gives over the
 * same rows: every kind of expression, nulls, decimals whose products outgrow a long, groups skipped
 * by min/max; a damaged chunk is refused by file, offset and checksum.
 */
class VectorScanTest {
    private static final int ROWS = 5000;
    static final SqlType MONEY = SqlType.decimal(15, 2);
    static final Expr ID = new Expr.Column(0, SqlType.BIGINT);
    static final Expr FLAG = new Expr.Column(1, SqlType.varchar(1));
    static final Expr NAME = new Expr.Column(2, SqlType.varchar(20));
    static final Expr QTY = new Expr.Column(3, SqlType.INT);
    static final Expr PRICE = new Expr.Column(4, MONEY);
    static final Expr SHIPPED = new Expr.Column(5, SqlType.DATE);
    static final Expr DISC = new Expr.Column(6, SqlType.DOUBLE);
    static final Expr OK = new Expr.Column(7, SqlType.BOOLEAN);
    private static final int WIDTH = 8;
    private static final List<Expr> COLUMNS = List.of(ID, FLAG, NAME, QTY, PRICE, SHIPPED, DISC, OK);
    /** Every kind of aggregate the vectors run, over every type of column. */
    private static final List<AggregateCall> CALLS = List.of(
            new AggregateCall(AggregateCall.Kind.COUNT_STAR, null, false, SqlType.BIGINT),
            new AggregateCall(AggregateCall.Kind.COUNT, PRICE, false, SqlType.BIGINT),
            new AggregateCall(AggregateCall.Kind.COUNT, OK, false, SqlType.BIGINT),
            new AggregateCall(AggregateCall.Kind.SUM, QTY, false, SqlType.BIGINT),
            new AggregateCall(AggregateCall.Kind.SUM, PRICE, false, SqlType.decimal(25, 2)),
            new AggregateCall(AggregateCall.Kind.AVG, PRICE, false, SqlType.decimal(19, 6)),
            new AggregateCall(AggregateCall.Kind.SUM, DISC, false, SqlType.DOUBLE),
            new AggregateCall(AggregateCall.Kind.MIN, SHIPPED, false, SqlType.DATE),
            new AggregateCall(AggregateCall.Kind.MAX, PRICE, false, MONEY),
            new AggregateCall(AggregateCall.Kind.MIN, NAME, false, SqlType.varchar(20)),
            new AggregateCall(AggregateCall.Kind.MAX, DISC, false, SqlType.DOUBLE));

    @TempDir
    Path dir;

    @Test
    void filtersAndProjectionsOfEveryKindMatchTheRowEngine() throws Exception {
        List<Object[]> rows = load();
        List<Expr> filters = List.of(
                call(ScalarFunction.LT, ID, lit(700L, SqlType.BIGINT)),
                call(ScalarFunction.GE, lit(4200L, SqlType.BIGINT), ID),
                new Expr.And(List.of(call(ScalarFunction.GE, ID, lit(1000L, SqlType.BIGINT)),
                        call(ScalarFunction.LE, ID, lit(1030L, SqlType.BIGINT)))),
                call(ScalarFunction.EQ, ID, lit(10_000L, SqlType.BIGINT)),
                call(ScalarFunction.GT, PRICE, lit(new BigDecimal("500.5"), SqlType.decimal(4, 1))),
                call(ScalarFunction.LT, PRICE, lit(new BigDecimal("100.005"), SqlType.decimal(6, 3))),
                call(ScalarFunction.GT, DISC, lit(0.5, SqlType.DOUBLE)),
                call(ScalarFunction.EQ, FLAG, lit("A", SqlType.STRING)),
                call(ScalarFunction.LT, NAME, lit("name-2", SqlType.STRING)),
                call(ScalarFunction.LT, SHIPPED, call(ScalarFunction.DATE_MINUS_INTERVAL,
                        lit(LocalDate.of(1995, 1, 1), SqlType.DATE), lit(Period.ofDays(90), SqlType.INTERVAL), SqlType.DATE)),
                call(ScalarFunction.GT, call(ScalarFunction.MULTIPLY, PRICE, QTY, SqlType.decimal(26, 2)),
                        lit(new BigDecimal("10000.00"), MONEY)),
                new Expr.Or(List.of(new Expr.IsNull(PRICE, false), new Expr.Not(OK))),
                new Expr.InList(QTY, List.of(lit(1, SqlType.INT), lit(7, SqlType.INT), lit(33, SqlType.INT)), false),
                new Expr.InList(FLAG, List.of(lit("A", SqlType.STRING), lit("C", SqlType.STRING)), true),
                new Expr.Like(NAME, "%-1%", false),
                new Expr.Like(NAME, "name-_7", true),
                call(ScalarFunction.EQ, call(ScalarFunction.YEAR, SHIPPED, SqlType.INT), lit(1996, SqlType.INT)),
                call(ScalarFunction.EQ, call(ScalarFunction.SUBSTR, NAME, lit(6, SqlType.INT), lit(1, SqlType.INT),
                        SqlType.STRING), lit("3", SqlType.STRING)),
                // price³ at scale 6 outgrows a long: those batches run row by row
                call(ScalarFunction.GT, call(ScalarFunction.MULTIPLY, call(ScalarFunction.MULTIPLY, PRICE, PRICE,
                        SqlType.decimal(31, 4)), PRICE, SqlType.decimal(38, 6)), lit(new BigDecimal("1000000"),
                        SqlType.decimal(7, 0))));
        List<Expr> projection = List.of(ID, FLAG,
                call(ScalarFunction.ADD, PRICE, lit(new BigDecimal("0.125"), SqlType.decimal(4, 3)), SqlType.decimal(17, 3)),
                call(ScalarFunction.SUBTRACT, lit(1, SqlType.INT), QTY, SqlType.INT),
                call(ScalarFunction.DIVIDE, DISC, lit(0.0, SqlType.DOUBLE), SqlType.DOUBLE),
                new Expr.Case(List.of(call(ScalarFunction.EQ, FLAG, lit("B", SqlType.STRING))),
                        List.of(PRICE), lit(BigDecimal.ZERO.setScale(2), MONEY), MONEY),
                call(ScalarFunction.DIVIDE, PRICE, lit(new BigDecimal("3"), SqlType.decimal(1, 0)), SqlType.decimal(21, 6)),
                new Expr.IsNull(NAME, true));
        for (Expr filter : filters) {
            for (List<PipelineStep> steps : List.<List<PipelineStep>>of(
                    List.of(new PipelineStep.Filter(filter)),
                    List.of(new PipelineStep.Filter(filter), new PipelineStep.Project(projection)))) {
                assertSameRows(rowEngine(rows, steps), columnar(steps), filter.toString());
            }
        }
    }

    @Test
    void partialAggregatesMatchTheRowEngine() throws Exception {
        List<Object[]> rows = load();
        List<AggregateCall> calls = new ArrayList<>(CALLS);
        // sums past a long's range: kept exactly in 128 bits
        calls.add(new AggregateCall(AggregateCall.Kind.SUM, call(ScalarFunction.MULTIPLY, PRICE,
                lit(new BigDecimal("1000000000000.0000"), SqlType.decimal(17, 4)), SqlType.decimal(33, 6)),
                false, SqlType.decimal(38, 6)));
        Expr someRows = call(ScalarFunction.GT, ID, lit(100L, SqlType.BIGINT));
        for (List<Expr> keys : List.of(List.<Expr>of(), List.of(FLAG), List.of(FLAG, QTY),
                List.of(call(ScalarFunction.YEAR, SHIPPED, SqlType.INT), DISC), List.of(PRICE))) {
            List<PipelineStep> steps = List.of(new PipelineStep.Filter(someRows), new PipelineStep.PartialAggregate(keys, calls));
            assertSameRows(merged(keys, calls, rowEngine(rows, steps)), merged(keys, calls, columnar(steps)), keys.toString());
            if (!keys.isEmpty()) { // a whole aggregate, whose groups go on through a filter and a projection
                Expr count = new Expr.Column(keys.size(), SqlType.BIGINT);
                List<PipelineStep> whole = List.of(new PipelineStep.Filter(someRows), new PipelineStep.Aggregate(keys, calls),
                        new PipelineStep.Filter(call(ScalarFunction.GT, count, lit(1L, SqlType.BIGINT))),
                        new PipelineStep.Project(List.of(count, new Expr.Column(keys.size() + 5, SqlType.decimal(19, 6)))));
                assertSameRows(rowEngine(rows, whole), columnar(whole), "whole " + keys);
            }
        }
        // a whole aggregate whose last batch outgrows a long (price cubed, reached by the CASE only
        // for ids from 4096) runs that batch row by row: each group still comes out once
        Expr cube = call(ScalarFunction.MULTIPLY, call(ScalarFunction.MULTIPLY, PRICE, PRICE, SqlType.decimal(31, 4)), PRICE,
                SqlType.decimal(38, 6));
        Expr someOverflow = new Expr.Case(List.of(call(ScalarFunction.LT, ID, lit(4096L, SqlType.BIGINT))),
                List.of(lit(true, SqlType.BOOLEAN)), call(ScalarFunction.GT, cube, lit(new BigDecimal("1000000"),
                SqlType.decimal(7, 0))), SqlType.BOOLEAN);
        List<PipelineStep> mixed = List.of(new PipelineStep.Filter(someOverflow), new PipelineStep.Aggregate(List.of(FLAG), calls));
        assertSameRows(rowEngine(rows, mixed), columnar(mixed), "whole aggregate, one batch row by row");
        // no row passes: one empty group without keys, none with
        List<PipelineStep> none = List.of(new PipelineStep.Filter(call(ScalarFunction.LT, ID, lit(-1L, SqlType.BIGINT))),
                new PipelineStep.PartialAggregate(List.of(), calls));
        assertSameRows(merged(List.of(), calls, rowEngine(rows, none)), merged(List.of(), calls, columnar(none)), "empty");
    }

    /**
     * A partition without its columnar copy (rows written in place since it was loaded) is read
     * from its B+tree's leaves into column batches, and a source of pages of stored rows (a
     * transaction's) gathered into them: the same rows as the row engine's, and they leave the
     * pipeline as batches, never boxed into rows on the way.
     */
    @Test
    void aPartitionReadFromItsTreeRunsOnBatches() throws Exception {
        List<Object[]> rows = load();
        StoreManifest manifest = StoreManifest.read(dir);
        StoreManifest.TableMeta m = manifest.tables().get(0);
        new StoreManifest(manifest.formatVersion(), manifest.pageSize(), manifest.fillFactor(), manifest.source(),
                manifest.loadedAt(), manifest.loadSeconds(), List.of(new StoreManifest.TableMeta(m.name(), m.columns(),
                m.primaryKey(), m.rows(), m.dataBytes(), m.file(), m.indexes(), null, null))).write(dir);
        Expr price = call(ScalarFunction.GT, PRICE, lit(new BigDecimal("500.5"), SqlType.decimal(4, 1)));
        Expr range = new Expr.And(List.of(call(ScalarFunction.GE, ID, lit(1000L, SqlType.BIGINT)),
                call(ScalarFunction.LE, ID, lit(1030L, SqlType.BIGINT))));
        List<PipelineStep> join = List.of(new PipelineStep.HashJoin(new JoinBuild.Rows(List.of(new Object[] {7}, new Object[] {33})),
                org.oooengine.core.sql.JoinKind.INNER, List.of(3), List.of(0), null, 1));
        for (List<PipelineStep> steps : List.<List<PipelineStep>>of(List.of(), List.of(new PipelineStep.Filter(price)),
                List.of(new PipelineStep.Filter(range)), List.of(new PipelineStep.Filter(price),
                        new PipelineStep.Project(List.of(ID, call(ScalarFunction.SUBTRACT, lit(1, SqlType.INT), QTY, SqlType.INT)))),
                join)) {
            BitSet all = new BitSet();
            all.set(0, WIDTH);
            ScanPipeline spec = new ScanPipeline("t", WIDTH, all, steps);
            try (Store store = Store.open(dir, StoreOptions.defaults().withIoThreads(2))) {
                assertTrue(store.table("t").columnar().isEmpty());
                BatchesCounted fromTree = new BatchesCounted();
                PartitionPipeline.run(store::table, Pipeline.BuildSource.ROWS_ONLY, spec, fromTree, () -> false);
                assertSameRows(rowEngine(rows, steps), fromTree.rows, steps.toString());
                assertTrue(fromTree.batches > 0, "no batch came out of " + steps);
                // the same rows from a source of pages of stored rows (a transaction's), gathered into batches
                BatchesCounted fromPages = new BatchesCounted();
                PartitionPipeline.run(name -> null, name -> pagesOf(rows, store.table("t").schema()),
                        Pipeline.BuildSource.ROWS_ONLY, spec, fromPages, () -> false, QueryMemory.unbounded());
                assertSameRows(rowEngine(rows, steps), fromPages.rows, "pages: " + steps);
                assertTrue(fromPages.batches > 0, "no batch came out of pages through " + steps);
            }
        }
        List<AggregateCall> calls = CALLS;
        for (List<Expr> keys : List.of(List.<Expr>of(), List.of(FLAG, QTY))) {
            List<PipelineStep> steps = List.of(new PipelineStep.Filter(price), new PipelineStep.PartialAggregate(keys, calls));
            List<Object[]> out = new ArrayList<>();
            BitSet all = new BitSet();
            all.set(0, WIDTH);
            try (Store store = Store.open(dir, StoreOptions.defaults().withIoThreads(2))) {
                PartitionPipeline.run(store::table, Pipeline.BuildSource.ROWS_ONLY, new ScanPipeline("t", WIDTH, all, steps),
                        out::addAll, () -> false);
            }
            assertSameRows(merged(keys, calls, rowEngine(rows, steps)), merged(keys, calls, out), "groups by " + keys);
        }
    }

    /** Where a pipeline's rows go, counting the batches that came as batches. */
    private static final class BatchesCounted implements BatchSink {
        final List<Object[]> rows = new ArrayList<>();
        int batches;

        @Override
        public void accept(List<Object[]> some) {
            rows.addAll(some);
        }

        @Override
        public void acceptBatch(org.oooengine.core.vector.Batch batch, SqlType[] types) {
            batches++;
            rows.addAll(batch.toRows(types));
        }
    }

    /** {@code rows} (SQL values) as a source of their stored values in pages of 100. */
    private static PartitionPipeline.RowSource pagesOf(List<Object[]> rows, Schema schema) {
        List<Object[]> stored = rows.stream().map(r -> {
            Object[] s = new Object[r.length];
            for (int c = 0; c < r.length; c++) {
                s[c] = SqlType.of(schema.type(c)).toStored(r[c]);
            }
            return s;
        }).toList();
        return new PartitionPipeline.RowSource() {
            @Override
            public Schema schema() {
                return schema;
            }

            @Override
            public void forEachPage(java.util.function.Predicate<List<Object[]>> page) {
                for (int from = 0; from < stored.size(); from += 100) {
                    if (!page.test(stored.subList(from, Math.min(stored.size(), from + 100)))) {
                        return;
                    }
                }
            }
        };
    }

    /**
     * ROLLUP's copies on column batches, each copy aggregated or set by set from the finer set's
     * groups, give the row engine's groups: names that are null apart from those rolled up (the
     * grouping id keeps them apart), every aggregate, groups sent early from little memory.
     */
    @Test
    void groupingSetsCopiedOrSetBySetMatchTheRowEngine() throws Exception {
        List<Object[]> rows = load();
        List<Expr> rolled = List.of(FLAG, NAME, call(ScalarFunction.YEAR, SHIPPED, SqlType.INT));
        List<List<Expr>> copies = new ArrayList<>();
        for (int kept = rolled.size(); kept >= 0; kept--) {
            List<Expr> copy = new ArrayList<>(COLUMNS);
            for (int k = 0; k < rolled.size(); k++) {
                copy.add(k < kept ? rolled.get(k) : lit(null, rolled.get(k).type()));
            }
            copy.add(lit((1L << (rolled.size() - kept)) - 1, SqlType.BIGINT));
            copy.add(lit(null, SqlType.INTERVAL)); // read by no one, of a type no vector holds
            copies.add(copy);
        }
        List<Expr> keys = new ArrayList<>();
        for (int k = 0; k <= rolled.size(); k++) {
            keys.add(new Expr.Column(WIDTH + k, copies.get(0).get(WIDTH + k).type()));
        }
        PipelineStep.PartialAggregate partial = new PipelineStep.PartialAggregate(keys, CALLS);
        Expr someRows = call(ScalarFunction.GT, ID, lit(100L, SqlType.BIGINT));
        List<Object[]> expected = merged(keys, CALLS, rowEngine(rows, List.of(new PipelineStep.Filter(someRows),
                new PipelineStep.Expand(copies), partial)));
        assertEquals(1, expected.stream().filter(r -> r[3].equals(7L)).count(), "one grand total");
        assertEquals(3, expected.stream().filter(r -> r[3].equals(3L)).count(), "a group per flag");
        assertTrue(expected.stream().anyMatch(r -> r[1] == null && r[3].equals(0L)), "names null before any rolled up");
        for (boolean cascaded : new boolean[] {false, true}) {
            PipelineStep.Expand expand = new PipelineStep.Expand(copies, cascaded);
            assertTrue(VectorExpand.of(expand) != null && VectorAggregation.cascaded(expand, partial,
                    QueryMemory.unbounded(), r -> { }) != null);
            List<PipelineStep> steps = List.of(new PipelineStep.Filter(someRows), expand, partial);
            assertSameRows(expected, merged(keys, CALLS, columnar(steps)), "cascaded " + cascaded);
            List<Object[]> early = columnar(steps, new QueryMemory("test", 20_000, "test.memory"));
            assertTrue(early.size() > expected.size(), "groups sent early: " + early.size());
            assertSameRows(expected, merged(keys, CALLS, early), "cascaded " + cascaded + ", groups sent early");
        }
    }

    @Test
    void hashJoinsOfEveryKindMatchTheRowEngine() throws Exception {
        List<Object[]> rows = load();
        // build rows: (key, amount decimal(15,2), label); keys repeat, some are null, some decimals or dates
        List<Object[]> build = new ArrayList<>();
        Random r = new Random(5);
        for (int i = 0; i < 60; i++) {
            Object key = switch (i % 6) {
                case 0 -> null;
                case 1 -> new BigDecimal(i % 50 + ".00");
                case 2 -> new BigDecimal("7.5");
                default -> i % 50;
            };
            build.add(new Object[] {key, i % 9 == 0 ? null : new BigDecimal(r.nextInt(100_000)).movePointLeft(2), "b" + i});
        }
        List<Object[]> dateBuild = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            dateBuild.add(new Object[] {LocalDate.of(1992, 1, 1).plusDays(3L * i), new BigDecimal(i).movePointLeft(2), "d" + i});
        }
        Expr amount = new Expr.Column(WIDTH + 1, MONEY);
        Expr residual = call(ScalarFunction.LT, amount, PRICE);
        List<Expr> projection = List.of(ID, new Expr.Column(WIDTH + 2, SqlType.STRING),
                call(ScalarFunction.MULTIPLY, amount, QTY, SqlType.decimal(26, 2)));
        List<AggregateCall> sums = List.of(new AggregateCall(AggregateCall.Kind.COUNT_STAR, null, false, SqlType.BIGINT),
                new AggregateCall(AggregateCall.Kind.SUM, amount, false, SqlType.decimal(25, 2)));
        for (org.oooengine.core.sql.JoinKind kind : org.oooengine.core.sql.JoinKind.values()) {
            if (kind == org.oooengine.core.sql.JoinKind.CROSS || kind.rightOnly() || kind == org.oooengine.core.sql.JoinKind.RIGHT
                    || kind == org.oooengine.core.sql.JoinKind.FULL) {
                continue; // those need each node's own build rows (a local build), or have no keys
            }
            for (Expr res : java.util.Arrays.asList(null, residual)) {
                for (int probeKey : new int[] {3, 0, 5}) {
                    List<Object[]> b = probeKey == 5 ? dateBuild : build;
                    PipelineStep.HashJoin join = new PipelineStep.HashJoin(new JoinBuild.Rows(b), kind, List.of(probeKey),
                            List.of(0), res, 3);
                    PipelineStep after = kind.leftOnly() ? new PipelineStep.Project(List.of(ID, QTY))
                            : new PipelineStep.Project(projection);
                    String what = kind + " on column " + probeKey + (res == null ? "" : " with a residual");
                    List<PipelineStep> steps = List.of(new PipelineStep.Filter(call(ScalarFunction.GT, ID,
                            lit(300L, SqlType.BIGINT))), join, after);
                    assertSameRows(rowEngine(rows, steps), columnar(steps), what);
                    if (!kind.leftOnly()) {
                        List<PipelineStep> grouped = List.of(join, new PipelineStep.PartialAggregate(List.of(FLAG), sums));
                        assertSameRows(merged(List.of(FLAG), sums, rowEngine(rows, grouped)),
                                merged(List.of(FLAG), sums, columnar(grouped)), what + ", grouped");
                    }
                }
            }
        }
    }

    @Test
    void aggregatesBeyondTheMemoryLimitSpillAndGiveTheSameAnswer() throws Exception {
        List<Object[]> rows = load();
        List<AggregateCall> calls = List.of(new AggregateCall(AggregateCall.Kind.COUNT_STAR, null, false, SqlType.BIGINT),
                new AggregateCall(AggregateCall.Kind.SUM, PRICE, false, SqlType.decimal(25, 2)),
                new AggregateCall(AggregateCall.Kind.AVG, DISC, false, SqlType.DOUBLE),
                new AggregateCall(AggregateCall.Kind.MAX, NAME, false, SqlType.varchar(20)));
        List<Expr> keys = List.of(QTY, FLAG);
        Path spill = dir.resolve("spill");
        // a whole aggregate (groups of 150 keys) in 20 KB spills its groups and merges them back
        List<PipelineStep> whole = List.of(new PipelineStep.Aggregate(keys, calls));
        QueryMemory small = new QueryMemory("test", 20_000, "test.memory", spill);
        assertSameRows(rowEngine(rows, whole), columnar(whole, small), "whole aggregate, spilled");
        assertTrue(small.spilledBytes() > 0, "nothing spilled");
        assertEquals(0, small.used(), "the groups' memory is given back");
        try (var left = java.nio.file.Files.list(spill)) {
            assertEquals(0, left.count(), "spill files are deleted");
        }
        // without a place to spill it fails by name
        MemoryLimitExceededException e = assertThrows(MemoryLimitExceededException.class,
                () -> columnar(whole, new QueryMemory("node n9", 20_000, "test.memory")));
        assertTrue(e.getMessage().contains("aggregation on node n9"), e.getMessage());
        // a partial aggregate sends its groups early instead; the final aggregation spills too
        List<PipelineStep> split = List.of(new PipelineStep.PartialAggregate(keys, calls));
        List<Object[]> partials = columnar(split, new QueryMemory("test", 20_000, "test.memory"));
        assertTrue(partials.size() > 150, "the partial groups were sent early: " + partials.size() + " rows");
        QueryMemory coordinator = new QueryMemory("the coordinator", 20_000, "test.memory", spill);
        FinalAggregation f = new FinalAggregation(keys.size(), calls, coordinator);
        partials.forEach(f::accept);
        assertSameRows(rowEngine(rows, whole), f.results(), "split aggregate, spilled on both sides");
        assertTrue(coordinator.spilledBytes() > 0, "the final aggregation did not spill");
    }

    @Test
    void hashJoinsBeyondTheMemoryLimitSpillAndGiveTheSameAnswer() throws Exception {
        List<Object[]> rows = load();
        // 3,000 build rows (key, amount, label): every key twice, some null
        List<Object[]> build = new ArrayList<>();
        for (int i = 0; i < 3000; i++) {
            build.add(new Object[] {i % 97 == 0 ? null : (long) (i % 1500) * 3, new BigDecimal(i).movePointLeft(2), "b" + i});
        }
        Expr amount = new Expr.Column(WIDTH + 1, MONEY);
        Expr residual = call(ScalarFunction.LT, amount, PRICE);
        Path spill = dir.resolve("spill");
        for (org.oooengine.core.sql.JoinKind kind : List.of(org.oooengine.core.sql.JoinKind.INNER,
                org.oooengine.core.sql.JoinKind.LEFT, org.oooengine.core.sql.JoinKind.SEMI, org.oooengine.core.sql.JoinKind.ANTI)) {
            for (Expr res : java.util.Arrays.asList(null, residual)) {
                PipelineStep.HashJoin join = new PipelineStep.HashJoin(new JoinBuild.Rows(build), kind, List.of(0), List.of(0),
                        res, 3);
                PipelineStep after = kind.leftOnly() ? new PipelineStep.Project(List.of(ID, QTY))
                        : new PipelineStep.Project(List.of(ID, new Expr.Column(WIDTH + 2, SqlType.STRING), amount));
                List<PipelineStep> steps = List.of(join, after);
                String what = kind + (res == null ? "" : " with a residual");
                QueryMemory small = new QueryMemory("test", 100_000, "test.memory", spill);
                assertSameRows(rowEngine(rows, steps), columnar(steps, small), what + ", spilled");
                assertTrue(small.spilledBytes() > 0, what + ": nothing spilled");
                small.close();
                // a join whose groups are aggregated after it: the aggregate takes the joined rows at the end
                List<AggregateCall> sums = List.of(new AggregateCall(AggregateCall.Kind.COUNT_STAR, null, false, SqlType.BIGINT));
                List<PipelineStep> grouped = List.of(join, new PipelineStep.Aggregate(List.of(FLAG), sums));
                assertSameRows(rowEngine(rows, grouped), columnar(grouped, new QueryMemory("test", 100_000, "test.memory",
                        spill)), what + ", spilled, grouped");
            }
        }
        // a sixteenth of the build does not fit either: each partition is split again
        List<PipelineStep> inner = List.of(new PipelineStep.HashJoin(new JoinBuild.Rows(build),
                org.oooengine.core.sql.JoinKind.INNER, List.of(0), List.of(0), null, 3));
        assertSameRows(rowEngine(rows, inner), columnar(inner, new QueryMemory("test", 25_000, "test.memory", spill)),
                "inner, partitions split again");
        // rows of one key that cannot fit are named
        List<Object[]> oneKey = new ArrayList<>();
        for (int i = 0; i < 3000; i++) {
            oneKey.add(new Object[] {3L, new BigDecimal(i), "b" + i});
        }
        List<PipelineStep> skewed = List.of(new PipelineStep.HashJoin(new JoinBuild.Rows(oneKey),
                org.oooengine.core.sql.JoinKind.SEMI, List.of(0), List.of(0), null, 3));
        QueryMemory failing = new QueryMemory("node n8", 25_000, "test.memory", spill);
        MemoryLimitExceededException one = assertThrows(MemoryLimitExceededException.class, () -> columnar(skewed, failing));
        assertTrue(one.getMessage().contains("of a partition split 3 times of the build rows it spilled) on node n8"),
                one.getMessage());
        failing.close(); // as the node does when a request ends: the failed join's files go
        try (var left = java.nio.file.Files.list(spill)) {
            assertEquals(0, left.count(), "spill files are deleted");
        }
        // without a place to spill it fails by name
        MemoryLimitExceededException e = assertThrows(MemoryLimitExceededException.class,
                () -> columnar(inner, new QueryMemory("node n9", 100_000, "test.memory")));
        assertTrue(e.getMessage().contains("hash join build from rows sent to it on node n9"), e.getMessage());
    }

    @Test
    void aRangeOfTheKeyReadsOnlyItsGroups() throws Exception {
        load();
        BitSet all = new BitSet();
        all.set(0, WIDTH);
        try (Store store = Store.open(dir, StoreOptions.defaults().withIoThreads(2))) {
            ScanPipeline range = new ScanPipeline("t", WIDTH, all, List.of(new PipelineStep.Filter(new Expr.And(List.of(
                    call(ScalarFunction.GE, ID, lit(1100L, SqlType.BIGINT)), call(ScalarFunction.LT, ID, lit(1200L, SqlType.BIGINT)))))));
            List<Object[]> out = new ArrayList<>();
            PartitionPipeline.Summary s = PartitionPipeline.run(store::table, (b, rows) -> { }, range, out::addAll, () -> false);
            assertEquals(100, out.size());
            assertEquals(ColumnFormat.GROUP_ROWS, s.rowsScanned(), "the range lies in one group of rows");
        }
    }

    @Test
    void aJoinReadsOnlyTheGroupsItsBuildKeysCanBeIn() throws Exception {
        List<Object[]> rows = load();
        // every quantity, then ids of one group of rows (a null and a decimal among them): not the
        // first join, so not looked up, but only the groups between the least and greatest id are read
        List<Object[]> quantities = new ArrayList<>();
        for (int q = 0; q < 50; q++) {
            quantities.add(new Object[] {q});
        }
        List<Object[]> ids = new ArrayList<>();
        for (long id = 1100; id < 1200; id += 3) {
            ids.add(new Object[] {id, "i" + id});
        }
        ids.add(new Object[] {null, "none"});
        Expr label = new Expr.Column(WIDTH + 2, SqlType.STRING);
        BitSet all = new BitSet();
        all.set(0, WIDTH);
        for (org.oooengine.core.sql.JoinKind kind : List.of(org.oooengine.core.sql.JoinKind.INNER,
                org.oooengine.core.sql.JoinKind.SEMI, org.oooengine.core.sql.JoinKind.LEFT)) {
            List<PipelineStep> steps = List.of(
                    new PipelineStep.HashJoin(new JoinBuild.Rows(quantities), org.oooengine.core.sql.JoinKind.INNER,
                            List.of(3), List.of(0), null, 1),
                    new PipelineStep.HashJoin(new JoinBuild.Rows(ids), kind, List.of(0), List.of(0), null, 2),
                    new PipelineStep.Project(kind.leftOnly() ? List.of(ID, QTY) : List.of(ID, QTY, label)));
            assertSameRows(rowEngine(rows, steps), columnar(steps), kind + " bounded by its keys");
            try (Store store = Store.open(dir, StoreOptions.defaults().withIoThreads(2))) {
                PartitionPipeline.Summary s = PartitionPipeline.run(store::table, (b, out) -> { },
                        new ScanPipeline("t", WIDTH, all, steps), out -> { }, () -> false);
                assertEquals(kind == org.oooengine.core.sql.JoinKind.LEFT ? ROWS : ColumnFormat.GROUP_ROWS, s.rowsScanned(),
                        kind + ": a LEFT join keeps every probe row, the others only those the ids can meet");
            }
        }
        // no key at all but nulls: nothing is read
        List<PipelineStep> none = List.of(new PipelineStep.HashJoin(new JoinBuild.Rows(quantities),
                        org.oooengine.core.sql.JoinKind.INNER, List.of(3), List.of(0), null, 1),
                new PipelineStep.HashJoin(new JoinBuild.Rows(List.<Object[]>of(new Object[] {null, "none"})),
                        org.oooengine.core.sql.JoinKind.INNER, List.of(0), List.of(0), null, 2));
        try (Store store = Store.open(dir, StoreOptions.defaults().withIoThreads(2))) {
            assertEquals(0, PartitionPipeline.run(store::table, (b, out) -> { }, new ScanPipeline("t", WIDTH, all, none),
                    out -> { }, () -> false).rowsScanned());
        }
    }

    @Test
    void aJoinOnTheKeyWithFewRowsSentLooksThemUp() throws Exception {
        List<Object[]> rows = load();
        // keys as ints and longs, repeated, null, and beyond the table's (ids run 0..4999)
        List<Object[]> few = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            Object key = i % 10 == 0 ? null : i % 2 == 0 ? (Object) (i * 97) : (Object) (long) (i * 131 % 6000);
            few.add(new Object[] {key, new BigDecimal(i).movePointLeft(1), "f" + i});
        }
        few.add(new Object[] {97 * 2, BigDecimal.ONE, "again"});
        long distinctPresent = few.stream().map(b -> b[0]).filter(k -> k != null && ((Number) k).longValue() < ROWS)
                .map(k -> ((Number) k).longValue()).distinct().count();
        Expr label = new Expr.Column(WIDTH + 2, SqlType.STRING);
        Expr someRows = call(ScalarFunction.NE, FLAG, lit("B", SqlType.STRING));
        BitSet all = new BitSet();
        all.set(0, WIDTH);
        for (org.oooengine.core.sql.JoinKind kind : List.of(org.oooengine.core.sql.JoinKind.INNER,
                org.oooengine.core.sql.JoinKind.SEMI)) {
            PipelineStep.HashJoin join = new PipelineStep.HashJoin(new JoinBuild.Rows(few), kind, List.of(0), List.of(0),
                    null, 3);
            List<PipelineStep> steps = List.of(new PipelineStep.Filter(someRows), join,
                    new PipelineStep.Project(kind.leftOnly() ? List.of(ID, NAME) : List.of(ID, NAME, label)));
            assertSameRows(rowEngine(rows, steps), columnar(steps), kind + " looked up");
            assertEquals(distinctPresent, scanned(steps, (b, out) -> { }), kind + ": only the rows of the keys sent are read");
            // the same keys sent as columns, as a build pipeline's batches come: looked up alike, joined from the columns
            List<PipelineStep> sent = List.of(steps.get(0), new PipelineStep.HashJoin(new JoinBuild.Staged("sent"), kind,
                    List.of(0), List.of(0), null, 3), steps.get(2));
            assertSameRows(rowEngine(rows, steps), columnar(sent, asColumns(few)), kind + " looked up, sent as columns");
            assertEquals(distinctPresent, scanned(sent, asColumns(few)), kind + ": sent as columns, only their keys' rows are read");
        }
        // a LEFT join keeps every probe row, and too many keys cost more looked up than read: both read the partition
        List<Object[]> many = new ArrayList<>();
        for (long id = 0; id < ROWS; id += 3) {
            many.add(new Object[] {id, BigDecimal.ONE, "m"});
        }
        List<PipelineStep> manySent = List.of(new PipelineStep.HashJoin(new JoinBuild.Staged("sent"),
                org.oooengine.core.sql.JoinKind.INNER, List.of(0), List.of(0), null, 3), new PipelineStep.Project(List.of(ID, label)));
        assertSameRows(rowEngine(rows, List.of(new PipelineStep.HashJoin(new JoinBuild.Rows(many), org.oooengine.core.sql.JoinKind.INNER,
                List.of(0), List.of(0), null, 3), manySent.get(1))), columnar(manySent, asColumns(many)), "many keys sent as columns");
        assertEquals(ROWS, scanned(manySent, asColumns(many)), "many keys sent as columns: the partition is read whole");
        for (PipelineStep.HashJoin join : List.of(
                new PipelineStep.HashJoin(new JoinBuild.Rows(few), org.oooengine.core.sql.JoinKind.LEFT, List.of(0), List.of(0), null, 3),
                new PipelineStep.HashJoin(new JoinBuild.Rows(many), org.oooengine.core.sql.JoinKind.INNER, List.of(0), List.of(0), null, 3),
                // a decimal key: its values are not the tree's, so none is looked up; only its group is read
                new PipelineStep.HashJoin(new JoinBuild.Rows(List.<Object[]>of(new Object[] {new BigDecimal("7.00"), BigDecimal.ONE, "d"})),
                        org.oooengine.core.sql.JoinKind.INNER, List.of(0), List.of(0), null, 3))) {
            List<PipelineStep> steps = List.of(join, new PipelineStep.Project(List.of(ID, label)));
            assertSameRows(rowEngine(rows, steps), columnar(steps), join.kind() + " of " + join.build());
            try (Store store = Store.open(dir, StoreOptions.defaults().withIoThreads(2))) {
                PartitionPipeline.Summary s = PartitionPipeline.run(store::table, (b, out) -> { },
                        new ScanPipeline("t", WIDTH, all, steps), out -> { }, () -> false);
                boolean oneKey = join.build() instanceof JoinBuild.Rows r && r.rows().size() == 1;
                assertEquals(oneKey ? ColumnFormat.GROUP_ROWS : ROWS, s.rowsScanned(),
                        join.kind() + ": the partition is read whole, but for the groups no key can be in");
            }
        }
    }

    /**
     * An inventory keyed by day, item and warehouse, joined on day and item with few pairs sent,
     * is looked up by those two leading columns (each pair finds its warehouses' rows); joined on
     * day alone, whose prefix finds a whole day's rows, it is read whole. The rows are the row
     * engine's either way.
     */
    @Test
    void aJoinOnTheKeysLeadingColumnsLooksUpThePrefixesThatPay() throws Exception {
        Schema schema = new Schema(List.of(new Column("day", DataType.INT), new Column("item", DataType.INT),
                new Column("warehouse", DataType.INT), new Column("qty", DataType.INT)));
        List<Object[]> inventory = new ArrayList<>();
        for (int day = 0; day < 40; day++) {
            for (int item = 0; item < 100; item++) {
                for (int w = 0; w < 5; w++) {
                    inventory.add(new Object[] {day, item, w, (day * 7 + item * 3 + w) % 50});
                }
            }
        }
        Path invDir = dir.resolve("inventory");
        java.nio.file.Files.createDirectories(invDir);
        StoreManifest.TableMeta meta = new TableLoader(invDir, 4096, 1.0).load(
                new TableDefinition("inv", schema, List.of("day", "item", "warehouse"), List.of(), false), inventory.iterator(), n -> { });
        new StoreManifest(StoreManifest.FORMAT_VERSION, 4096, 1.0, Map.of(), "now", 0, List.of(meta)).write(invDir);
        // pairs of (item, day), one repeated, one with a null, one beyond the days
        List<Object[]> pairs = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            pairs.add(new Object[] {i * 2, i, i});
        }
        pairs.add(new Object[] {2, 1, 99});
        pairs.add(new Object[] {5, null, 98});
        pairs.add(new Object[] {5, 41, 97});
        Expr day = new Expr.Column(0, SqlType.INT);
        Expr qty = new Expr.Column(3, SqlType.INT);
        Expr label = new Expr.Column(4 + 2, SqlType.INT);
        BitSet all = new BitSet();
        all.set(0, 4);
        PipelineStep.HashJoin byDayAndItem = new PipelineStep.HashJoin(new JoinBuild.Rows(pairs),
                org.oooengine.core.sql.JoinKind.INNER, List.of(1, 0), List.of(0, 1), null, 3);
        PipelineStep.HashJoin byDay = new PipelineStep.HashJoin(new JoinBuild.Rows(pairs),
                org.oooengine.core.sql.JoinKind.INNER, List.of(0), List.of(1), null, 3);
        for (PipelineStep.HashJoin join : List.of(byDayAndItem, byDay)) {
            List<PipelineStep> steps = List.of(join, new PipelineStep.Project(List.of(day, qty, label)));
            List<Object[]> expected = new ArrayList<>();
            Pipeline reference = new Pipeline(steps, 4, Pipeline.BuildSource.ROWS_ONLY, expected::addAll);
            reference.accept(inventory.stream().map(row -> row.clone()).toList());
            reference.finish();
            try (Store store = Store.open(invDir, StoreOptions.defaults().withIoThreads(2))) {
                List<Object[]> out = new ArrayList<>();
                PartitionPipeline.Summary s = PartitionPipeline.run(store::table, (b, rows) -> { },
                        new ScanPipeline("inv", 4, all, steps), out::addAll, () -> false);
                assertSameRows(expected, out, join == byDay ? "by day" : "by day and item");
                // 40 distinct pairs of the days there, five warehouses each; a day's prefix finds 500 rows, every day's all
                assertEquals(join == byDay ? inventory.size() : 40 * 5, s.rowsScanned(), join == byDay ? "read whole" : "looked up");
            }
        }
    }

    @Test
    void aDamagedChunkIsRefusedByFileOffsetAndChecksum() throws Exception {
        load();
        Path file = dir.resolve(StoreManifest.read(dir).table("t").columnsFile());
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.seek(100);
            int b = f.read();
            f.seek(100);
            f.write(b ^ 0x40);
        }
        StorageException e = assertThrows(StorageException.class, () -> columnar(List.of()));
        assertTrue(e.getMessage().contains(file.toString()) && e.getMessage().contains("offset")
                && e.getMessage().contains("checksum mismatch"), e.getMessage());
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.setLength(f.length() - 3);
        }
        e = assertThrows(StorageException.class, () -> Store.open(dir, StoreOptions.defaults()).close());
        assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
    }

    /** Loads the rows (stored form) into table t of a store in {@link #dir}; returns them as SQL values, in key order. */
    private List<Object[]> load() throws Exception {
        Schema schema = new Schema(List.of(new Column("id", DataType.BIGINT), new Column("flag", DataType.varchar(1)),
                new Column("name", DataType.varchar(20)), new Column("qty", DataType.INT),
                new Column("price", DataType.decimal(15, 2)), new Column("shipped", DataType.DATE),
                new Column("disc", DataType.DOUBLE), new Column("ok", DataType.BOOLEAN)));
        Random r = new Random(42);
        List<Object[]> stored = new ArrayList<>();
        for (long id = ROWS - 1; id >= 0; id--) { // reversed: the loader sorts them
            stored.add(new Object[] {id, "ABC".substring(r.nextInt(3)).substring(0, 1), r.nextInt(10) == 0 ? null : "name-" + r.nextInt(1000),
                    r.nextInt(50), r.nextInt(12) == 0 ? null : (long) r.nextInt(10_000_000),
                    (int) LocalDate.of(1992, 1, 1).toEpochDay() + r.nextInt(2500), r.nextInt(9) == 0 ? null : r.nextDouble(),
                    r.nextInt(7) == 0 ? null : r.nextBoolean()});
        }
        TableDefinition def = new TableDefinition("t", schema, List.of("id"), List.of(), false);
        StoreManifest.TableMeta meta = new TableLoader(dir, 4096, 1.0).load(def, stored.iterator(), n -> { });
        new StoreManifest(StoreManifest.FORMAT_VERSION, 4096, 1.0, Map.of(), "now", 0, List.of(meta)).write(dir);
        List<Object[]> rows = new ArrayList<>();
        for (int i = stored.size() - 1; i >= 0; i--) {
            Object[] s = stored.get(i);
            Object[] row = new Object[WIDTH];
            for (int c = 0; c < WIDTH; c++) {
                row[c] = SqlType.of(schema.type(c)).fromStored(s[c]);
            }
            rows.add(row);
        }
        return rows;
    }

    private static List<Object[]> rowEngine(List<Object[]> rows, List<PipelineStep> steps) {
        List<Object[]> out = new ArrayList<>();
        Pipeline p = new Pipeline(steps, WIDTH, Pipeline.BuildSource.ROWS_ONLY, out::addAll);
        for (int from = 0; from < rows.size(); from += Pipeline.BATCH_ROWS) {
            p.accept(rows.subList(from, Math.min(rows.size(), from + Pipeline.BATCH_ROWS)));
        }
        p.finish();
        return out;
    }

    private List<Object[]> columnar(List<PipelineStep> steps) {
        return columnar(steps, QueryMemory.unbounded());
    }

    /** A build source sending {@code rows} as a chunk of columns, as they come over the wire. */
    private static Pipeline.BuildSource asColumns(List<Object[]> rows) {
        org.oooengine.core.wire.PayloadWriter w = new org.oooengine.core.wire.PayloadWriter();
        org.oooengine.core.wire.ColumnarRows.write(w, rows);
        byte[] bytes = w.toByteArray();
        return (build, chunks) -> chunks.accept(org.oooengine.core.wire.ColumnarRows.readChunk(
                new org.oooengine.core.wire.PayloadReader(bytes)));
    }

    private List<Object[]> columnar(List<PipelineStep> steps, Pipeline.BuildSource builds) {
        BitSet all = new BitSet();
        all.set(0, WIDTH);
        List<Object[]> out = new ArrayList<>();
        try (Store store = Store.open(dir, StoreOptions.defaults().withIoThreads(2))) {
            PartitionPipeline.run(store::table, builds, new ScanPipeline("t", WIDTH, all, steps), out::addAll, () -> false);
        }
        return out;
    }

    /** The rows of the partition {@code steps} read, their builds from {@code builds}. */
    private long scanned(List<PipelineStep> steps, Pipeline.BuildSource builds) {
        BitSet all = new BitSet();
        all.set(0, WIDTH);
        try (Store store = Store.open(dir, StoreOptions.defaults().withIoThreads(2))) {
            return PartitionPipeline.run(store::table, builds, new ScanPipeline("t", WIDTH, all, steps), out -> { },
                    () -> false).rowsScanned();
        }
    }

    private List<Object[]> columnar(List<PipelineStep> steps, QueryMemory memory) {
        BitSet all = new BitSet();
        all.set(0, WIDTH);
        List<Object[]> out = new ArrayList<>();
        try (Store store = Store.open(dir, StoreOptions.defaults().withIoThreads(2))) {
            assertTrue(store.table("t").columnar().isPresent());
            PartitionPipeline.run(store::table, (b, rows) -> { }, new ScanPipeline("t", WIDTH, all, steps), out::addAll,
                    () -> false, memory);
        }
        return out;
    }

    private static List<Object[]> merged(List<Expr> keys, List<AggregateCall> calls, List<Object[]> partials) {
        FinalAggregation f = new FinalAggregation(keys.size(), calls);
        partials.forEach(f::accept);
        return f.results();
    }

    static void assertSameRows(List<Object[]> expected, List<Object[]> actual, String what) {
        List<String> e = render(expected);
        List<String> a = render(actual);
        if (!e.equals(a)) {
            List<String> missing = new ArrayList<>(e);
            a.forEach(missing::remove);
            List<String> extra = new ArrayList<>(a);
            e.forEach(extra::remove);
            org.junit.jupiter.api.Assertions.fail(what + ": " + e.size() + " rows expected, " + a.size() + " came; missing "
                    + missing.subList(0, Math.min(5, missing.size())) + ", extra " + extra.subList(0, Math.min(5, extra.size())));
        }
    }

    private static List<String> render(List<Object[]> rows) {
        return rows.stream().map(r -> {
            StringBuilder b = new StringBuilder();
            for (Object v : r) {
                // doubles summed in another order (groups spilled and merged) differ in their last bits
                b.append(v instanceof BigDecimal d ? d.stripTrailingZeros().toPlainString()
                        : v instanceof Double x ? String.format(java.util.Locale.ROOT, "%.10g", x) : String.valueOf(v)).append('|');
            }
            return b.toString();
        }).sorted().toList();
    }

    private static Expr call(ScalarFunction f, Expr a, Expr b) {
        return call(f, a, b, SqlType.BOOLEAN);
    }

    private static Expr call(ScalarFunction f, Expr a, Expr b, SqlType type) {
        return new Expr.Call(f, List.of(a, b), type);
    }

    private static Expr call(ScalarFunction f, Expr a, SqlType type) {
        return new Expr.Call(f, List.of(a), type);
    }

    private static Expr call(ScalarFunction f, Expr a, Expr b, Expr c, SqlType type) {
        return new Expr.Call(f, List.of(a, b, c), type);
    }

    private static Expr lit(Object v, SqlType type) {
        return new Expr.Literal(v, type);
    }
}
