package org.oooengine.hive.engine;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.trino.tpch.TpchTable;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * IN and EXISTS of a few orders over subqueries that read all of lineitem — a self-join on the
 * order (TPC-DS Q95's orders shipped from two warehouses), a union grouped by the order, a left
 * join and a NOT IN inside — return DuckDB's rows when the subqueries' tables are first reduced
 * to the orders kept, with and without broadcasts.
 */
class SemiJoinReductionQueriesTest {
    private static final String TWO_SUPPLIERS = "SELECT l1.l_orderkey FROM lineitem l1, lineitem l2 "
            + "WHERE l1.l_orderkey = l2.l_orderkey AND l1.l_suppkey <> l2.l_suppkey";

    /** A few orders none of whose late lines another party than the customer's number supplied: NOT EXISTS, a residual. */
    private static final String LATE_ALONE = "SELECT count(*), sum(o_totalprice) FROM orders WHERE o_custkey < 20 "
            + "AND NOT EXISTS (SELECT * FROM lineitem WHERE l_orderkey = o_orderkey AND l_receiptdate > l_commitdate "
            + "AND l_suppkey <> o_custkey)";

    @RegisterExtension
    static final SqlCluster cluster = SqlCluster.of("ooo-semi-reduction", 2,
            TpchTable.ORDERS, TpchTable.LINE_ITEM, TpchTable.PART_SUPPLIER);

    static Stream<Arguments> queries() {
        List<String> sql = List.of(
                "SELECT count(*), sum(o_totalprice) FROM orders WHERE o_custkey < 20 AND o_orderkey IN (" + TWO_SUPPLIERS + ")",
                "SELECT count(*), sum(o_totalprice) FROM orders WHERE o_custkey < 20 AND o_orderkey IN (" + TWO_SUPPLIERS + ") "
                        + "AND o_orderkey IN (SELECT r.l_orderkey FROM lineitem r, (" + TWO_SUPPLIERS + ") w "
                        + "WHERE r.l_orderkey = w.l_orderkey AND r.l_returnflag = 'R')",
                "SELECT o_orderkey FROM orders WHERE o_custkey < 20 AND EXISTS (SELECT 1 FROM lineitem l1, lineitem l2 "
                        + "WHERE l1.l_orderkey = o_orderkey AND l2.l_orderkey = l1.l_orderkey AND l1.l_linenumber < l2.l_linenumber "
                        + "AND l1.l_quantity > l2.l_quantity + 40)",
                "SELECT o_orderkey, o_orderstatus FROM orders WHERE o_custkey < 30 AND o_orderkey IN (SELECT k FROM "
                        + "(SELECT l_orderkey k FROM lineitem WHERE l_quantity > 45 UNION ALL "
                        + "SELECT o_orderkey FROM orders WHERE o_orderpriority = '1-URGENT') u GROUP BY k HAVING count(*) > 1)",
                LATE_ALONE,
                // NOT IN keeps its NULL keys: its other side is not reduced
                "SELECT count(*) FROM orders WHERE o_custkey < 20 AND o_orderkey NOT IN (SELECT l_orderkey FROM lineitem "
                        + "WHERE l_quantity > 45)",
                "SELECT count(*) FROM orders WHERE o_custkey < 20 AND o_orderkey IN (SELECT l_orderkey FROM lineitem "
                        + "LEFT JOIN partsupp ON l_partkey = ps_partkey AND l_suppkey = ps_suppkey AND ps_availqty < 1000 "
                        + "WHERE ps_partkey IS NULL AND l_orderkey NOT IN (SELECT l_orderkey FROM lineitem WHERE l_shipmode = 'AIR'))");
        List<Map<String, String>> settings = List.of(Map.of(), Map.of("ooo.join.broadcast-max-bytes", "0"));
        return sql.stream().flatMap(q -> settings.stream().map(s -> Arguments.of(q, s)));
    }

    @ParameterizedTest
    @MethodSource("queries")
    void matchesDuckDb(String sql, Map<String, String> settings) throws Exception {
        assertNull(OracleComparison.difference(cluster.run(sql, settings), cluster.oracle().rows(sql), false), sql);
    }

    @Test
    void theSelfJoinReadsOnlyTheOrdersKept() {
        String plan = cluster.run("EXPLAIN SELECT count(*) FROM orders WHERE o_custkey < 20 AND o_orderkey IN (" + TWO_SUPPLIERS + ")",
                Map.of()).stream().map(r -> String.valueOf(r[0])).collect(Collectors.joining("\n"));
        // the IN itself, and each side of the self-join semi-joined with the orders kept
        assertTrue(plan.split("SEMI", -1).length - 1 >= 3, plan);
    }

    @Test
    void theNotExistsSideReadsOnlyTheOrdersKept() {
        String plan = cluster.run("EXPLAIN " + LATE_ALONE, Map.of()).stream().map(r -> String.valueOf(r[0]))
                .collect(Collectors.joining("\n"));
        // lineitem, before the anti join holds it, semi-joined with the few orders' keys
        assertTrue(plan.matches("(?s).*HashJoin ANTI .*HashJoin SEMI \\[l_orderkey = o_orderkey\\].*"), plan);
    }
}
