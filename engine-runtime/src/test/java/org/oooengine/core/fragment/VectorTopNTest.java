package org.oooengine.core.fragment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.sql.expr.Expr;
import org.oooengine.core.sql.expr.ScalarFunction;
import org.oooengine.core.vector.Batch;
import org.oooengine.core.vector.Vector;

/**
 * ORDER BY ... LIMIT on column batches keeps exactly the rows the row engine keeps, in its order
 * (ties to the row that came first), for keys of every representation, either direction, nulls
 * first or last and several keys; and it boxes only the rows that could still be kept.
 */
class VectorTopNTest {
    private static final SqlType PRICE = SqlType.decimal(12, 2);
    /** (id, group or null, price, day, name or null, score or null). */
    private static final SqlType[] TYPES = {SqlType.BIGINT, SqlType.INT, PRICE, SqlType.DATE, SqlType.STRING, SqlType.DOUBLE};

    private static List<Object[]> rows(int n, long seed) {
        Random random = new Random(seed);
        List<Object[]> rows = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            rows.add(new Object[] {(long) i, random.nextInt(10) == 0 ? null : random.nextInt(50),
                    BigDecimal.valueOf(random.nextInt(100_000), 2), LocalDate.ofEpochDay(8000 + random.nextInt(300)),
                    random.nextInt(20) == 0 ? null : "n" + random.nextInt(500),
                    random.nextInt(15) == 0 ? null : (double) random.nextInt(1000) / 8});
        }
        return rows;
    }

    /** What the vector pipeline sends for {@code steps} over {@code rows} fed 1,000 at a time, and how many rows it ran on rows. */
    private static List<String> onBatches(List<PipelineStep> steps, List<Object[]> rows) {
        List<String> out = new ArrayList<>();
        VectorPipeline pipeline = new VectorPipeline(steps, TYPES.clone(), Pipeline.BuildSource.ROWS_ONLY,
                batch -> batch.forEach(r -> out.add(Arrays.toString(r))), QueryMemory.unbounded());
        assertEquals(0, pipeline.rowSteps(), "the top-N runs on batches");
        for (int from = 0; from < rows.size(); from += 1000) {
            pipeline.acceptRows(rows.subList(from, Math.min(rows.size(), from + 1000)));
        }
        pipeline.finish();
        return out;
    }

    private static List<String> onRows(List<PipelineStep> steps, List<Object[]> rows) {
        List<String> out = new ArrayList<>();
        Pipeline pipeline = new Pipeline(steps, TYPES.length, Pipeline.BuildSource.ROWS_ONLY,
                batch -> batch.forEach(r -> out.add(Arrays.toString(r))));
        for (int from = 0; from < rows.size(); from += 1000) {
            pipeline.accept(rows.subList(from, Math.min(rows.size(), from + 1000)));
        }
        pipeline.finish();
        return out;
    }

    private static Batch batch(List<Object[]> rows) {
        Vector[] columns = new Vector[TYPES.length];
        for (int c = 0; c < TYPES.length; c++) {
            columns[c] = Vector.allocate(TYPES[c], rows.size());
            for (int i = 0; i < rows.size(); i++) {
                columns[c].setBoxed(i, rows.get(i)[c], TYPES[c]);
            }
        }
        return Batch.of(columns, rows.size());
    }

    @Test
    void keepsTheRowEnginesRowsForEveryKeyKind() {
        List<Object[]> rows = rows(20_000, 7);
        List<List<SortKey>> orders = List.of(
                List.of(new SortKey(2, false, false)), // decimal, descending
                List.of(new SortKey(3, true, false), new SortKey(0, false, false)), // date, then id descending
                List.of(new SortKey(1, true, true), new SortKey(2, true, false)), // int with nulls first
                List.of(new SortKey(1, false, false), new SortKey(3, false, true)), // int with nulls last
                List.of(new SortKey(4, true, false)), // string (objects), nulls last: ties broken by arrival
                List.of(new SortKey(4, false, true), new SortKey(5, true, true)), // nulls first, then a double
                List.of(new SortKey(5, false, false), new SortKey(1, true, false)));
        for (List<SortKey> keys : orders) {
            for (long count : new long[] {0, 1, 10, 999, 25_000}) {
                List<PipelineStep> steps = List.of(new PipelineStep.TopN(keys, count));
                List<String> expected = onRows(steps, rows);
                assertEquals(Math.min(count, rows.size()), expected.size());
                assertEquals(expected, onBatches(steps, rows), keys + " limit " + count);
            }
        }
    }

    @Test
    void keepsTheRowEnginesRowsAfterAFilterAndAProjection() {
        List<Object[]> rows = rows(10_000, 11);
        Expr price = new Expr.Column(2, PRICE);
        Expr cheap = new Expr.Call(ScalarFunction.LT, List.of(price, new Expr.Literal(new BigDecimal("400.00"), PRICE)),
                SqlType.BOOLEAN);
        List<PipelineStep> steps = List.of(new PipelineStep.Filter(cheap),
                new PipelineStep.Project(List.of(new Expr.Column(3, SqlType.DATE), price, new Expr.Column(4, SqlType.STRING))),
                new PipelineStep.TopN(List.of(new SortKey(0, false, false), new SortKey(1, true, false)), 20));
        List<String> expected = onRows(steps, rows);
        assertEquals(20, expected.size());
        assertEquals(expected, onBatches(steps, rows));
    }

    @Test
    void boxesOnlyTheRowsThatComeBeforeTheLastKept() {
        int n = 100_000;
        List<Object[]> rows = rows(n, 3);
        List<Object[]> out = new ArrayList<>();
        VectorTopN top = new VectorTopN(new PipelineStep.TopN(List.of(new SortKey(2, false, false)), 10),
                QueryMemory.unbounded(), out::addAll);
        for (int from = 0; from < n; from += 4096) {
            top.add(batch(rows.subList(from, Math.min(n, from + 4096))), TYPES);
        }
        top.finish();
        assertEquals(10, out.size());
        assertTrue(top.rowsBoxed() < n / 100, top.rowsBoxed() + " of " + n + " rows boxed");
    }
}
