package org.oooengine.hive.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.trino.tpch.TpchTable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A WITH query or subquery that occurs twice alike is computed once, its rows replayed for the
 * second use (the nodes read lineitem once, as EXPLAIN ANALYZE counts), and the answers are
 * DuckDB's; so are the uses of one filtered apart, under the OR of their filters. EXPLAIN prints
 * such a subplan once, and where its rows are replayed.
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
                + "GROUP BY l_suppkey HAVING sum(l_quantity) > 15300)",
        // uses of a WITH query filtered apart: computed once under the OR of their filters
        "WITH t AS (SELECT l_suppkey, l_returnflag, sum(l_quantity) q FROM lineitem GROUP BY l_suppkey, l_returnflag) "
                + "SELECT count(*), sum(a.q) FROM t a JOIN t b ON a.l_suppkey = b.l_suppkey "
                + "WHERE a.l_returnflag = 'R' AND b.l_returnflag = 'A' AND a.q > b.q"})
    void theNodesReadLineitemOnceAndTheAnswerIsDuckDbs(String sql) throws Exception {
        assertNull(OracleComparison.difference(cluster.run(sql), cluster.oracle().rows(sql), false), sql);
        String plan = String.join("\n", cluster.run("EXPLAIN ANALYZE " + sql).stream().map(r -> String.valueOf(r[0])).toList());
        assertEquals(1, plan.split("nodes read 60,175 rows", -1).length - 1, plan);
    }

    @Test
    void explainShowsASharedSubplanOnceAndWhereItsRowsAreReplayed() throws Exception {
        String sql = "WITH t AS (SELECT l_suppkey, l_linestatus, sum(l_quantity) q FROM lineitem GROUP BY l_suppkey, l_linestatus) "
                + "SELECT count(*) FROM t a JOIN t b ON a.l_suppkey = b.l_suppkey WHERE a.l_linestatus = 'O' AND b.l_linestatus = 'F'";
        assertNull(OracleComparison.difference(cluster.run(sql), cluster.oracle().rows(sql), false), sql);
        String plan = String.join("\n", cluster.run("EXPLAIN " + sql).stream().map(r -> String.valueOf(r[0])).toList());
        assertEquals(1, plan.split("Shared #1: computed once here, its rows replayed to each of its 2 uses", -1).length - 1, plan);
        assertEquals(1, plan.split("Shared #1 reused: its rows replayed from where it is computed", -1).length - 1, plan);
        assertEquals(1, plan.split("Scan default.lineitem", -1).length - 1, plan);
    }
}
