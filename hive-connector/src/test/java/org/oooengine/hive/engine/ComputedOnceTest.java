package org.oooengine.hive.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.trino.tpch.TpchTable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.oooengine.core.cluster.TpchCluster;
import org.oooengine.hive.sql.Cancellation;
import org.oooengine.hive.sql.SqlSession;

/**
 * A WITH query or subquery that occurs twice alike is computed once, its rows replayed for the
 * second use (the nodes read lineitem once, as EXPLAIN ANALYZE counts), and the answers are
 * DuckDB's.
 */
class ComputedOnceTest {
    private static TpchCluster tpch;
    private static ClusterSqlEngine engine;

    @BeforeAll
    static void start() throws Exception {
        tpch = new TpchCluster("ooo-computed-once", 2, 0.01, List.of(TpchTable.ORDERS, TpchTable.LINE_ITEM));
        engine = new ClusterSqlEngine(tpch.session);
    }

    @AfterAll
    static void stop() throws Exception {
        if (tpch != null) {
            tpch.close();
        }
    }

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
        assertNull(OracleComparison.difference(run(sql), tpch.oracle.rows(sql), false), sql);
        String plan = String.join("\n", run("EXPLAIN ANALYZE " + sql).stream().map(r -> String.valueOf(r[0])).toList());
        assertEquals(1, plan.split("nodes read 60,175 rows", -1).length - 1, plan);
    }

    private static List<Object[]> run(String sql) {
        try (SqlSession s = engine.openSession("test", "default", Map.of())) {
            List<Object[]> rows = new ArrayList<>();
            s.execute(sql, new Cancellation()).rows().forEachRemaining(rows::add);
            return rows;
        }
    }
}
