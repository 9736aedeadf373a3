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
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.oooengine.core.sql.SqlException;

/**
 * ROLLUP, CUBE and GROUPING SETS in Hive's forms, with {@code grouping()} and {@code GROUPING__ID},
 * over TPC-H on two nodes against DuckDB: keys with NULLs, HAVING and ORDER BY on the grouping
 * functions, grouping sets of a join, DISTINCT aggregates, groups that spill. DuckDB writes the
 * same queries in the standard's form ({@code GROUP BY ROLLUP (a, b)}); where Hive's numbers are
 * Hive's own (its {@code GROUPING__ID}), they are asserted literally.
 */
class GroupingSetsTest {
    @RegisterExtension
    static final SqlCluster cluster = SqlCluster.of("ooo-grouping-sets", 2,
            TpchTable.NATION, TpchTable.REGION, TpchTable.CUSTOMER, TpchTable.ORDERS, TpchTable.LINE_ITEM);

    /** Ours in Hive's words, DuckDB's in the standard's: the same rows. */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        // WITH ROLLUP and ROLLUP(...) are one thing in Hive
        "SELECT l_returnflag, l_linestatus, count(*), sum(l_quantity) FROM lineitem GROUP BY l_returnflag, l_linestatus WITH ROLLUP"
            + "|SELECT l_returnflag, l_linestatus, count(*), sum(l_quantity) FROM lineitem GROUP BY ROLLUP (l_returnflag, l_linestatus)",
        "SELECT l_returnflag, l_linestatus, count(*), avg(l_discount) FROM lineitem GROUP BY ROLLUP (l_returnflag, l_linestatus)"
            + "|SELECT l_returnflag, l_linestatus, count(*), avg(l_discount) FROM lineitem GROUP BY ROLLUP (l_returnflag, l_linestatus)",
        "SELECT l_returnflag, l_linestatus, min(l_shipdate), max(l_extendedprice) FROM lineitem GROUP BY l_returnflag, l_linestatus WITH CUBE"
            + "|SELECT l_returnflag, l_linestatus, min(l_shipdate), max(l_extendedprice) FROM lineitem GROUP BY CUBE (l_returnflag, l_linestatus)",
        "SELECT l_returnflag, l_shipmode, count(*) FROM lineitem GROUP BY CUBE (l_returnflag, l_shipmode)"
            + "|SELECT l_returnflag, l_shipmode, count(*) FROM lineitem GROUP BY CUBE (l_returnflag, l_shipmode)",
        "SELECT l_returnflag, l_linestatus, count(*) FROM lineitem GROUP BY l_returnflag, l_linestatus GROUPING SETS ((l_returnflag, l_linestatus), (l_linestatus), ())"
            + "|SELECT l_returnflag, l_linestatus, count(*) FROM lineitem GROUP BY GROUPING SETS ((l_returnflag, l_linestatus), (l_linestatus), ())",
        // sets written without parentheses, and a set written twice is one set (as in Hive)
        "SELECT l_returnflag, l_linestatus, count(*) FROM lineitem GROUP BY l_returnflag, l_linestatus GROUPING SETS (l_returnflag, l_linestatus, l_returnflag)"
            + "|SELECT l_returnflag, l_linestatus, count(*) FROM lineitem GROUP BY GROUPING SETS ((l_returnflag), (l_linestatus))",
        // keys that are expressions, a key with many values, and the grouping functions
        "SELECT year(o_orderdate) AS y, o_orderpriority, grouping(o_orderpriority), count(*), sum(o_totalprice) FROM orders "
            + "GROUP BY year(o_orderdate), o_orderpriority WITH ROLLUP"
            + "|SELECT year(o_orderdate) AS y, o_orderpriority, grouping(o_orderpriority), count(*), sum(o_totalprice) FROM orders "
            + "GROUP BY ROLLUP (year(o_orderdate), o_orderpriority)",
        "SELECT o_custkey, count(*) FROM orders WHERE o_custkey < 200 GROUP BY ROLLUP (o_custkey)"
            + "|SELECT o_custkey, count(*) FROM orders WHERE o_custkey < 200 GROUP BY ROLLUP (o_custkey)",
        // the table's partition key in every set: each group whole on one node
        "SELECT o_orderkey, o_orderstatus, count(*) FROM orders WHERE o_orderkey < 1000 GROUP BY o_orderkey, o_orderstatus GROUPING SETS ((o_orderkey, o_orderstatus), (o_orderkey))"
            + "|SELECT o_orderkey, o_orderstatus, count(*) FROM orders WHERE o_orderkey < 1000 GROUP BY GROUPING SETS ((o_orderkey, o_orderstatus), (o_orderkey))",
        // NULLs among the keys' own values: grouping() tells them from the rolled-up rows
        "SELECT CASE WHEN l_linenumber > 5 THEN NULL ELSE l_linenumber END AS n, l_returnflag, grouping(l_returnflag), count(*) FROM lineitem "
            + "GROUP BY CASE WHEN l_linenumber > 5 THEN NULL ELSE l_linenumber END, l_returnflag WITH CUBE"
            + "|SELECT CASE WHEN l_linenumber > 5 THEN NULL ELSE l_linenumber END AS n, l_returnflag, grouping(l_returnflag), count(*) FROM lineitem "
            + "GROUP BY CUBE (CASE WHEN l_linenumber > 5 THEN NULL ELSE l_linenumber END, l_returnflag)",
        // HAVING on grouping(), a select item that is an expression of keys
        "SELECT n_regionkey, n_name, lower(n_name), count(*) FROM nation GROUP BY n_regionkey, n_name WITH ROLLUP HAVING grouping(n_name) = 1"
            + "|SELECT n_regionkey, n_name, lower(n_name), count(*) FROM nation GROUP BY ROLLUP (n_regionkey, n_name) HAVING grouping(n_name) = 1",
        // a join's rows, DISTINCT aggregates
        "SELECT r_name, n_name, count(DISTINCT c_mktsegment), count(*), sum(c_acctbal) FROM customer JOIN nation ON c_nationkey = n_nationkey "
            + "JOIN region ON n_regionkey = r_regionkey GROUP BY r_name, n_name WITH ROLLUP"
            + "|SELECT r_name, n_name, count(DISTINCT c_mktsegment), count(*), sum(c_acctbal) FROM customer JOIN nation ON c_nationkey = n_nationkey "
            + "JOIN region ON n_regionkey = r_regionkey GROUP BY ROLLUP (r_name, n_name)",
        // only DISTINCT aggregates: the distinct values of each set's groups first
        "SELECT l_returnflag, l_linestatus, count(DISTINCT l_suppkey) FROM lineitem GROUP BY l_returnflag, l_linestatus WITH ROLLUP"
            + "|SELECT l_returnflag, l_linestatus, count(DISTINCT l_suppkey) FROM lineitem GROUP BY ROLLUP (l_returnflag, l_linestatus)",
        // grouping sets of a derived table, the result joined again
        "SELECT x.f, x.c, n_name FROM (SELECT l_returnflag AS f, count(*) AS c FROM lineitem GROUP BY l_returnflag WITH ROLLUP) x "
            + "JOIN nation ON x.c % 25 = n_nationkey"
            + "|SELECT x.f, x.c, n_name FROM (SELECT l_returnflag AS f, count(*) AS c FROM lineitem GROUP BY ROLLUP (l_returnflag)) x "
            + "JOIN nation ON x.c % 25 = n_nationkey",
        // TPC-DS's shapes: a ROLLUP of a UNION ALL of channels (Q5, Q77, Q80), the grouping level as a column (Q36, Q70, Q86)
        "SELECT channel, id, sum(s), count(*) FROM (SELECT 'nation' AS channel, n_regionkey AS id, n_nationkey AS s FROM nation "
            + "UNION ALL SELECT 'region', r_regionkey, r_regionkey FROM region) x GROUP BY channel, id WITH ROLLUP"
            + "|SELECT channel, id, sum(s), count(*) FROM (SELECT 'nation' AS channel, n_regionkey AS id, n_nationkey AS s FROM nation "
            + "UNION ALL SELECT 'region', r_regionkey, r_regionkey FROM region) x GROUP BY ROLLUP (channel, id)",
        "SELECT grouping(c_mktsegment) + grouping(c_nationkey) AS lochierarchy, c_mktsegment, c_nationkey, sum(c_acctbal) FROM customer "
            + "GROUP BY c_mktsegment, c_nationkey WITH ROLLUP HAVING grouping(c_mktsegment) + grouping(c_nationkey) < 2"
            + "|SELECT grouping(c_mktsegment) + grouping(c_nationkey) AS lochierarchy, c_mktsegment, c_nationkey, sum(c_acctbal) FROM customer "
            + "GROUP BY ROLLUP (c_mktsegment, c_nationkey) HAVING grouping(c_mktsegment) + grouping(c_nationkey) < 2",
        // one set: no copies to make
        "SELECT n_regionkey, n_name, count(*) FROM nation GROUP BY n_regionkey, n_name GROUPING SETS ((n_regionkey))"
            + "|SELECT n_regionkey, NULL, count(*) FROM nation GROUP BY n_regionkey",
        "SELECT n_regionkey, count(*), sum(n_nationkey) FROM nation WHERE n_nationkey < 0 GROUP BY n_regionkey GROUPING SETS (())"
            + "|SELECT NULL, count(*), sum(n_nationkey) FROM nation WHERE n_nationkey < 0",
        // no FROM rows at all: only the empty set's row, which counts 0
        "SELECT n_regionkey, count(*) FROM nation WHERE n_nationkey < 0 GROUP BY ROLLUP (n_regionkey)"
            + "|SELECT n_regionkey, count(*) FROM nation WHERE n_nationkey < 0 GROUP BY ROLLUP (n_regionkey)"})
    void matchesDuckDb(String ours, String duckDb) throws Exception {
        assertNull(OracleComparison.difference(cluster.run(ours, Map.of()), cluster.oracle().rows(duckDb), false), ours);
    }

    /**
     * Hive's GROUPING__ID (2.3 and later, the SQL standard's bits): a bit per GROUP BY key, the
     * first the most significant, 1 when the key is aggregated away; grouping() of several keys
     * the same bits of those keys, in their order (Hive's documentation's example).
     */
    @Test
    void groupingIdHasHivesBits() {
        List<Object[]> rows = cluster.run("SELECT l_returnflag, l_linestatus, GROUPING__ID, grouping(l_returnflag, l_linestatus), "
                + "grouping(l_linestatus, l_returnflag), grouping(l_returnflag), grouping(l_linestatus), count(*) "
                + "FROM lineitem GROUP BY l_returnflag, l_linestatus WITH CUBE ORDER BY GROUPING__ID, l_returnflag, l_linestatus",
                Map.of());
        List<String> seen = rows.stream().map(r -> r[2] + " " + r[3] + " " + r[4] + " " + r[5] + " " + r[6]).distinct().toList();
        // (flag, status): 0; (flag): status aggregated, 1; (status): flag aggregated, 2; (): 3
        assertEquals(List.of("0 0 0 0 0", "1 1 2 0 1", "2 2 1 1 0", "3 3 3 1 1"), seen);
        assertEquals(Long.class, rows.get(0)[2].getClass(), "GROUPING__ID is a BIGINT");
        Object[] total = rows.get(rows.size() - 1);
        assertNull(total[0]);
        assertNull(total[1]);
        assertEquals(60_175L, total[7]);
        List<Object[]> rollup = cluster.run("SELECT l_returnflag, l_linestatus, GROUPING__ID FROM lineitem "
                + "GROUP BY l_returnflag, l_linestatus GROUPING SETS ((l_returnflag, l_linestatus), l_linestatus, ()) "
                + "HAVING GROUPING__ID > 0 ORDER BY GROUPING__ID, l_linestatus", Map.of());
        assertEquals(List.of("null F 2", "null O 2", "null null 3"),
                rollup.stream().map(r -> r[0] + " " + r[1] + " " + r[2]).toList());
    }

    /** Three keys: grouping(k1, k3) reads k1's bit (4) and k3's (1) of the id. */
    @Test
    void groupingOfSomeKeysReadsTheirBits() throws Exception {
        String ours = "SELECT l_returnflag, l_linestatus, l_shipmode, grouping(l_returnflag, l_shipmode), GROUPING__ID, count(*) "
                + "FROM lineitem GROUP BY l_returnflag, l_linestatus, l_shipmode WITH ROLLUP";
        String duckDb = "SELECT l_returnflag, l_linestatus, l_shipmode, grouping(l_returnflag, l_shipmode), "
                + "grouping(l_returnflag, l_linestatus, l_shipmode), count(*) FROM lineitem "
                + "GROUP BY ROLLUP (l_returnflag, l_linestatus, l_shipmode)";
        assertNull(OracleComparison.difference(cluster.run(ours, Map.of()), cluster.oracle().rows(duckDb), false));
    }

    /**
     * With little memory the copies' groups spill on the nodes that merge them, and the rows are
     * the same.
     */
    @Test
    void groupsThatSpillGiveTheSameRows() throws Exception {
        String ours = "SELECT l_orderkey, l_partkey, l_suppkey, count(*), sum(l_quantity) FROM lineitem "
                + "GROUP BY l_orderkey, l_partkey, l_suppkey GROUPING SETS ((l_orderkey, l_partkey), (l_partkey, l_suppkey), (l_suppkey), ())";
        String duckDb = "SELECT l_orderkey, l_partkey, l_suppkey, count(*), sum(l_quantity) FROM lineitem "
                + "GROUP BY GROUPING SETS ((l_orderkey, l_partkey), (l_partkey, l_suppkey), (l_suppkey), ())";
        long spilledBefore = bytesSpilled();
        Map<String, String> small = Map.of("ooo.query.max-memory-per-node", "100000", "ooo.query.max-memory", "100000");
        assertNull(OracleComparison.difference(cluster.run(ours, small), cluster.oracle().rows(duckDb), false));
        assertTrue(bytesSpilled() > spilledBefore, "the nodes spilled groups");
    }

    /**
     * Sets that nest (ROLLUP; GROUPING SETS in any order whose sets each hold the next once put
     * finest first) are grouped on the nodes set by set, each from the groups of the one before:
     * EXPLAIN says so, and the rows are DuckDB's, with groups sent early from little memory too,
     * and with the setting off.
     */
    @Test
    void nestedSetsAreGroupedSetBySetOnTheNodes() throws Exception {
        String aggregates = "count(*), count(l_tax), sum(l_quantity), avg(l_discount), min(l_shipdate), max(l_comment)";
        String ours = "SELECT l_suppkey, l_partkey, l_orderkey, GROUPING__ID, " + aggregates + " FROM lineitem "
                + "GROUP BY l_suppkey, l_partkey, l_orderkey GROUPING SETS ((l_suppkey), (), (l_suppkey, l_partkey, l_orderkey), "
                + "(l_suppkey, l_partkey))";
        String duckDb = "SELECT l_suppkey, l_partkey, l_orderkey, grouping(l_suppkey, l_partkey, l_orderkey), " + aggregates
                + " FROM lineitem GROUP BY ROLLUP (l_suppkey, l_partkey, l_orderkey)";
        String plan = String.join("\n", cluster.run("EXPLAIN " + ours, Map.of()).stream().map(r -> (String) r[0]).toList());
        assertTrue(plan.contains("[each node] Expand 4 grouping sets, each grouped from the one before "
                + "[l_suppkey, l_partkey, l_orderkey, grouping__id]: (l_suppkey, l_partkey, l_orderkey, 0) "
                + "(l_suppkey, l_partkey, NULL, 1) (l_suppkey, NULL, NULL, 3) (NULL, NULL, NULL, 7)"), plan);
        List<Object[]> expected = cluster.oracle().rows(duckDb);
        Map<String, String> small = Map.of("ooo.query.max-memory-per-node", "100000", "ooo.query.max-memory", "100000");
        Map<String, String> copied = Map.of("ooo.aggregate.cascade-grouping-sets", "false");
        for (Map<String, String> settings : List.of(Map.<String, String>of(), small, copied)) {
            assertNull(OracleComparison.difference(cluster.run(ours, settings), expected, false), settings.toString());
        }
        String without = String.join("\n", cluster.run("EXPLAIN " + ours, copied).stream().map(r -> (String) r[0]).toList());
        assertTrue(without.contains("[each node] Expand 4 grouping sets [") && !without.contains("each grouped"), without);
    }

    private static long bytesSpilled() {
        return cluster.tpch().session.stats().values().stream().mapToLong(n -> n.get("bytesSpilled").asLong()).sum();
    }

    /** EXPLAIN names the copies the nodes make and estimates their rows: the input's times the sets. */
    @Test
    void explainShowsTheCopiesOnTheNodes() {
        // a variance is not regrouped from groups: each row is copied, on the nodes
        String plan = String.join("\n", cluster.run("EXPLAIN SELECT l_returnflag, l_linestatus, var_pop(l_quantity) FROM lineitem "
                + "GROUP BY l_returnflag, l_linestatus WITH ROLLUP", Map.of()).stream().map(r -> (String) r[0]).toList());
        assertTrue(plan.contains("[each node] Expand 3 grouping sets [l_returnflag, l_linestatus, grouping__id]: "
                + "(l_returnflag, l_linestatus, 0) (l_returnflag, NULL, 1) (NULL, NULL, 3) passing [l_quantity]"), plan);
        assertTrue(plan.contains("PartialAggregate keys [l_returnflag, l_linestatus, grouping__id]"), plan);
    }

    @Test
    void explainShowsRowsGroupedByEveryKeyBeforeTheCopies() {
        // 60 thousand rows in a few groups: the nodes group them, only the groups are copied
        String plan = String.join("\n", cluster.run("EXPLAIN SELECT l_returnflag, l_linestatus, count(*) FROM lineitem "
                + "GROUP BY l_returnflag, l_linestatus WITH ROLLUP", Map.of()).stream().map(r -> (String) r[0]).toList());
        assertTrue(plan.contains("[each node] PartialAggregate keys [l_returnflag, l_linestatus] aggs [count(*)]"), plan);
        assertTrue(plan.contains("Expand 3 grouping sets [l_returnflag, l_linestatus, grouping__id]: "
                + "(l_returnflag, l_linestatus, 0) (l_returnflag, NULL, 1) (NULL, NULL, 3) passing [count(*)]"), plan);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "SELECT l_returnflag, count(*) FROM lineitem GROUP BY l_returnflag GROUPING SETS ((l_returnflag), (l_linestatus))",
        "SELECT l_returnflag, grouping(l_linestatus) FROM lineitem GROUP BY l_returnflag WITH ROLLUP",
        "SELECT l_returnflag, grouping(l_returnflag) FROM lineitem GROUP BY l_returnflag",
        "SELECT l_returnflag, GROUPING__ID FROM lineitem GROUP BY l_returnflag"})
    void groupingOutsideTheKeysIsAnError(String sql) {
        SqlException e = assertThrows(SqlException.class, () -> cluster.run(sql, Map.of()));
        assertEquals(SqlException.SYNTAX, e.sqlState(), e.getMessage());
    }
}
