package org.oooengine.hive.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.trino.tpch.TpchTable;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A WITH query or subquery that occurs twice alike is computed once, its rows replayed for the
 * second use (the nodes read lineitem once, as EXPLAIN ANALYZE counts), and the answers are
 * DuckDB's.
 */
class ComputedOnceTest {
    @RegisterExtension
    static final SqlCluster cluster = SqlCluster.of("ooo-computed-once", 2, TpchTable.ORDERS, TpchTable.LINE_ITEM);

    @ParameterizedTest
    @ValueSource(strings = {
        // a WITH query joined with itself
        "WITH t AS (SELECT l_suppkey, sum(l_quantity) q FROM lineitem GROUP BY l_suppkey) "
                + "SELECT count(*), sum(a.q) FROM t a JOIN t b ON a.l_suppkey = b.l_suppkey + 1 AND a.q > b.q",
        // the same scalar subquery in both inputs of a UNION ALL
        "SELECT 'big', count(*) FROM orders WHERE o_totalprice > (SELECT 30 * avg(l_extendedprice) FROM lineitem) "
                + "UNION ALL SELECT 'small', count(*) FROM orders WHERE o_totalprice < (SELECT 30 * avg(l_extendedprice) FROM lineitem)",
        // the same IN subquery in both inputs of a UNION ALL
        "SELECT o_orderpriority, count(*) FROM orders WHERE o_custkey IN (SELECT l_suppkey FROM lineitem "
                + "GROUP BY l_suppkey HAVING sum(l_quantity) > 15300) GROUP BY o_orderpriority "
                + "UNION ALL SELECT 'all', count(*) FROM orders WHERE o_custkey IN (SELECT l_suppkey FROM lineitem "
                + "GROUP BY l_suppkey HAVING sum(l_quantity) > 15300)"})
    void theNodesReadLineitemOnceAndTheAnswerIsDuckDbs(String sql) throws Exception {
        assertNull(OracleComparison.difference(cluster.run(sql), cluster.oracle().rows(sql), false), sql);
        String plan = String.join("\n", cluster.run("EXPLAIN ANALYZE " + sql).stream().map(r -> String.valueOf(r[0])).toList());
        assertEquals(1, plan.split("nodes read 60,175 rows", -1).length - 1, plan);
    }
}
