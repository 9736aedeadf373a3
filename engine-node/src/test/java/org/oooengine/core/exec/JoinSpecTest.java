package org.oooengine.core.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.oooengine.core.cluster.JoinSpecCodec;
import org.oooengine.core.tpch.JoinQueries;

/** Aliases let a table be joined twice; a spec that reuses an alias or joins on one not joined yet is refused. */
class JoinSpecTest {
    private static final ColumnRange RANGE = new ColumnRange("c_acctbal", 0L, 100_00L);

    private static JoinSpec q8() {
        JoinQueries.Shape q8 = JoinQueries.Q8;
        return new JoinSpec(q8.outer(), new ColumnRange(q8.rangeColumn(), 1000_00L, 1100_00L), q8.probes(), q8.output());
    }

    private static JoinSpec customersOfANation(JoinSpec.Probe second) {
        return new JoinSpec("customer", "c1", RANGE, List.of(
                new JoinSpec.Probe("c1.c_nationkey", "nation", "n_nationkey"), second), List.of("c1.c_name", "nation.n_name"));
    }

    @Test
    void aliasesNameTheTablesAndTablesMayRepeat() {
        JoinSpec spec = q8();
        assertEquals(List.of("part", "lineitem", "orders", "customer", "n1", "region", "supplier", "n2"), spec.aliases());
        assertEquals(List.of("part", "lineitem", "orders", "customer", "nation", "region", "supplier", "nation"),
                spec.tables());
        assertEquals("nation", spec.tableOf("n2"));
        assertEquals("n1", spec.probes().get(4).fromAlias());

        JoinSpec selfJoin = customersOfANation(new JoinSpec.Probe("nation.n_nationkey", "customer", "c_nationkey", "c2"));
        assertEquals(List.of("c1", "nation", "c2"), selfJoin.aliases());
        assertEquals(List.of("customer", "nation", "customer"), selfJoin.tables());
    }

    @Test
    void aDuplicateAliasIsRefusedByName() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> customersOfANation(new JoinSpec.Probe("c1.c_nationkey", "nation", "n_nationkey")));
        assertTrue(e.getMessage().contains("alias nation is joined twice"), e.getMessage());

        e = assertThrows(IllegalArgumentException.class,
                () -> customersOfANation(new JoinSpec.Probe("nation.n_nationkey", "customer", "c_nationkey", "c1")));
        assertTrue(e.getMessage().contains("alias c1 is joined twice"), e.getMessage());
    }

    @Test
    void joiningOnAnAliasNotJoinedBeforeIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> customersOfANation(new JoinSpec.Probe("n2.n_regionkey", "region", "r_regionkey")));
        assertTrue(e.getMessage().contains("'n2.n_regionkey'"), e.getMessage());
        assertTrue(e.getMessage().contains("[c1, nation]"), e.getMessage());

        // The outer table is known by its alias only.
        e = assertThrows(IllegalArgumentException.class, () -> customersOfANation(
                new JoinSpec.Probe("customer.c_custkey", "orders", "o_custkey")));
        assertTrue(e.getMessage().contains("'customer.c_custkey'"), e.getMessage());
    }

    @Test
    void aliasesTravelThroughTheCodec() {
        JoinSpec spec = customersOfANation(new JoinSpec.Probe("nation.n_nationkey", "customer", "c_nationkey", "c2"));
        assertEquals(spec, JoinSpecCodec.fromBase64(JoinSpecCodec.toBase64(spec)));
        JoinSpec q8 = q8();
        assertEquals(q8, JoinSpecCodec.fromBase64(JoinSpecCodec.toBase64(q8)));

        byte[] bytes = Base64.getDecoder().decode(JoinSpecCodec.toBase64(q8));
        String truncated = Base64.getEncoder().encodeToString(Arrays.copyOf(bytes, bytes.length / 2));
        assertThrows(IllegalArgumentException.class, () -> JoinSpecCodec.fromBase64(truncated));
    }
}
