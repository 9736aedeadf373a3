package org.oooengine.hive.engine;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.trino.tpch.TpchTable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * LATERAL VIEW explode and posexplode over a node table return DuckDB's rows for the same
 * queries written with unnest (DuckDB's positions count from 1, Hive's from 0), and EXPLAIN names
 * the lateral view.
 */
class LateralViewTest {
    @RegisterExtension
    static final SqlCluster cluster = SqlCluster.of("ooo-lateral-view", 2, TpchTable.NATION, TpchTable.ORDERS);

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "SELECT n_name, w FROM nation LATERAL VIEW explode(split(n_comment, ' ')) t AS w"
                + "|SELECT n_name, unnest(string_split(n_comment, ' ')) FROM nation",
        "SELECT w, count(*) FROM nation LATERAL VIEW explode(split(n_comment, ' ')) t AS w WHERE length(w) > 6 GROUP BY w"
                + "|SELECT w, count(*) FROM (SELECT unnest(string_split(n_comment, ' ')) AS w FROM nation) WHERE length(w) > 6 GROUP BY w",
        "SELECT o_orderpriority, p, x FROM orders LATERAL VIEW posexplode(split(o_orderpriority, '-')) t AS p, x WHERE o_orderkey < 100"
                + "|SELECT o_orderpriority, p - 1, x FROM orders, unnest(string_split(o_orderpriority, '-')) WITH ORDINALITY AS t(x, p) WHERE o_orderkey < 100",
        "SELECT o_orderstatus, sum(v) FROM orders LATERAL VIEW explode(array(o_custkey, o_shippriority)) t AS v GROUP BY o_orderstatus"
                + "|SELECT o_orderstatus, sum(v) FROM (SELECT o_orderstatus, unnest([o_custkey, o_shippriority]) AS v FROM orders) GROUP BY o_orderstatus",
        "SELECT o_orderstatus, size(collect_list(o_orderkey)), sort_array(collect_set(o_orderpriority))[1] FROM orders "
                + "WHERE o_orderkey < 1000 GROUP BY o_orderstatus"
                + "|SELECT o_orderstatus, len(list(o_orderkey)), list_sort(list(DISTINCT o_orderpriority))[2] FROM orders "
                + "WHERE o_orderkey < 1000 GROUP BY o_orderstatus",
        "SELECT explode(split(n_name, 'A')) AS part FROM nation"
                + "|SELECT unnest(string_split(n_name, 'A')) FROM nation"})
    void matchesDuckDbsUnnest(String ours, String duckDb) throws Exception {
        assertNull(OracleComparison.difference(cluster.run(ours), cluster.oracle().rows(duckDb), false), ours);
    }

    @Test
    void explainNamesTheLateralView() {
        String plan = String.join("\n", cluster.run("EXPLAIN SELECT n_name, w FROM nation LATERAL VIEW OUTER explode(split(n_comment, ' ')) "
                + "t AS w WHERE w = 'the'").stream().map(r -> String.valueOf(r[0])).toList());
        assertTrue(plan.contains("LateralView OUTER explode(split(n_comment, ' ')) AS [w]"), plan);
        assertFalse(plan.isEmpty());
    }
}
