package org.oooengine.core.fragment;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.oooengine.core.sql.JoinKind;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.sql.expr.AggregateCall;
import org.oooengine.core.sql.expr.Expr;

/**
 * A join that probes with the groups of a GROUP BY the same node computed (TPC-DS Q23's sales
 * counted per item and day, then joined with the items) runs on batches, keyed by a group key of
 * any type, and answers as the row engine does.
 */
class VectorJoinAfterAggregateTest {
    @Test
    void aJoinOverTheGroupsOfAnAggregateRunsOnBatches() {
        Random random = new Random(23);
        List<Object[]> sales = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            long item = random.nextInt(500);
            sales.add(new Object[] {item, LocalDate.ofEpochDay(11_000 + random.nextInt(30)), "brand" + item % 37});
        }
        List<Object[]> items = new ArrayList<>();
        List<Object[]> brands = new ArrayList<>();
        for (long item = 0; item < 500; item += 3) { // a third of the items
            items.add(new Object[] {item, "item " + item});
        }
        for (int b = 0; b < 37; b += 2) {
            brands.add(new Object[] {"brand" + b, (long) b});
        }
        Expr item = new Expr.Column(0, SqlType.BIGINT);
        Expr day = new Expr.Column(1, SqlType.DATE);
        Expr brand = new Expr.Column(2, SqlType.STRING);
        AggregateCall count = new AggregateCall(AggregateCall.Kind.COUNT_STAR, null, false, SqlType.BIGINT);
        // groups (item, day, brand, count) joined with the items on item, then with the brands on brand
        List<PipelineStep> steps = List.of(
                new PipelineStep.Aggregate(List.of(item, day, brand), List.of(count)),
                new PipelineStep.HashJoin(new JoinBuild.Rows(items), JoinKind.INNER, List.of(0), List.of(0), null, 2),
                new PipelineStep.HashJoin(new JoinBuild.Rows(brands), JoinKind.INNER, List.of(2), List.of(0), null, 2),
                new PipelineStep.Project(List.of(new Expr.Column(5, SqlType.STRING), day, new Expr.Column(3, SqlType.BIGINT),
                        new Expr.Column(7, SqlType.BIGINT))));
        List<String> rows = new ArrayList<>();
        Pipeline byRow = new Pipeline(steps, 3, Pipeline.BuildSource.ROWS_ONLY, out -> out.forEach(r -> rows.add(Arrays.toString(r))));
        byRow.accept(sales);
        byRow.finish();
        List<String> batches = new ArrayList<>();
        VectorPipeline vectors = new VectorPipeline(steps, new SqlType[] {SqlType.BIGINT, SqlType.DATE, SqlType.STRING},
                Pipeline.BuildSource.ROWS_ONLY, out -> out.forEach(r -> batches.add(Arrays.toString(r))),
                QueryMemory.unbounded());
        vectors.acceptRows(sales);
        vectors.finish();
        assertEquals(0, vectors.rowSteps(), "the joins after the aggregate on batches");
        assertEquals(rows.stream().sorted().toList(), batches.stream().sorted().toList());
        assertEquals(true, rows.size() > 1000, rows.size() + " groups joined");
    }
}
