package org.oooengine.hive.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.trino.tpch.TpchTable;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * IN lists, looked up in a hash set when their items are constants, return DuckDB's rows: numeric
 * types mixed both ways, strings, dates, NULL items and NULL values, NOT IN, items that are not
 * constants, and a list of 10,000 items.
 */
class InListTest {
    @RegisterExtension
    static final SqlCluster cluster = SqlCluster.of("ooo-in-list", 2,
            TpchTable.NATION, TpchTable.ORDERS, TpchTable.LINE_ITEM);

    @ParameterizedTest
    @ValueSource(strings = {
        "SELECT count(*) FROM lineitem WHERE l_orderkey IN (1, 2, 3, 7, 32, 33, 99999999)",
        "SELECT count(*) FROM lineitem WHERE l_linenumber IN (1.0, 2.5, 3.00)",
        "SELECT count(*) FROM lineitem WHERE l_quantity IN (1, 2, 17, 36)",
        "SELECT count(*) FROM lineitem WHERE l_quantity IN (1.50, 17.0, 36)",
        "SELECT count(*) FROM lineitem WHERE l_quantity NOT IN (1, 2, 17, 36)",
        "SELECT n_name FROM nation WHERE n_name IN ('FRANCE', 'GERMANY', 'france', 'nowhere')",
        "SELECT n_name FROM nation WHERE n_name NOT IN ('FRANCE', 'GERMANY')",
        "SELECT count(*) FROM orders WHERE o_orderdate IN (DATE '1996-01-02', DATE '1995-12-01', DATE '1992-01-01')",
        "SELECT n_nationkey, n_nationkey IN (1, 2, NULL) FROM nation",
        "SELECT n_nationkey, n_nationkey NOT IN (1, 2, NULL) FROM nation",
        "SELECT n_name FROM nation WHERE n_nationkey NOT IN (1, NULL)",
        "SELECT n_nationkey, CASE WHEN n_nationkey > 20 THEN NULL ELSE n_nationkey END IN (1, 22, 24) FROM nation",
        "SELECT n_nationkey, n_nationkey IN (n_regionkey, 3) FROM nation",
        "SELECT n_nationkey, n_nationkey NOT IN (n_regionkey, NULL, 3) FROM nation"})
    void matchesDuckDb(String sql) throws Exception {
        assertNull(OracleComparison.difference(cluster.run(sql), cluster.oracle().rows(sql), false), sql);
    }

    @Test
    void tenThousandItemsSelectWhatTheirRangeSelects() throws Exception {
        String items = IntStream.rangeClosed(1, 10_000).mapToObj(Integer::toString).collect(Collectors.joining(", "));
        String in = "SELECT count(*), sum(l_quantity) FROM lineitem WHERE l_orderkey IN (" + items + ")";
        String between = "SELECT count(*), sum(l_quantity) FROM lineitem WHERE l_orderkey BETWEEN 1 AND 10000";
        List<Object[]> ours = cluster.run(in);
        assertNull(OracleComparison.difference(cluster.run(between), ours, false));
        assertNull(OracleComparison.difference(ours, cluster.oracle().rows(between), false));
        assertTrue(((Number) ours.get(0)[0]).longValue() > 0);
        assertEquals(1, ours.size());
    }
}
