package org.oooengine.hive.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.trino.tpch.TpchTable;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Variances and standard deviations on two nodes against DuckDB: each node aggregates its
 * partition and the partial states are merged, grouped and not, over DECIMAL, DOUBLE and INT
 * columns, with NULLs, single-row groups (a sample's NULL), no rows, DISTINCT, and groups that
 * spill to disk. Hive's variance, stddev and std are the population ones (DuckDB's are the sample
 * ones), so DuckDB is asked for var_pop and stddev_pop by name.
 */
class VarianceAggregatesTest {
    @RegisterExtension
    static final SqlCluster cluster = SqlCluster.of("ooo-variance", 2, TpchTable.ORDERS, TpchTable.LINE_ITEM);

    @ParameterizedTest
    @ValueSource(strings = {
        "SELECT stddev_samp(l_quantity), var_samp(l_quantity), stddev_samp(l_extendedprice), var_samp(l_extendedprice), "
                + "stddev_pop(l_extendedprice), var_pop(l_quantity) FROM lineitem",
        "SELECT l_returnflag, l_linestatus, stddev_samp(l_quantity), var_samp(l_extendedprice), stddev_pop(l_quantity), "
                + "var_pop(l_extendedprice), count(*) FROM lineitem GROUP BY l_returnflag, l_linestatus",
        "SELECT l_orderkey, count(*), stddev_samp(l_quantity), var_samp(l_extendedprice), stddev_pop(l_extendedprice), "
                + "var_pop(l_quantity) FROM lineitem WHERE l_orderkey < 6000 GROUP BY l_orderkey",
        "SELECT l_linenumber, stddev_samp(CASE WHEN l_orderkey % 5 = 0 THEN NULL ELSE l_quantity END), "
                + "var_samp(CASE WHEN l_linenumber > 5 THEN NULL ELSE l_extendedprice END), "
                + "var_pop(CASE WHEN l_linenumber > 5 THEN NULL ELSE l_extendedprice END) FROM lineitem GROUP BY l_linenumber",
        "SELECT o_orderpriority, stddev_samp(o_totalprice), var_samp(CAST(o_totalprice AS DOUBLE)), stddev_pop(o_custkey), "
                + "var_samp(o_shippriority) FROM orders GROUP BY o_orderpriority",
        "SELECT stddev_samp(l_quantity), var_pop(l_quantity), count(*) FROM lineitem WHERE l_orderkey < 0",
        "SELECT l_returnflag, var_samp(DISTINCT l_quantity), stddev_pop(DISTINCT l_discount) FROM lineitem GROUP BY l_returnflag",
        "SELECT l_shipmode, count(*), stddev_samp(l_quantity) * 2 + 1 FROM lineitem GROUP BY l_shipmode "
                + "HAVING var_samp(l_quantity) > 0"})
    void matchesDuckDb(String sql) throws Exception {
        assertNull(OracleComparison.difference(cluster.run(sql, Map.of()), cluster.oracle().rows(sql), false), sql);
    }

    @Test
    void hivesVarianceStddevAndStdAreThePopulationOnes() throws Exception {
        String ours = "SELECT l_returnflag, variance(l_quantity), stddev(l_extendedprice), std(l_discount) FROM lineitem "
                + "GROUP BY l_returnflag";
        String duckDb = "SELECT l_returnflag, var_pop(l_quantity), stddev_pop(l_extendedprice), stddev_pop(l_discount) "
                + "FROM lineitem GROUP BY l_returnflag";
        assertNull(OracleComparison.difference(cluster.run(ours, Map.of()), cluster.oracle().rows(duckDb), false));
    }

    @Test
    void aGroupOfOneRowHasNoSampleVariance() {
        List<Object[]> rows = cluster.run("SELECT l_orderkey, count(*), var_samp(l_quantity), stddev_samp(l_quantity), "
                + "var_pop(l_quantity) FROM lineitem WHERE l_orderkey < 6000 GROUP BY l_orderkey HAVING count(*) = 1", Map.of());
        assertTrue(!rows.isEmpty(), "orders of one line item");
        for (Object[] r : rows) {
            assertNull(r[2]);
            assertNull(r[3]);
            assertEquals(0.0, r[4]);
        }
    }

    /** Past a small memory, the groups' partial states go to disk and come back: the same rows. */
    @Test
    void groupsThatSpillGiveTheSameRows() throws Exception {
        String sql = "SELECT l_orderkey, var_samp(l_extendedprice), stddev_pop(l_quantity), sum(l_quantity) FROM lineitem "
                + "GROUP BY l_orderkey";
        Map<String, String> small = Map.of("ooo.query.max-memory-per-node", "512k", "ooo.query.max-memory", "512k");
        assertNull(OracleComparison.difference(cluster.run(sql, small), cluster.oracle().rows(sql), false));
        String explained = String.join("\n", cluster.run("EXPLAIN ANALYZE " + sql, small).stream().map(r -> (String) r[0]).toList());
        assertTrue(explained.contains("spilled"), explained);
    }
}
