package org.oooengine.core.sql.expr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.math.BigDecimal;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.oooengine.core.sql.SqlType;

/**
 * Variances and standard deviations from running states merged in any split, as a distributed
 * aggregation merges the nodes' partial states: the same answer as one accumulator that saw
 * every value; NULL for no values, and a sample's NULL for one.
 */
class VarianceAccumulatorTest {
    private static final Expr X = new Expr.Column(0, SqlType.decimal(15, 2));

    private static AggregateCall call(AggregateCall.Kind kind) {
        return new AggregateCall(kind, X, false, AggregateCall.resultType(kind, X.type()));
    }

    @Test
    void mergedStatesGiveWhatOneAccumulatorGives() {
        List<BigDecimal> values = List.of(new BigDecimal("17.00"), new BigDecimal("36.50"), new BigDecimal("8.00"),
                new BigDecimal("28.25"), new BigDecimal("24.00"), new BigDecimal("32.00"), new BigDecimal("38.75"));
        for (AggregateCall.Kind kind : List.of(AggregateCall.Kind.VAR_POP, AggregateCall.Kind.VAR_SAMP,
                AggregateCall.Kind.STDDEV_POP, AggregateCall.Kind.STDDEV_SAMP)) {
            AggregateCall call = call(kind);
            AggregateCall.Accumulator whole = call.newAccumulator();
            values.forEach(v -> whole.add(new Object[] {v}));
            whole.add(new Object[] {null});
            // three "nodes": two values, none, five; merged through their partial states
            AggregateCall.Accumulator merged = call.newAccumulator();
            for (List<BigDecimal> part : List.of(values.subList(0, 2), List.<BigDecimal>of(), values.subList(2, 7))) {
                AggregateCall.Accumulator node = call.newAccumulator();
                part.forEach(v -> node.add(new Object[] {v}));
                Object[] state = new Object[AggregateCall.PARTIAL_WIDTH];
                node.partial(state, 0);
                merged.merge(state, 0);
            }
            double mean = values.stream().mapToDouble(BigDecimal::doubleValue).average().orElseThrow();
            double squares = values.stream().mapToDouble(v -> Math.pow(v.doubleValue() - mean, 2)).sum();
            double expected = switch (kind) {
                case VAR_POP -> squares / 7;
                case VAR_SAMP -> squares / 6;
                case STDDEV_POP -> Math.sqrt(squares / 7);
                default -> Math.sqrt(squares / 6);
            };
            assertEquals(expected, (Double) whole.result(), 1e-12, kind.name());
            assertEquals(expected, (Double) merged.result(), 1e-12, kind.name());
        }
    }

    @Test
    void oneValueIsNoSampleAndNoValueNoVariance() {
        AggregateCall.Accumulator samp = call(AggregateCall.Kind.STDDEV_SAMP).newAccumulator();
        AggregateCall.Accumulator pop = call(AggregateCall.Kind.VAR_POP).newAccumulator();
        assertNull(samp.result());
        assertNull(pop.result());
        samp.add(new Object[] {new BigDecimal("5.00")});
        pop.add(new Object[] {new BigDecimal("5.00")});
        assertNull(samp.result());
        assertEquals(0.0, pop.result());
    }
}
