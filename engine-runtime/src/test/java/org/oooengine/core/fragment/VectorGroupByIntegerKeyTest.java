package org.oooengine.core.fragment;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.sql.expr.AggregateCall;
import org.oooengine.core.sql.expr.Expr;

/**
 * GROUP BY one integer key on batches (looked up by the key itself): runs of one key, keys that
 * return after others, NULL keys as one group, answering as the row engine does.
 */
class VectorGroupByIntegerKeyTest {
    private static final SqlType DEC = SqlType.decimal(9, 2);

    @Test
    void oneIntegerKeyGroupsAsTheRowEngineDoes() {
        List<Object[]> input = new ArrayList<>();
        for (long i = 0; i < 5000; i++) {
            Long key = i % 13 == 0 ? null : i < 2500 ? i / 3 : (i * 7919) % 600; // runs, then keys seen again
            input.add(new Object[] {key, BigDecimal.valueOf(i, 2)});
        }
        groupsAsTheRowEngineDoes(input);
    }

    /**
     * Keys in ascending order (a table stored by its key) are grouped without the table until one
     * comes out of order: a run across batches stays one group, and a key seen before, a smaller
     * one or a NULL after them finds its group.
     */
    @Test
    void keysInAscendingOrderThenOutOfOrderGroupAsTheRowEngineDoes() {
        List<Object[]> ascending = new ArrayList<>();
        for (long i = 0; i < 5000; i++) {
            ascending.add(new Object[] {i / 3 + i / 1000 * 50, BigDecimal.valueOf(i, 2)}); // runs, gaps
        }
        groupsAsTheRowEngineDoes(ascending);
        for (Long late : new Long[] {1700L, 5L, -4L, null}) {
            List<Object[]> input = new ArrayList<>(ascending);
            input.add(new Object[] {late, BigDecimal.ONE});
            input.addAll(ascending.subList(0, 2000)); // every key again
            input.add(new Object[] {100_000L, BigDecimal.TEN});
            groupsAsTheRowEngineDoes(input);
        }
    }

    private static void groupsAsTheRowEngineDoes(List<Object[]> input) {
        List<PipelineStep> steps = List.of(new PipelineStep.Aggregate(List.of(new Expr.Column(0, SqlType.BIGINT)), List.of(
                new AggregateCall(AggregateCall.Kind.SUM, new Expr.Column(1, DEC), false, SqlType.decimal(19, 2)),
                new AggregateCall(AggregateCall.Kind.COUNT_STAR, null, false, SqlType.BIGINT))));
        List<String> byRow = new ArrayList<>();
        Pipeline rows = new Pipeline(steps, 2, Pipeline.BuildSource.ROWS_ONLY, out -> out.forEach(r -> byRow.add(Arrays.toString(r))));
        rows.accept(input);
        rows.finish();
        List<String> onBatches = new ArrayList<>();
        VectorPipeline vectors = new VectorPipeline(steps, new SqlType[] {SqlType.BIGINT, DEC}, Pipeline.BuildSource.ROWS_ONLY,
                out -> out.forEach(r -> onBatches.add(Arrays.toString(r))), QueryMemory.unbounded());
        for (int from = 0; from < input.size(); from += 1024) { // batches a key's run crosses
            vectors.acceptRows(input.subList(from, Math.min(input.size(), from + 1024)));
        }
        vectors.finish();
        assertEquals(0, vectors.rowSteps(), "the GROUP BY on batches");
        assertEquals(byRow.stream().sorted().toList(), onBatches.stream().sorted().toList());
        boolean nulls = input.stream().anyMatch(r -> r[0] == null);
        assertEquals(nulls ? 1 : 0, onBatches.stream().filter(r -> r.startsWith("[null,")).count(), "NULL keys make one group");
    }
}
