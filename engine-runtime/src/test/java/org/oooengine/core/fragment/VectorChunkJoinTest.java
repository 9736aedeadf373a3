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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.oooengine.core.sql.JoinKind;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.sql.expr.Expr;
import org.oooengine.core.sql.expr.ScalarFunction;
import org.oooengine.core.vector.Batch;
import org.oooengine.core.wire.ColumnarRows;
import org.oooengine.core.wire.PayloadReader;
import org.oooengine.core.wire.PayloadWriter;

/**
 * A hash join whose build rows came over the wire as columns (shuffled to the node) builds its
 * table from those columns and answers as the row engine does over the same rows: every join kind
 * on batches (right semi and anti joins marking the build rows met, which come out at the end), integer and date keys with nulls and repeats, a residual, the chunks held apart.
 */
class VectorChunkJoinTest {
    private static final SqlType DEC = SqlType.decimal(12, 2);
    private static final SqlType[] PROBE = {SqlType.BIGINT, SqlType.DATE, DEC};

    @Test
    void aBuildOfColumnsJoinsAsItsRowsDo() {
        List<Object[]> probe = probeRows();
        List<Object[]> build = buildRows(true);
        Expr residual = new Expr.Call(ScalarFunction.GT, List.of(new Expr.Column(2, DEC), new Expr.Column(5, DEC)),
                SqlType.BOOLEAN);
        for (JoinKind kind : List.of(JoinKind.INNER, JoinKind.LEFT, JoinKind.RIGHT, JoinKind.FULL, JoinKind.SEMI,
                JoinKind.ANTI, JoinKind.RIGHT_SEMI, JoinKind.RIGHT_ANTI)) {
            for (List<Integer> keys : List.of(List.of(0), List.of(0, 1), List.of(1))) {
                for (Expr condition : Arrays.asList(null, residual)) {
                    PipelineStep.HashJoin join = new PipelineStep.HashJoin(buildOf(build, kind), kind, keys, keys,
                            condition, 4);
                    List<String> rows = byRow(join, probe, build);
                    List<String> batches = new ArrayList<>();
                    VectorPipeline vectors = new VectorPipeline(List.of(join), PROBE, asColumns(build),
                            out -> out.forEach(r -> batches.add(Arrays.toString(r))), QueryMemory.unbounded());
                    vectors.acceptRows(probe);
                    vectors.finish();
                    String what = kind + " on " + keys + (condition == null ? "" : " with a residual");
                    assertEquals(0, vectors.rowSteps(), what + ": on batches");
                    assertEquals(rows, batches.stream().sorted().toList(), what);
                }
            }
        }
    }

    /**
     * Key pairs whose combined hashes are equal — (a, b), (a + 1, b - C) and (a + 2, b - 2C) for
     * the multiplier C — share one slot of the table: a probe row meets only the build rows whose
     * keys are its own, some of them repeated, as the row engine finds.
     */
    @Test
    void keysThatHashAlikeMeetOnlyTheirOwn() {
        long c = 0x9E3779B97F4A7C15L;
        List<Object[]> build = new ArrayList<>();
        List<Object[]> probe = new ArrayList<>();
        for (long a = 0; a < 500; a++) {
            build.add(new Object[] {a, 7L, "own " + a, "x"});
            build.add(new Object[] {a + 1, 7L - c, "alike " + a, "x"});
            if (a % 3 == 0) {
                build.add(new Object[] {a, 7L, "own again " + a, "x"});
            }
            probe.add(new Object[] {a, 7L, null});
            probe.add(new Object[] {a + 1, 7L - c, null});
            probe.add(new Object[] {a + 2, 7L - 2 * c, null}); // meets none
        }
        SqlType[] types = {SqlType.BIGINT, SqlType.BIGINT, DEC};
        for (JoinKind kind : List.of(JoinKind.INNER, JoinKind.LEFT, JoinKind.SEMI, JoinKind.ANTI)) {
            PipelineStep.HashJoin join = new PipelineStep.HashJoin(new JoinBuild.Rows(build), kind, List.of(0, 1),
                    List.of(0, 1), null, 4);
            List<String> batches = new ArrayList<>();
            VectorPipeline vectors = new VectorPipeline(List.of(join), types, asColumns(build),
                    out -> out.forEach(r -> batches.add(Arrays.toString(r))), QueryMemory.unbounded());
            vectors.acceptRows(probe);
            vectors.finish();
            assertEquals(0, vectors.rowSteps(), kind + ": on batches");
            assertEquals(byRow(join, probe), batches.stream().sorted().toList(), kind.toString());
            int met = 500 + 167 + 500; // own, own again, alike
            assertEquals(switch (kind) {
                case INNER -> met;
                case LEFT -> met + 500;
                case SEMI -> 1000;
                default -> 500;
            }, batches.size(), kind + ": rows");
        }
    }

    /**
     * A build whose table is larger than a core's nearer caches, which most probe keys miss (some
     * of them null), then probes that all meet their keys: every join kind on one key and on two
     * answers as the row engine does.
     */
    @Test
    void aSelectiveJoinOnALargeTableAnswersAsTheRowEngine() {
        List<Object[]> build = new ArrayList<>();
        for (long i = 0; i < 40_000; i++) { // 1 in 20 keys below 200,000, where the probe keys are
            long key = i % 20 == 0 ? i * 5 : 1_000_000 + i;
            build.add(new Object[] {key, key % 3, LocalDate.ofEpochDay(9000 + i % 50), "b" + i});
        }
        List<Object[]> probe = new ArrayList<>();
        for (long i = 0; i < 120_000; i++) { // 1 in 10 of the first 20,000 meet theirs, then every one
            long j = i % 40_000 + (i % 20 == 0 ? 1 : 0);
            long key = i < 20_000 ? i * 10 : 1_000_000 + j;
            probe.add(new Object[] {i % 97 == 0 ? null : key, key % 3, null});
        }
        SqlType[] types = {SqlType.BIGINT, SqlType.BIGINT, DEC};
        for (JoinKind kind : List.of(JoinKind.INNER, JoinKind.LEFT, JoinKind.RIGHT, JoinKind.FULL, JoinKind.SEMI,
                JoinKind.ANTI, JoinKind.RIGHT_SEMI, JoinKind.RIGHT_ANTI)) {
            for (List<Integer> keys : List.of(List.of(0), List.of(0, 1))) {
                PipelineStep.HashJoin join = new PipelineStep.HashJoin(buildOf(build, kind), kind, keys, keys, null, 4);
                List<String> batches = new ArrayList<>();
                VectorPipeline vectors = new VectorPipeline(List.of(join), types, asColumns(build),
                        out -> out.forEach(r -> batches.add(Arrays.toString(r))), QueryMemory.unbounded());
                for (int from = 0; from < probe.size(); from += 1024) {
                    vectors.acceptRows(probe.subList(from, Math.min(probe.size(), from + 1024)));
                }
                vectors.finish();
                assertEquals(0, vectors.rowSteps(), kind + " on " + keys + ": on batches");
                assertEquals(byRow(join, probe, build), batches.stream().sorted().toList(), kind + " on " + keys);
            }
        }
    }

    /**
     * The key table and the build columns put in key order are reserved of the query's memory as
     * what they take, beyond the entry a row the build rows reserved as they came: a limit the rows
     * fit under and their table does not is refused, naming the table.
     */
    @Test
    void theKeyTableIsReservedOfTheQuerysMemory() {
        List<Object[]> build = new ArrayList<>();
        for (int i = 0; i < 90_000; i++) { // each key twice: the table puts the rows in key order
            build.add(new Object[] {(long) (i / 2), LocalDate.ofEpochDay(9000 + i % 50), BigDecimal.valueOf(i, 2), "s"});
        }
        PipelineStep.HashJoin join = new PipelineStep.HashJoin(new JoinBuild.Rows(build), JoinKind.INNER, List.of(0),
                List.of(0), null, 4);
        QueryMemory roomy = new QueryMemory("node n1", 1L << 30, "ooo.query.max-memory");
        new VectorPipeline(List.of(join), PROBE, asColumns(build), out -> { }, roomy);
        long rows = 0;
        long entries = 0;
        List<ColumnarRows.Chunk> held = new ArrayList<>();
        asColumns(build).read(join.build(), held::add);
        for (ColumnarRows.Chunk chunk : held) {
            rows += QueryMemory.chunkBytes(chunk);
            entries += HashJoinTable.ENTRY_BYTES * chunk.size();
        }
        // at least its 2^18 slots of 16 bytes besides the rows (and the order, the columns copied into it)
        assertTrue(roomy.used() - rows >= (1L << 22), "the table reserved: " + (roomy.used() - rows) + " bytes");

        QueryMemory tight = new QueryMemory("node n1", rows + entries + (1L << 20), "ooo.query.max-memory");
        MemoryLimitExceededException refused = assertThrows(MemoryLimitExceededException.class,
                () -> new VectorPipeline(List.of(join), PROBE, asColumns(build), out -> { }, tight));
        assertTrue(refused.getMessage().startsWith("hash join table of 90000 rows on node n1"), refused.getMessage());
    }

    /**
     * Where the query may spill, a build whose rows fit in its memory and whose table does not (a
     * wide build whose keys repeat: its columns are copied into key order) goes to disk and the
     * join runs a partition at a time, answering as the row engine does, rather than being refused.
     */
    @Test
    void aBuildWhoseTableDoesNotFitSpillsWhereTheQueryMaySpill(@TempDir Path spill) {
        int width = 12;
        List<Object[]> build = new ArrayList<>();
        for (int i = 0; i < 60_000; i++) { // each key twice, a dozen columns to copy into key order
            Object[] row = new Object[width];
            row[0] = (long) (i / 2);
            for (int c = 1; c < width; c++) {
                row[c] = (long) i * c;
            }
            build.add(row);
        }
        List<Object[]> probe = new ArrayList<>();
        for (int i = 0; i < 5000; i++) {
            probe.add(new Object[] {(long) (i * 7 % 40_000), LocalDate.ofEpochDay(9000 + i % 40), BigDecimal.valueOf(i, 2)});
        }
        PipelineStep.HashJoin join = new PipelineStep.HashJoin(new JoinBuild.Rows(build), JoinKind.INNER, List.of(0),
                List.of(0), null, width);
        Pipeline.BuildSource chunks = (b, out) -> {
            PayloadWriter w = new PayloadWriter();
            ColumnarRows.write(w, build);
            out.accept(ColumnarRows.readChunk(new PayloadReader(w.toByteArray())));
        };
        List<ColumnarRows.Chunk> held = new ArrayList<>();
        chunks.read(join.build(), held::add);
        long rowsAndEntries = QueryMemory.chunkBytes(held.get(0)) + HashJoinTable.ENTRY_BYTES * build.size();
        // the rows fit under the share a build may hold; their table takes more than the rest
        long limit = (long) (rowsAndEntries / BuildRows.HELD_SHARE) + (64 << 10);
        QueryMemory memory = new QueryMemory("node n1", limit, "ooo.query.max-memory", spill);
        List<String> joined = new ArrayList<>();
        VectorPipeline vectors = new VectorPipeline(List.of(join), PROBE, chunks,
                out -> out.forEach(r -> joined.add(Arrays.toString(r))), memory);
        vectors.acceptRows(probe);
        vectors.finish();
        assertTrue(memory.spilledBytes() > 0, "the build went to disk");
        assertEquals(byRow(join, probe), joined.stream().sorted().toList());

        QueryMemory cannotSpill = new QueryMemory("node n1", limit, "ooo.query.max-memory");
        MemoryLimitExceededException refused = assertThrows(MemoryLimitExceededException.class,
                () -> new VectorPipeline(List.of(join), PROBE, chunks, out -> { }, cannotSpill));
        assertTrue(refused.getMessage().startsWith("hash join table of 60000 rows on node n1"), refused.getMessage());
    }

    /**
     * A join whose probe key is a column an earlier join's build brought (TPC-H Q09's supplier
     * join on lineitem's l_suppkey): the plan's steps carry no key types, so the key's type comes
     * from the first build's values, and both joins run on batches, with builds of columns or of
     * rows, integer and date keys, answering as the row engine does.
     */
    @Test
    void aJoinOnAColumnAnEarlierBuildBroughtRunsOnBatchesToo() {
        List<Object[]> lines = new ArrayList<>();
        for (int i = 0; i < 3000; i++) {
            lines.add(new Object[] {i % 17 == 0 ? null : i % 800, i % 50, LocalDate.ofEpochDay(9000 + i % 30), "line " + i});
        }
        List<Object[]> suppliers = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            suppliers.add(new Object[] {i, "supplier " + i});
        }
        List<Object[]> days = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            days.add(new Object[] {LocalDate.ofEpochDay(9000 + i), (long) i});
        }
        List<Object[]> orders = new ArrayList<>();
        for (int i = 0; i < 2000; i++) {
            orders.add(new Object[] {(long) (i % 900), LocalDate.ofEpochDay(9000 + i % 40), BigDecimal.valueOf(i, 2)});
        }
        // orders (3 columns) meet the lines on the order key, then the lines' supplier (column 4) and ship day (column 5)
        List<Object[]> longLines = lines.stream().map(r -> new Object[] {r[0] == null ? null : ((Integer) r[0]).longValue(),
            r[1], r[2], r[3]}).toList();
        PipelineStep.HashJoin byOrder = new PipelineStep.HashJoin(new JoinBuild.Rows(longLines), JoinKind.INNER, List.of(0),
                List.of(0), null, 4);
        PipelineStep.HashJoin bySupplier = new PipelineStep.HashJoin(new JoinBuild.Rows(suppliers), JoinKind.INNER,
                List.of(4), List.of(0), null, 2);
        PipelineStep.HashJoin byDay = new PipelineStep.HashJoin(new JoinBuild.Rows(days), JoinKind.LEFT, List.of(5),
                List.of(0), null, 2);
        List<PipelineStep> steps = List.of(byOrder, bySupplier, byDay);
        List<String> rows = new ArrayList<>();
        Pipeline p = new Pipeline(steps, 3, Pipeline.BuildSource.ROWS_ONLY, out -> out.forEach(r -> rows.add(Arrays.toString(r))));
        p.accept(orders);
        p.finish();
        for (Pipeline.BuildSource source : List.of(Pipeline.BuildSource.ROWS_ONLY, eachAsColumns())) {
            List<String> batches = new ArrayList<>();
            VectorPipeline vectors = new VectorPipeline(steps, PROBE, source,
                    out -> out.forEach(r -> batches.add(Arrays.toString(r))), QueryMemory.unbounded());
            vectors.acceptRows(orders);
            vectors.finish();
            assertEquals(0, vectors.rowSteps(), "every join on batches");
            assertEquals(rows.stream().sorted().toList(), batches.stream().sorted().toList());
        }
        assertTrue(rows.size() > 1000, rows.size() + " rows");
    }

    /** Each build's rows as one chunk of columns, read back as a node reads a shuffled chunk. */
    private static Pipeline.BuildSource eachAsColumns() {
        return (b, chunks) -> {
            PayloadWriter w = new PayloadWriter();
            ColumnarRows.write(w, ((JoinBuild.Rows) b).rows());
            chunks.accept(ColumnarRows.readChunk(new PayloadReader(w.toByteArray())));
        };
    }

    /**
     * Probe batches whose filter's decimal arithmetic outgrows a long run that filter row by row,
     * then probe the same table of build rows as the other batches: a right semi or anti join marks
     * each build row once, whichever way its partner came, and its rows come out after the last.
     */
    @Test
    void rowsThatRanRowByRowProbeTheSameBuildRows() {
        SqlType money = SqlType.decimal(15, 2);
        List<Object[]> probe = new ArrayList<>();
        for (int i = 0; i < 6000; i++) { // from 4096 on, prices whose cube outgrows a long
            probe.add(new Object[] {(long) i, LocalDate.ofEpochDay(9000 + i % 40),
                BigDecimal.valueOf(i < 4096 ? i : 900_000_000L + i, 2)});
        }
        List<Object[]> build = new ArrayList<>();
        for (int i = 0; i < 4000; i++) {
            build.add(new Object[] {(long) (i * 2), LocalDate.ofEpochDay(9000 + i % 50), BigDecimal.valueOf(i, 2), "k" + i});
        }
        Expr price = new Expr.Column(2, money);
        Expr cube = new Expr.Call(ScalarFunction.MULTIPLY, List.of(new Expr.Call(ScalarFunction.MULTIPLY, List.of(price, price),
                SqlType.decimal(31, 4)), price), SqlType.decimal(38, 6));
        Expr dear = new Expr.Call(ScalarFunction.GT, List.of(cube, new Expr.Literal(new BigDecimal("1000"), SqlType.decimal(4, 0))),
                SqlType.BOOLEAN);
        SqlType[] types = {SqlType.BIGINT, SqlType.DATE, money};
        for (JoinKind kind : List.of(JoinKind.RIGHT_SEMI, JoinKind.RIGHT_ANTI, JoinKind.RIGHT, JoinKind.FULL)) {
            List<PipelineStep> steps = List.of(new PipelineStep.Filter(dear),
                    new PipelineStep.HashJoin(new JoinBuild.Gathered(0), kind, List.of(0), List.of(0), null, 4));
            Pipeline.BuildSource source = Pipeline.BuildSource.ofRows((b, out) -> out.accept(build));
            List<String> rows = new ArrayList<>();
            Pipeline p = new Pipeline(steps, 3, source, out -> out.forEach(r -> rows.add(Arrays.toString(r))));
            p.accept(probe);
            p.finish();
            List<String> batches = new ArrayList<>();
            VectorPipeline vectors = new VectorPipeline(steps, types, source,
                    out -> out.forEach(r -> batches.add(Arrays.toString(r))), QueryMemory.unbounded());
            for (int from = 0; from < probe.size(); from += 1024) {
                vectors.acceptRows(probe.subList(from, Math.min(probe.size(), from + 1024)));
            }
            vectors.finish();
            assertEquals(0, vectors.rowSteps(), kind + ": on batches");
            assertEquals(rows.stream().sorted().toList(), batches.stream().sorted().toList(), kind.toString());
            assertTrue(rows.size() > 100, kind + ": " + rows.size());
        }
    }

    /**
     * A pipeline ending in a right semi join hands its output the build rows as batches of the
     * build's columns, those of integers typed from the values (no step after the join types them):
     * the next join built from them (TPC-H Q21's NOT EXISTS over the EXISTS's rows) takes them as
     * columns, none boxed.
     */
    @Test
    void aRightSemiJoinsRowsLeaveAsTheBuildsTypedColumns() {
        List<Object[]> build = new ArrayList<>();
        for (long i = 0; i < 3000; i++) {
            build.add(new Object[] {i, i % 7, "b" + i});
        }
        List<Object[]> probe = new ArrayList<>();
        for (long i = 0; i < 5000; i += 2) {
            probe.add(new Object[] {i});
        }
        PipelineStep.HashJoin join = new PipelineStep.HashJoin(new JoinBuild.Gathered(0), JoinKind.RIGHT_SEMI, List.of(0),
                List.of(0), null, 3);
        Pipeline.BuildSource source = (b, chunks) -> {
            PayloadWriter w = new PayloadWriter();
            ColumnarRows.write(w, build);
            chunks.accept(ColumnarRows.readChunk(new PayloadReader(w.toByteArray())));
        };
        List<SqlType[]> types = new ArrayList<>();
        int[] rows = {0};
        BatchSink sink = new BatchSink() {
            @Override
            public void accept(List<Object[]> r) {
                throw new AssertionError("rows, not batches");
            }

            @Override
            public void acceptBatch(Batch batch, SqlType[] typed) {
                types.add(typed);
                rows[0] += batch.size();
            }
        };
        VectorPipeline vectors = new VectorPipeline(List.of(join), new SqlType[] {SqlType.BIGINT}, source, sink,
                QueryMemory.unbounded());
        vectors.acceptRows(probe);
        vectors.finish();
        assertEquals(1500, rows[0]);
        assertEquals(List.of(SqlType.BIGINT, SqlType.BIGINT), Arrays.asList(types.get(0)).subList(0, 2));
    }

    /** Rows to build from: those a node gathered for a join that keeps its build rows (right semi, right anti). */
    /**
     * Probe rows shuffled to the node (a join of two shuffled inputs), whose key no step reads in
     * an expression, so that no step names its type: the first chunk's columns tell it, and the
     * join runs on batches, answering as the row engine does (TPC-H Q09 over files ran row by row).
     */
    @Test
    void shuffledProbeRowsJoinOnBatchesThoughNoStepNamesTheKeyType() {
        List<Object[]> probe = probeRows();
        List<Object[]> build = buildRows(false);
        PipelineStep.HashJoin join = new PipelineStep.HashJoin(new JoinBuild.Exchanged("q/build", 2), JoinKind.INNER,
                List.of(0), List.of(0), null, 4);
        // what follows reads the day and the build's name, never the key
        PipelineStep.Project project = new PipelineStep.Project(List.of(new Expr.Column(1, SqlType.DATE),
                new Expr.Column(6, SqlType.STRING)));
        List<String> rows = new ArrayList<>();
        Pipeline byRow = new Pipeline(List.of(join, project), 3, Pipeline.BuildSource.ofRows((b, out) -> out.accept(build)),
                out -> out.forEach(r -> rows.add(Arrays.toString(r))));
        byRow.accept(probe);
        byRow.finish();
        List<String> batches = new ArrayList<>();
        BitSet all = new BitSet();
        all.set(0, 3);
        PartitionPipeline.OverRows shuffled = new PartitionPipeline.OverRows(new ScanPipeline("", 3, all,
                List.of(join, project)), asColumns(build), out -> out.forEach(r -> batches.add(Arrays.toString(r))),
                QueryMemory.unbounded());
        for (int from = 0; from < probe.size(); from += 1000) {
            PayloadWriter w = new PayloadWriter();
            ColumnarRows.write(w, probe.subList(from, from + 1000));
            shuffled.accept(ColumnarRows.readChunk(new PayloadReader(w.toByteArray())));
        }
        shuffled.finish();
        assertEquals(0, shuffled.rowSteps(), "the join on batches");
        assertEquals(rows.stream().sorted().toList(), batches.stream().sorted().toList());
        assertEquals(probe.size(), shuffled.rowsIn());
    }

    /**
     * The build rows a right or full join's probes never met come out when the input ends, padded
     * with nulls, through the steps after the join (here a projection and a filter), as the row
     * engine sends them.
     */
    @Test
    void unmetBuildRowsGoThroughTheStepsAfterTheJoin() {
        List<Object[]> probe = probeRows();
        List<Object[]> build = buildRows(true);
        for (JoinKind kind : List.of(JoinKind.RIGHT, JoinKind.FULL)) {
            List<PipelineStep> steps = List.of(new PipelineStep.HashJoin(new JoinBuild.Gathered(0), kind, List.of(0),
                    List.of(0), null, 4), new PipelineStep.Project(List.of(new Expr.Column(0, SqlType.BIGINT),
                    new Expr.Column(5, DEC), new Expr.Column(6, SqlType.STRING))),
                    new PipelineStep.Filter(new Expr.Call(ScalarFunction.GT, List.of(new Expr.Column(1, DEC),
                            new Expr.Literal(new BigDecimal("20.00"), DEC)), SqlType.BOOLEAN)));
            Pipeline.BuildSource source = Pipeline.BuildSource.ofRows((b, out) -> out.accept(build));
            List<String> rows = new ArrayList<>();
            Pipeline p = new Pipeline(steps, 3, source, out -> out.forEach(r -> rows.add(Arrays.toString(r))));
            p.accept(probe);
            p.finish();
            List<String> batches = new ArrayList<>();
            VectorPipeline vectors = new VectorPipeline(steps, PROBE, asColumns(build),
                    out -> out.forEach(r -> batches.add(Arrays.toString(r))), QueryMemory.unbounded());
            vectors.acceptRows(probe);
            vectors.finish();
            assertEquals(0, vectors.rowSteps(), kind + ": on batches");
            assertEquals(rows.stream().sorted().toList(), batches.stream().sorted().toList(), kind.toString());
            assertTrue(rows.stream().anyMatch(r -> r.startsWith("[null, ")), kind + ": unmet build rows among them");
        }
    }

    /**
     * Probe rows holding a decimal past a long (a wide column's values; here the second of three
     * chunks) do not fit the join's batches: they probe its one table row by row, and every kind of join, the outer ones whose
     * unmet build rows come out at the end among them, answers as the row engine does.
     */
    @Test
    void rowsPastALongProbeTheSameTableOnRows() {
        SqlType wide = SqlType.decimal(38, 0);
        List<Object[]> probe = new ArrayList<>();
        for (int i = 0; i < 3000; i++) {
            probe.add(new Object[] {i % 13 == 0 ? null : (long) (i % 900),
                i % 4 == 0 && i >= 1000 && i < 2000 ? new BigDecimal("100000000000000000000").add(BigDecimal.valueOf(i)) : BigDecimal.valueOf(i)});
        }
        List<Object[]> build = buildRows(true);
        for (JoinKind kind : List.of(JoinKind.INNER, JoinKind.LEFT, JoinKind.RIGHT, JoinKind.FULL, JoinKind.SEMI,
                JoinKind.ANTI, JoinKind.ANTI_NULL_AWARE, JoinKind.RIGHT_SEMI, JoinKind.RIGHT_ANTI)) {
            PipelineStep.HashJoin join = new PipelineStep.HashJoin(new JoinBuild.Gathered(0), kind, List.of(0),
                    List.of(0), null, 4);
            List<PipelineStep> steps = kind.leftOnly() || kind.rightOnly() ? List.of(join)
                    : List.of(join, new PipelineStep.Project(List.of(new Expr.Column(1, wide), new Expr.Column(5, DEC),
                            new Expr.Column(2, SqlType.BIGINT))));
            Pipeline.BuildSource source = Pipeline.BuildSource.ofRows((b, out) -> out.accept(build));
            List<String> rows = new ArrayList<>();
            Pipeline p = new Pipeline(steps, 2, source, out -> out.forEach(r -> rows.add(Arrays.toString(r))));
            p.accept(probe);
            p.finish();
            List<String> batches = new ArrayList<>();
            VectorPipeline vectors = new VectorPipeline(steps, new SqlType[] {SqlType.BIGINT, wide}, asColumns(build),
                    out -> out.forEach(r -> batches.add(Arrays.toString(r))), QueryMemory.unbounded());
            for (int from = 0; from < probe.size(); from += 1000) {
                vectors.acceptRows(probe.subList(from, from + 1000));
            }
            vectors.finish();
            assertEquals(rows.stream().sorted().toList(), batches.stream().sorted().toList(), kind.toString());
            assertTrue(rows.size() > 100 || kind == JoinKind.ANTI_NULL_AWARE, kind + ": " + rows.size());
        }
    }

    /** Probe rows: a key (some null, repeated), a day and an amount. */
    private static List<Object[]> probeRows() {
        List<Object[]> probe = new ArrayList<>();
        for (int i = 0; i < 3000; i++) {
            probe.add(new Object[] {i % 11 == 0 ? null : (long) (i % 900), LocalDate.ofEpochDay(9000 + i % 40),
                BigDecimal.valueOf(i * 37L % 10_000, 2)});
        }
        return probe;
    }

    /** Build rows: a key (repeated, some null where {@code nullKeys}), a day, an amount and a name. */
    private static List<Object[]> buildRows(boolean nullKeys) {
        List<Object[]> build = new ArrayList<>();
        for (int i = 0; i < 2000; i++) {
            build.add(new Object[] {nullKeys && i % 13 == 0 ? null : (long) (i % 700), LocalDate.ofEpochDay(9000 + i % 50),
                BigDecimal.valueOf(i * 91L % 10_000, 2), "s" + i % 17});
        }
        return build;
    }

    private static JoinBuild buildOf(List<Object[]> build, JoinKind kind) {
        return VectorHashJoin.keepsBuild(kind) ? new JoinBuild.Gathered(0) : new JoinBuild.Rows(build);
    }

    /** The row engine's answer over {@code build}, whatever the join builds from, sorted. */
    private static List<String> byRow(PipelineStep.HashJoin join, List<Object[]> probe, List<Object[]> build) {
        List<String> rows = new ArrayList<>();
        Pipeline p = new Pipeline(List.of(join), 3, Pipeline.BuildSource.ofRows((b, out) -> out.accept(build)),
                out -> out.forEach(r -> rows.add(Arrays.toString(r))));
        p.accept(probe);
        p.finish();
        return rows.stream().sorted().toList();
    }

    /** The row engine's answer, sorted. */
    private static List<String> byRow(PipelineStep.HashJoin join, List<Object[]> probe) {
        List<String> rows = new ArrayList<>();
        Pipeline p = new Pipeline(List.of(join), 3, Pipeline.BuildSource.ROWS_ONLY,
                out -> out.forEach(r -> rows.add(Arrays.toString(r))));
        p.accept(probe);
        p.finish();
        return rows.stream().sorted().toList();
    }

    /** The build rows as three chunks of columns, each read back as a node reads a shuffled chunk. */
    private static Pipeline.BuildSource asColumns(List<Object[]> build) {
        return (b, chunks) -> {
            int third = build.size() / 3;
            for (int from = 0; from < build.size(); from += third) {
                PayloadWriter w = new PayloadWriter();
                ColumnarRows.write(w, build.subList(from, Math.min(build.size(), from + third)));
                ColumnarRows.Chunk chunk = ColumnarRows.readChunk(new PayloadReader(w.toByteArray()));
                assertEquals(4, chunk.columns().length);
                chunks.accept(chunk);
            }
        };
    }
}
