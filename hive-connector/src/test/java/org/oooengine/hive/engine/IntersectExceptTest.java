package org.oooengine.hive.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.trino.tpch.TpchTable;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.oooengine.core.sql.SqlException;
import org.oooengine.hive.sql.Cancellation;
import org.oooengine.hive.sql.SqlSession;

/**
 * INTERSECT and EXCEPT (Hive's MINUS too), DISTINCT and ALL, over TPC-H on two nodes against
 * DuckDB: rows repeated on each side, NULLs (which meet NULLs), columns of different types
 * brought to a common one, chains with UNION, ORDER BY and LIMIT after them, and sides that
 * spill.
 */
class IntersectExceptTest {
    @RegisterExtension
    static final SqlCluster cluster = SqlCluster.of("ooo-intersect-except", 2,
            TpchTable.NATION, TpchTable.CUSTOMER, TpchTable.ORDERS, TpchTable.LINE_ITEM);

    @ParameterizedTest
    @ValueSource(strings = {
        "SELECT o_custkey FROM orders INTERSECT SELECT c_custkey FROM customer WHERE c_mktsegment = 'BUILDING'",
        "SELECT o_custkey FROM orders INTERSECT DISTINCT SELECT c_custkey FROM customer WHERE c_acctbal > 5000",
        "SELECT c_custkey FROM customer EXCEPT SELECT o_custkey FROM orders",
        "SELECT c_custkey FROM customer EXCEPT DISTINCT SELECT o_custkey FROM orders WHERE o_orderdate < DATE '1995-01-01'",
        // ALL: each row as often as both sides have it (INTERSECT), or as often more as the left has it (EXCEPT)
        "SELECT l_suppkey, l_returnflag FROM lineitem WHERE l_orderkey < 3000 "
            + "INTERSECT ALL SELECT l_suppkey, l_returnflag FROM lineitem WHERE l_shipmode = 'AIR'",
        "SELECT l_suppkey, l_returnflag FROM lineitem WHERE l_orderkey < 30000 "
            + "EXCEPT ALL SELECT l_suppkey, l_returnflag FROM lineitem WHERE l_shipmode IN ('AIR', 'RAIL')",
        "SELECT o_orderpriority, o_orderstatus FROM orders EXCEPT ALL SELECT o_orderpriority, o_orderstatus FROM orders "
            + "WHERE o_totalprice > 100000",
        // NULLs meet NULLs
        "SELECT CASE WHEN n_nationkey % 3 = 0 THEN NULL ELSE n_regionkey END, n_nationkey % 2 FROM nation "
            + "INTERSECT SELECT CASE WHEN n_nationkey % 4 = 0 THEN NULL ELSE n_regionkey END, n_nationkey % 2 FROM nation",
        "SELECT CASE WHEN n_nationkey % 3 = 0 THEN NULL ELSE n_regionkey END FROM nation "
            + "INTERSECT ALL SELECT CASE WHEN n_nationkey % 4 = 0 THEN NULL ELSE n_regionkey END FROM nation",
        "SELECT CASE WHEN n_nationkey % 3 = 0 THEN NULL ELSE n_regionkey END FROM nation "
            + "EXCEPT ALL SELECT CASE WHEN n_nationkey % 4 = 0 THEN NULL ELSE n_regionkey END FROM nation",
        "SELECT CASE WHEN n_nationkey % 3 = 0 THEN NULL ELSE n_name END FROM nation "
            + "EXCEPT SELECT CASE WHEN n_nationkey < 10 THEN n_name END FROM nation",
        // columns of different types: the common type
        "SELECT n_nationkey FROM nation INTERSECT SELECT o_custkey FROM orders",
        "SELECT l_quantity FROM lineitem WHERE l_orderkey < 100 INTERSECT SELECT CAST(n_nationkey AS DOUBLE) FROM nation",
        "SELECT l_linenumber FROM lineitem EXCEPT SELECT n_regionkey + 0.0 FROM nation",
        // chains: INTERSECT before UNION and EXCEPT, otherwise from the left
        "SELECT n_regionkey FROM nation INTERSECT SELECT n_nationkey FROM nation UNION ALL SELECT 7",
        "SELECT n_regionkey FROM nation UNION SELECT n_nationkey FROM nation EXCEPT SELECT n_nationkey FROM nation WHERE n_nationkey > 3",
        "SELECT n_nationkey FROM nation EXCEPT SELECT n_regionkey FROM nation EXCEPT ALL SELECT 20",
        "SELECT n_nationkey FROM nation INTERSECT SELECT n_nationkey FROM nation WHERE n_nationkey > 5 "
            + "INTERSECT ALL SELECT n_regionkey * 3 FROM nation",
        // chains of one operation, each one GROUP BY over all operands: NULLs, repeats, ALL's counts
        "SELECT o_orderpriority, o_orderstatus FROM orders INTERSECT SELECT o_orderpriority, o_orderstatus FROM orders "
            + "WHERE o_totalprice > 200000 INTERSECT SELECT o_orderpriority, o_orderstatus FROM orders WHERE o_orderstatus <> 'P'",
        "SELECT CASE WHEN l_linenumber > 5 THEN NULL ELSE l_linenumber END FROM lineitem WHERE l_orderkey < 200 "
            + "INTERSECT ALL SELECT CASE WHEN l_linenumber > 5 THEN NULL ELSE l_linenumber END FROM lineitem WHERE l_orderkey < 100 "
            + "INTERSECT ALL SELECT CASE WHEN l_linenumber > 6 THEN NULL ELSE l_linenumber END FROM lineitem WHERE l_orderkey < 150",
        "SELECT l_linenumber FROM lineitem WHERE l_orderkey < 300 EXCEPT ALL SELECT l_linenumber FROM lineitem "
            + "WHERE l_orderkey < 100 EXCEPT ALL SELECT l_linenumber FROM lineitem WHERE l_orderkey BETWEEN 150 AND 180",
        "SELECT c_nationkey FROM customer EXCEPT SELECT n_nationkey FROM nation WHERE n_regionkey = 1 "
            + "EXCEPT SELECT n_nationkey FROM nation WHERE n_regionkey = 3 EXCEPT SELECT 7",
        // an EXCEPT on the right is no chain: a EXCEPT (b EXCEPT c) keeps what c takes from b
        "SELECT n_nationkey FROM nation EXCEPT (SELECT n_nationkey FROM nation WHERE n_nationkey < 10 "
            + "EXCEPT SELECT n_nationkey FROM nation WHERE n_nationkey < 5)",
        "SELECT n_regionkey FROM nation EXCEPT ALL SELECT n_regionkey FROM nation WHERE n_nationkey < 12 "
            + "INTERSECT ALL SELECT n_regionkey FROM nation WHERE n_nationkey > 2",
        // TPC-DS's shapes: INTERSECT in an IN subquery (Q8, Q14), counted over distinct rows (Q38), EXCEPT (Q87)
        "SELECT count(*), sum(o_totalprice) FROM orders WHERE o_custkey IN "
            + "(SELECT c_custkey FROM customer WHERE c_mktsegment = 'BUILDING' INTERSECT SELECT c_custkey FROM customer WHERE c_nationkey < 10)",
        "SELECT count(*) FROM (SELECT DISTINCT c_name, o_orderdate FROM customer JOIN orders ON c_custkey = o_custkey "
            + "WHERE o_orderpriority = '1-URGENT' INTERSECT SELECT DISTINCT c_name, o_orderdate FROM customer JOIN orders "
            + "ON c_custkey = o_custkey WHERE o_totalprice > 1000) hot",
        "SELECT count(*) FROM (SELECT DISTINCT c_name, o_orderdate FROM customer JOIN orders ON c_custkey = o_custkey "
            + "EXCEPT SELECT DISTINCT c_name, o_orderdate FROM customer JOIN orders ON c_custkey = o_custkey "
            + "WHERE o_orderstatus = 'F') cool",
        // as a derived table, and an empty side
        "SELECT count(*), sum(k) FROM (SELECT o_custkey AS k FROM orders INTERSECT SELECT c_custkey FROM customer) t",
        "SELECT n_name FROM nation EXCEPT SELECT n_name FROM nation WHERE n_nationkey < 0",
        "SELECT n_name FROM nation INTERSECT SELECT n_name FROM nation WHERE n_nationkey < 0"})
    void matchesDuckDb(String sql) throws Exception {
        assertNull(OracleComparison.difference(cluster.run(sql, Map.of()), cluster.oracle().rows(sql), false), sql);
    }

    /** Q14's three channels' items: each node counts its rows of every operand; only groups are gathered. */
    @Test
    void aChainOfIntersectsIsCountedOnTheNodesOnce() throws Exception {
        String sql = "SELECT l_suppkey FROM lineitem WHERE l_shipmode = 'AIR' INTERSECT SELECT l_suppkey FROM lineitem "
                + "WHERE l_shipmode = 'RAIL' INTERSECT SELECT o_custkey FROM orders WHERE o_orderpriority = '1-URGENT'";
        matchesDuckDb(sql);
        List<String> plan = cluster.run("EXPLAIN " + sql, Map.of()).stream().map(r -> (String) r[0]).toList();
        assertEquals(3, plan.stream().filter(l -> l.contains("Gather partial aggregates")).count(), String.join("\n", plan));
        assertEquals(1, plan.stream().filter(l -> l.contains("FinalAggregate")).count(), String.join("\n", plan));
        assertTrue(plan.stream().noneMatch(l -> l.contains("Gather [")), String.join("\n", plan));
    }

    @Test
    void minusIsExceptAndOrderByAndLimitApplyToTheResult() throws Exception {
        String minus = "SELECT c_nationkey FROM customer MINUS SELECT n_nationkey FROM nation WHERE n_regionkey = 1 "
                + "ORDER BY c_nationkey DESC LIMIT 5";
        String except = minus.replace("MINUS", "EXCEPT");
        List<Object[]> ours = cluster.run(minus, Map.of());
        assertEquals(5, ours.size());
        assertNull(OracleComparison.difference(ours, cluster.oracle().rows(except), true));
    }

    @Test
    void theColumnsAreNamedByTheLeftSide() {
        try (SqlSession s = cluster.session()) {
            var result = s.execute("SELECT n_nationkey AS k, n_name FROM nation INTERSECT SELECT c_nationkey, c_name FROM customer",
                    new Cancellation());
            assertEquals(List.of("k", "n_name"), result.columns().stream().map(c -> c.name()).toList());
        }
    }

    /** With little memory the groups of both sides' rows spill, and the rows are the same. */
    @Test
    void sidesThatSpillGiveTheSameRows() throws Exception {
        String sql = "SELECT l_orderkey, l_partkey FROM lineitem INTERSECT ALL SELECT l_orderkey, l_partkey FROM lineitem "
                + "WHERE l_quantity > 20";
        long spilledBefore = org.oooengine.core.fragment.QueryMemory.spilledInProcess();
        Map<String, String> small = Map.of("ooo.query.max-memory-per-node", "100000", "ooo.query.max-memory", "100000");
        assertNull(OracleComparison.difference(cluster.run(sql, small), cluster.oracle().rows(sql), false));
        assertTrue(org.oooengine.core.fragment.QueryMemory.spilledInProcess() > spilledBefore, "the groups spilled");
    }

    @Test
    void sidesOfDifferentWidthsAreAnError() {
        SqlException e = assertThrows(SqlException.class,
                () -> cluster.run("SELECT n_name, n_nationkey FROM nation INTERSECT SELECT n_name FROM nation", Map.of()));
        assertEquals(SqlException.SYNTAX, e.sqlState());
        assertTrue(e.getMessage().startsWith("the branches of an INTERSECT have 2 and 1 columns"), e.getMessage());
    }
}
