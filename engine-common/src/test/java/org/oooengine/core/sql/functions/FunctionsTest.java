package org.oooengine.core.sql.functions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import org.junit.jupiter.api.Test;
import org.oooengine.core.sql.expr.AggregateCall;

class FunctionsTest {
    @Test
    void namesAndSynonymsResolveInAnyCase() {
        assertEquals("upper", Functions.find("UCASE").orElseThrow().name());
        assertEquals("power", Functions.find("pow").orElseThrow().name());
        assertTrue(Functions.find("initcap").isEmpty());
        assertTrue(Functions.names().containsAll(Set.of("upper", "ucase", "stddev", "std", "variance")));
    }

    @Test
    void hivesAggregateSynonymsAreThePopulationOnes() {
        assertEquals(AggregateCall.Kind.STDDEV_POP, Functions.find("stddev").orElseThrow().aggregate());
        assertEquals(AggregateCall.Kind.STDDEV_POP, Functions.find("std").orElseThrow().aggregate());
        assertEquals(AggregateCall.Kind.VAR_POP, Functions.find("variance").orElseThrow().aggregate());
        assertEquals(Set.of("approx_count_distinct", "avg", "collect_list", "collect_set", "count", "max", "min", "std", "stddev", "stddev_pop", "stddev_samp", "sum", "var_pop",
                "var_samp", "variance", "ndv"), Functions.aggregateNames());
    }

    @Test
    void arityIsCheckedAndSaidInWords() {
        FunctionInfo locate = Functions.find("locate").orElseThrow();
        assertTrue(locate.accepts(2) && locate.accepts(3));
        assertFalse(locate.accepts(1));
        assertEquals("2 or 3", locate.arity());
        assertEquals("2 or more", Functions.find("concat_ws").orElseThrow().arity());
    }
}
