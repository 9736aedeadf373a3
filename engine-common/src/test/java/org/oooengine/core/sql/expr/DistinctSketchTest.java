package org.oooengine.core.sql.expr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.oooengine.core.sql.SqlType;

class DistinctSketchTest {
    @Test
    void estimatesManyValuesWithinAFewPercent() {
        DistinctSketch s = DistinctSketch.empty();
        for (long i = 0; i < 1_000_000; i++) {
            s.add(i % 250_000);
        }
        assertEquals(250_000, s.estimate(), 250_000 * 0.05);
    }

    @Test
    void sketchesOfPartsMergeIntoTheSketchOfTheWhole() {
        DistinctSketch whole = DistinctSketch.empty();
        DistinctSketch a = DistinctSketch.empty();
        DistinctSketch b = DistinctSketch.empty();
        for (long i = 0; i < 50_000; i++) {
            whole.add("k" + i);
            (i % 3 == 0 ? a : b).add("k" + i);
        }
        DistinctSketch merged = DistinctSketch.decode(a.encoded());
        merged.merge(DistinctSketch.decode(b.encoded()));
        assertEquals(whole.estimate(), merged.estimate());
        assertEquals(whole.encoded(), merged.encoded());
    }

    @Test
    void valuesEqualInSqlCountOnce() {
        DistinctSketch s = DistinctSketch.empty();
        s.add(5);
        s.add(5L);
        s.add(new BigDecimal("5.00"));
        s.add(0.0);
        s.add(-0.0);
        s.add(List.of(1, 2));
        s.add(List.of(1L, 2L));
        assertEquals(3, s.estimate());
    }

    @Test
    void theAggregateSplitsIntoPartialStatesThatMergeAndCountsNoValuesAsZero() {
        AggregateCall call = new AggregateCall(AggregateCall.Kind.APPROX_DISTINCT, new Expr.Column(0, SqlType.BIGINT), false,
                SqlType.BIGINT);
        AggregateCall.Accumulator node1 = call.newAccumulator();
        AggregateCall.Accumulator node2 = call.newAccumulator();
        for (long i = 0; i < 10_000; i++) {
            (i % 2 == 0 ? node1 : node2).add(new Object[] {i % 1000});
        }
        AggregateCall.Accumulator merged = call.newAccumulator();
        Object[] partial = new Object[AggregateCall.PARTIAL_WIDTH];
        node1.partial(partial, 0);
        merged.merge(partial, 0);
        node2.partial(partial, 0);
        merged.merge(partial, 0);
        long estimate = (Long) merged.result();
        assertTrue(Math.abs(estimate - 1000) <= 20, "estimate " + estimate);
        assertEquals(0L, call.newAccumulator().result());
    }
}
