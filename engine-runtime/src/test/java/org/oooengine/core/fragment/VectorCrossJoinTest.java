package org.oooengine.core.fragment;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.oooengine.core.sql.JoinKind;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.sql.expr.AggregateCall;
import org.oooengine.core.sql.expr.Expr;
import org.oooengine.core.sql.expr.ScalarFunction;

/**
 * A join without keys — a scalar subquery's one row crossed into a pipeline's batches (TPC-DS Q23's
 * maximum before its GROUP BY), a few rows met by an expression — runs on the batches and answers
 * as the row engine does: with the rows, with a residual, with no row at all, the joined rows
 * whole when they leave the pipeline as they are.
 */
class VectorCrossJoinTest {
    private static final SqlType DEC = SqlType.decimal(7, 2);

    @Test
    void aJoinWithOneRowRunsOnBatchesAndAnswersAsRowsDo() {
        List<Object[]> input = new ArrayList<>();
        for (long k = 0; k < 3000; k++) {
            input.add(new Object[] {k % 7, BigDecimal.valueOf(k, 2), "unread"});
        }
        // (key, price, unread) x (limit): keep price > limit, then sum the prices per key and the limit's max
        Expr residual = new Expr.Call(ScalarFunction.GT, List.of(new Expr.Column(1, DEC), new Expr.Column(3, DEC)),
                SqlType.BOOLEAN);
        for (List<Object[]> build : List.of(List.<Object[]>of(new Object[] {new BigDecimal("12.34")}), List.<Object[]>of(),
                List.<Object[]>of(new Object[] {new BigDecimal("20.00")}, new Object[] {null}, new Object[] {new BigDecimal("1.00")}))) {
            for (Expr condition : Arrays.asList(residual, null)) {
                List<PipelineStep> steps = List.of(
                        new PipelineStep.HashJoin(new JoinBuild.Rows(build), JoinKind.CROSS, List.of(), List.of(), condition, 1),
                        new PipelineStep.Aggregate(List.of(new Expr.Column(0, SqlType.BIGINT)), List.of(
                                new AggregateCall(AggregateCall.Kind.SUM, new Expr.Column(1, DEC), false, DEC),
                                new AggregateCall(AggregateCall.Kind.MAX, new Expr.Column(3, DEC), false, DEC))));
                List<String> rows = new ArrayList<>();
                Pipeline byRow = new Pipeline(steps, 3, Pipeline.BuildSource.ROWS_ONLY, out -> out.forEach(r -> rows.add(Arrays.toString(r))));
                byRow.accept(input);
                byRow.finish();
                List<String> batches = new ArrayList<>();
                VectorPipeline vectors = new VectorPipeline(steps, new SqlType[] {SqlType.BIGINT, DEC, null},
                        Pipeline.BuildSource.ROWS_ONLY, out -> out.forEach(r -> batches.add(Arrays.toString(r))),
                        QueryMemory.unbounded());
                vectors.acceptRows(input);
                vectors.finish();
                assertEquals(0, vectors.rowSteps(), "every step on batches");
                assertEquals(rows.stream().sorted().toList(), batches.stream().sorted().toList());
                assertEquals(build.isEmpty() ? 0 : 7, rows.size(), "a group per key");
                // the joined rows as they are, each column read by what takes them
                List<PipelineStep> whole = steps.subList(0, 1);
                assertEquals(run(whole, input, false), run(whole, input, true));
            }
        }
    }

    private static List<String> run(List<PipelineStep> steps, List<Object[]> input, boolean onBatches) {
        List<String> out = new ArrayList<>();
        if (onBatches) {
            VectorPipeline p = new VectorPipeline(steps, new SqlType[] {SqlType.BIGINT, DEC, SqlType.STRING},
                    Pipeline.BuildSource.ROWS_ONLY, rows -> rows.forEach(r -> out.add(Arrays.toString(r))), QueryMemory.unbounded());
            p.acceptRows(input);
            p.finish();
            assertEquals(0, p.rowSteps());
        } else {
            Pipeline p = new Pipeline(steps, 3, Pipeline.BuildSource.ROWS_ONLY, rows -> rows.forEach(r -> out.add(Arrays.toString(r))));
            p.accept(input);
            p.finish();
        }
        return out.stream().sorted().toList();
    }
}
