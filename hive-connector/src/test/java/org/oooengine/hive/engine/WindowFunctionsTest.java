package org.oooengine.hive.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.oooengine.hive.engine.SqlCluster.rows;

import io.trino.tpch.TpchTable;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.oooengine.core.sql.SqlException;
import org.oooengine.hive.sql.SqlSession;

/**
 * Window functions return DuckDB's rows: every function, ties, NULLs in partition and order keys,
 * frames, windows over aggregates (TPC-DS's shapes) and several windows in one query; a window
 * whose rows do not fit in the statement's memory spills and gives the same rows. Hive's parser
 * puts NULLs last going up and first going down, DuckDB last both ways: the queries say where.
 * Windows with PARTITION BY run on the nodes (their rows shuffled by the keys, or where they are
 * when the table is partitioned on one of them), the others on the coordinator: both are here.
 */
class WindowFunctionsTest {
    /** Orders with NULLs in a partition key ({@code k}) and an order key ({@code v}), and ties in both. */
    private static final String WITH_NULLS = "(SELECT o_orderkey, o_totalprice,"
            + " CASE WHEN o_custkey % 5 = 0 THEN NULL ELSE o_custkey % 3 END AS k,"
            + " CASE WHEN o_orderkey % 7 = 0 THEN NULL ELSE o_shippriority + o_orderkey % 4 END AS v"
            + " FROM orders WHERE o_orderkey < 2000) t";

    @RegisterExtension
    static final SqlCluster cluster = SqlCluster.of("ooo-windows", 2,
            TpchTable.NATION, TpchTable.CUSTOMER, TpchTable.ORDERS, TpchTable.LINE_ITEM);

    @ParameterizedTest
    @ValueSource(strings = {
        // rankings; row_number over a unique order, the others over ties
        "SELECT o_custkey, o_orderkey,"
                + " row_number() OVER (PARTITION BY o_custkey ORDER BY o_orderdate ASC NULLS LAST, o_orderkey ASC NULLS LAST) rn,"
                + " rank() OVER (PARTITION BY o_custkey ORDER BY o_orderpriority ASC NULLS LAST) r,"
                + " dense_rank() OVER (PARTITION BY o_custkey ORDER BY o_orderpriority ASC NULLS LAST) dr,"
                + " percent_rank() OVER (PARTITION BY o_custkey ORDER BY o_orderpriority DESC NULLS FIRST) pr,"
                + " cume_dist() OVER (PARTITION BY o_custkey ORDER BY o_orderpriority DESC NULLS FIRST) cd,"
                + " ntile(3) OVER (PARTITION BY o_custkey ORDER BY o_orderkey ASC NULLS LAST) nt"
                + " FROM orders WHERE o_custkey < 300",
        "SELECT l_orderkey, l_linenumber, l_quantity,"
                + " rank() OVER (ORDER BY l_quantity DESC NULLS FIRST) r,"
                + " dense_rank() OVER (ORDER BY l_quantity DESC NULLS FIRST) dr,"
                + " row_number() OVER (ORDER BY l_quantity DESC NULLS FIRST, l_orderkey ASC NULLS LAST, l_linenumber ASC NULLS LAST) rn,"
                + " ntile(7) OVER (ORDER BY l_orderkey ASC NULLS LAST, l_linenumber ASC NULLS LAST) nt"
                + " FROM lineitem WHERE l_orderkey < 600",
        // NULLs in the partition and the order keys, both ways round
        "SELECT o_orderkey, k, v, rank() OVER (PARTITION BY k ORDER BY v ASC NULLS FIRST) r1,"
                + " rank() OVER (PARTITION BY k ORDER BY v DESC NULLS LAST) r2,"
                + " dense_rank() OVER (PARTITION BY k ORDER BY v ASC NULLS LAST) r3,"
                + " cume_dist() OVER (PARTITION BY k ORDER BY v DESC NULLS FIRST) cd,"
                + " sum(o_totalprice) OVER (PARTITION BY k ORDER BY v ASC NULLS FIRST) s1,"
                + " count(v) OVER (PARTITION BY k ORDER BY v DESC NULLS LAST) c1,"
                + " count(*) OVER (PARTITION BY k) c2 FROM " + WITH_NULLS,
        // aggregates over the whole partition and running ones (peers included)
        "SELECT o_orderkey, o_custkey, sum(o_totalprice) OVER (PARTITION BY o_custkey) s,"
                + " avg(o_totalprice) OVER (PARTITION BY o_custkey) a, min(o_orderdate) OVER (PARTITION BY o_custkey) mi,"
                + " max(o_orderpriority) OVER (PARTITION BY o_custkey) ma, count(*) OVER (PARTITION BY o_custkey) c,"
                + " sum(o_shippriority + 1) OVER (PARTITION BY o_custkey ORDER BY o_orderdate ASC NULLS LAST) rs,"
                + " avg(o_totalprice) OVER (PARTITION BY o_custkey ORDER BY o_orderstatus ASC NULLS LAST) ra,"
                + " count(o_comment) OVER (ORDER BY o_custkey ASC NULLS LAST) rc FROM orders WHERE o_custkey < 400",
        // ROWS frames
        "SELECT l_orderkey, l_linenumber,"
                + " sum(l_quantity) OVER (PARTITION BY l_orderkey ORDER BY l_linenumber ASC NULLS LAST ROWS BETWEEN 2 PRECEDING AND 1 FOLLOWING) a,"
                + " sum(l_quantity) OVER (ORDER BY l_orderkey ASC NULLS LAST, l_linenumber ASC NULLS LAST ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) b,"
                + " sum(l_extendedprice) OVER (PARTITION BY l_orderkey ORDER BY l_linenumber ASC NULLS LAST ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) c,"
                + " max(l_quantity) OVER (ORDER BY l_orderkey ASC NULLS LAST, l_linenumber ASC NULLS LAST ROWS BETWEEN 3 FOLLOWING AND 5 FOLLOWING) d,"
                + " min(l_discount) OVER (ORDER BY l_orderkey ASC NULLS LAST, l_linenumber ASC NULLS LAST ROWS BETWEEN 5 PRECEDING AND 2 PRECEDING) e,"
                + " count(*) OVER (ORDER BY l_orderkey DESC NULLS LAST, l_linenumber DESC NULLS LAST ROWS BETWEEN 1 PRECEDING AND UNBOUNDED FOLLOWING) f,"
                + " avg(l_tax) OVER (PARTITION BY l_orderkey ORDER BY l_linenumber ASC NULLS LAST ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) g,"
                + " sum(l_quantity) OVER (PARTITION BY l_orderkey ORDER BY l_linenumber ASC NULLS LAST ROWS 2 PRECEDING) h"
                + " FROM lineitem WHERE l_orderkey < 800",
        // RANGE frames: peers, the partition's end, offsets from the value (NULLs among them)
        "SELECT o_orderkey, k, v,"
                + " sum(o_totalprice) OVER (PARTITION BY k ORDER BY v ASC NULLS FIRST RANGE BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) a,"
                + " count(*) OVER (PARTITION BY k ORDER BY v DESC NULLS LAST RANGE BETWEEN CURRENT ROW AND CURRENT ROW) b,"
                + " sum(o_totalprice) OVER (PARTITION BY k ORDER BY v ASC NULLS LAST RANGE BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) c,"
                + " count(*) OVER (PARTITION BY k ORDER BY v ASC NULLS FIRST RANGE BETWEEN 1 PRECEDING AND 1 FOLLOWING) d,"
                + " count(*) OVER (PARTITION BY k ORDER BY v DESC NULLS LAST RANGE BETWEEN 2 PRECEDING AND CURRENT ROW) e,"
                + " max(o_totalprice) OVER (PARTITION BY k ORDER BY v ASC NULLS LAST RANGE BETWEEN 1 FOLLOWING AND 2 FOLLOWING) f"
                + " FROM " + WITH_NULLS,
        "SELECT l_orderkey, l_linenumber, l_quantity,"
                + " sum(l_extendedprice) OVER (ORDER BY l_quantity ASC NULLS LAST RANGE BETWEEN 2.5 PRECEDING AND 1 FOLLOWING) a,"
                + " count(*) OVER (ORDER BY l_quantity DESC NULLS FIRST RANGE BETWEEN 3 PRECEDING AND UNBOUNDED FOLLOWING) b"
                + " FROM lineitem WHERE l_orderkey < 300",
        // lag, lead, first_value, last_value
        "SELECT o_orderkey, o_custkey,"
                + " lag(o_totalprice) OVER (PARTITION BY o_custkey ORDER BY o_orderkey ASC NULLS LAST) a,"
                + " lag(o_orderdate, 2, DATE '1900-01-01') OVER (PARTITION BY o_custkey ORDER BY o_orderkey ASC NULLS LAST) b,"
                + " lead(o_orderkey, 3, -1) OVER (PARTITION BY o_custkey ORDER BY o_orderkey ASC NULLS LAST) c,"
                + " lead(o_orderpriority) OVER (ORDER BY o_orderkey DESC NULLS LAST) d,"
                + " lag(o_orderkey, 0) OVER (ORDER BY o_orderkey ASC NULLS LAST) e,"
                + " first_value(o_orderkey) OVER (PARTITION BY o_custkey ORDER BY o_orderkey ASC NULLS LAST) f,"
                + " last_value(o_orderkey) OVER (PARTITION BY o_custkey ORDER BY o_orderkey ASC NULLS LAST) g,"
                + " last_value(o_orderkey) OVER (PARTITION BY o_custkey ORDER BY o_orderkey ASC NULLS LAST"
                + " ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) h,"
                + " first_value(o_orderkey) OVER (PARTITION BY o_custkey ORDER BY o_orderkey ASC NULLS LAST"
                + " ROWS BETWEEN 1 FOLLOWING AND UNBOUNDED FOLLOWING) i"
                + " FROM orders WHERE o_custkey < 300",
        // a window over an aggregate: TPC-DS Q12/Q20/Q98's share of a class, Q36/Q70's rank by a sum
        "SELECT o_orderpriority, o_orderstatus, sum(o_totalprice) s,"
                + " sum(o_totalprice) * 100 / sum(sum(o_totalprice)) OVER (PARTITION BY o_orderpriority) ratio,"
                + " rank() OVER (PARTITION BY o_orderstatus ORDER BY sum(o_totalprice) DESC NULLS FIRST) rk"
                + " FROM orders GROUP BY o_orderpriority, o_orderstatus",
        // Q47/Q53/Q57/Q63/Q89's average of sums, compared in an outer WHERE
        "SELECT * FROM (SELECT c_nationkey, o_orderpriority, sum(o_totalprice) s,"
                + " avg(sum(o_totalprice)) OVER (PARTITION BY c_nationkey) a"
                + " FROM orders JOIN customer ON o_custkey = c_custkey GROUP BY c_nationkey, o_orderpriority) t"
                + " WHERE CASE WHEN a > 0 THEN abs(s - a) / a ELSE NULL END > 0.1",
        // a window after HAVING, with DISTINCT
        "SELECT DISTINCT o_orderstatus, count(*) OVER (PARTITION BY o_orderstatus) c FROM orders"
                + " GROUP BY o_orderstatus, o_orderpriority HAVING count(*) > 100",
        // NULLs in two partition keys at once, shuffled by both
        "SELECT o_orderkey, k, v, row_number() OVER (PARTITION BY k, v ORDER BY o_orderkey ASC NULLS LAST) rn,"
                + " count(*) OVER (PARTITION BY v, k) c FROM " + WITH_NULLS,
        // several windows with different PARTITION BYs: the first two on the nodes, the others on the coordinator
        "SELECT o_orderkey, o_custkey, o_orderstatus,"
                + " rank() OVER (PARTITION BY o_custkey ORDER BY o_totalprice DESC NULLS FIRST, o_orderkey ASC NULLS LAST) r1,"
                + " count(*) OVER (PARTITION BY o_custkey, o_orderstatus) c2,"
                + " sum(o_totalprice) OVER (PARTITION BY o_orderstatus, o_orderpriority) s3,"
                + " row_number() OVER (PARTITION BY o_orderkey % 3 ORDER BY o_orderkey ASC NULLS LAST) r4"
                + " FROM orders WHERE o_custkey < 500",
        // a window over a GROUP BY each node computes whole, keyed by an expression its nodes compute
        "SELECT l_orderkey, sum(l_quantity) s, rank() OVER (PARTITION BY l_orderkey % 10"
                + " ORDER BY sum(l_quantity) DESC NULLS FIRST, l_orderkey ASC NULLS LAST) r FROM lineitem GROUP BY l_orderkey",
        // windows over a GROUP BY merged on the nodes: the groups shuffled by the keys the windows share
        "SELECT o_orderstatus, o_orderpriority, o_custkey % 5 m, sum(o_totalprice) s,"
                + " avg(sum(o_totalprice)) OVER (PARTITION BY o_orderstatus, o_orderpriority) a,"
                + " rank() OVER (PARTITION BY o_orderstatus ORDER BY sum(o_totalprice) DESC NULLS FIRST,"
                + " o_orderpriority ASC NULLS LAST, o_custkey % 5 ASC NULLS LAST) r"
                + " FROM orders GROUP BY o_orderstatus, o_orderpriority, o_custkey % 5 HAVING count(*) > 200",
        "SELECT k, v, count(*) c, sum(count(*)) OVER (PARTITION BY k) s, lag(v) OVER (PARTITION BY k ORDER BY v ASC NULLS FIRST) p"
                + " FROM " + WITH_NULLS + " GROUP BY k, v",
        // a window by the column the table is partitioned on: where its rows are
        "SELECT l_orderkey, l_linenumber, sum(l_quantity) OVER (PARTITION BY l_orderkey ORDER BY l_linenumber ASC NULLS LAST) s"
                + " FROM lineitem WHERE l_orderkey < 3000",
        // the first rows of each partition, filtered on the nodes
        "SELECT * FROM (SELECT o_orderpriority, o_orderkey, o_totalprice, row_number() OVER (PARTITION BY o_orderpriority"
                + " ORDER BY o_totalprice DESC NULLS FIRST, o_orderkey ASC NULLS LAST) rn FROM orders) t WHERE rn <= 3",
        // a window's function with DISTINCT
        "SELECT o_custkey, count(DISTINCT o_orderstatus) OVER (PARTITION BY o_custkey) d FROM orders WHERE o_custkey < 200"})
    void matchesDuckDb(String sql) throws Exception {
        assertNull(OracleComparison.difference(cluster.run(sql), cluster.oracle().rows(sql), false), sql);
    }

    @Test
    void severalWindowsAWindowClauseAndAnOrderByOnAWindow() throws Exception {
        String sql = "SELECT n_regionkey, n_name, rank() OVER w AS r, sum(n_nationkey) OVER (w ROWS BETWEEN 1 PRECEDING AND"
                + " CURRENT ROW) AS s, count(*) OVER (PARTITION BY n_regionkey) AS c, row_number() OVER (ORDER BY n_name ASC NULLS LAST) AS rn"
                + " FROM nation WINDOW w AS (PARTITION BY n_regionkey ORDER BY n_name DESC NULLS FIRST)"
                + " ORDER BY r ASC NULLS LAST, n_regionkey ASC NULLS LAST";
        assertNull(OracleComparison.difference(cluster.run(sql), cluster.oracle().rows(sql), true), sql);
        String byExpression = "SELECT n_name FROM nation ORDER BY rank() OVER (ORDER BY n_regionkey ASC NULLS LAST, n_name DESC NULLS LAST)"
                + " ASC NULLS LAST LIMIT 7";
        assertNull(OracleComparison.difference(cluster.run(byExpression), cluster.oracle().rows(byExpression), true), byExpression);
    }

    @Test
    void anOrderByWithALimitAboveAWindowOnTheNodes() throws Exception {
        String sql = "SELECT o_custkey, o_orderkey, o_totalprice, rank() OVER (PARTITION BY o_custkey ORDER BY o_totalprice"
                + " DESC NULLS FIRST) r FROM orders ORDER BY r ASC NULLS LAST, o_totalprice DESC NULLS LAST, o_orderkey ASC NULLS LAST"
                + " LIMIT 25";
        assertNull(OracleComparison.difference(cluster.run(sql), cluster.oracle().rows(sql), true), sql);
        String plan = explain(sql);
        assertTrue(plan.contains("[each node] TopN 25"), plan);
        String offset = "SELECT o_custkey, o_orderkey, lag(o_orderkey) OVER (PARTITION BY o_custkey ORDER BY o_orderkey"
                + " ASC NULLS LAST) p FROM orders ORDER BY o_orderkey DESC NULLS LAST LIMIT 10 OFFSET 5";
        assertNull(OracleComparison.difference(cluster.run(offset), cluster.oracle().rows(offset), true), offset);
    }

    @Test
    void aggregatesOverAWindowOnTheNodesArePartlyComputedThere() throws Exception {
        String[] queries = {
            "SELECT max(r), count(*), avg(o_totalprice) FROM (SELECT o_totalprice, rank() OVER (PARTITION BY o_custkey"
                    + " ORDER BY o_totalprice DESC) r FROM orders) t",
            "SELECT r, count(*) c, sum(o_totalprice) s FROM (SELECT o_totalprice, row_number() OVER (PARTITION BY o_custkey"
                    + " ORDER BY o_orderdate, o_orderkey) r FROM orders) t WHERE r <= 3 GROUP BY r",
            // not split in two: DISTINCT's values are merged where the window's rows meet
            "SELECT count(DISTINCT r) FROM (SELECT rank() OVER (PARTITION BY o_custkey ORDER BY o_totalprice) r FROM orders) t"};
        for (String sql : queries) {
            assertNull(OracleComparison.difference(cluster.run(sql), cluster.oracle().rows(sql), false), sql);
        }
        for (int i = 0; i < 2; i++) {
            String plan = explain(queries[i]);
            assertTrue(plan.lines().anyMatch(l -> l.contains("[each node] PartialAggregate")), plan);
            assertTrue(plan.lines().anyMatch(l -> l.trim().startsWith("FinalAggregate")), plan);
        }
    }

    @Test
    void explainSaysWhereEachWindowRuns() {
        String shuffled = explain("SELECT o_custkey, o_orderkey, row_number() OVER (PARTITION BY o_custkey ORDER BY o_orderkey)"
                + " rn, count(*) OVER (PARTITION BY o_orderstatus) c FROM orders");
        assertTrue(shuffled.contains("Shuffle rows by [o_custkey] to the nodes that compute them  (est. 15,000 rows)"), shuffled);
        assertTrue(shuffled.lines().anyMatch(l -> l.contains("[each node] Window partition by [o_custkey]")
                && l.contains("on the nodes, each partition where its keys hash  (est. 15,000 rows)")), shuffled);
        // keyed otherwise than the rows on the nodes: on the coordinator
        assertTrue(shuffled.lines().anyMatch(l -> l.trim().startsWith("Window partition by [o_orderstatus]")), shuffled);
        String kept = explain("SELECT o_orderkey, rank() OVER (PARTITION BY o_orderkey ORDER BY o_totalprice) r FROM orders");
        assertTrue(kept.lines().anyMatch(l -> l.contains("[each node] Window partition by [o_orderkey]")
                && l.contains("(each partition on one node)")), kept);
        assertTrue(!kept.contains("Shuffle"), kept);
        String grouped = explain("SELECT o_orderpriority, o_orderstatus, sum(o_totalprice) s, rank() OVER (PARTITION BY"
                + " o_orderstatus ORDER BY sum(o_totalprice) DESC) r FROM orders GROUP BY o_orderpriority, o_orderstatus"
                + " HAVING count(*) > 10");
        assertTrue(grouped.contains("Shuffle rows by [o_orderstatus] to the nodes that compute them"), grouped);
        assertTrue(grouped.lines().anyMatch(l -> l.contains("[each node] FinalAggregate keys [o_orderpriority, o_orderstatus]"
                + " calls [sum(o_totalprice), count(*)]")
                && l.contains("(each group's partial rows merged on one node)")), grouped);
        assertTrue(grouped.lines().anyMatch(l -> l.contains("[each node] Filter")), grouped);
        String whole = explain("SELECT o_orderkey, rank() OVER (ORDER BY o_totalprice) r FROM orders");
        assertTrue(whole.lines().anyMatch(l -> l.trim().startsWith("Window partition by []")), whole);
        assertTrue(!whole.contains("[each node] Window"), whole);
    }

    @Test
    void aWindowOnTheNodesThatDoesNotFitTheirMemorySpills() throws Exception {
        // partitions of up to a few thousand rows with their comments, in 200 kB per node
        String sql = "SELECT l_orderkey, l_linenumber, l_comment,"
                + " row_number() OVER (PARTITION BY l_suppkey ORDER BY l_orderkey ASC NULLS LAST, l_linenumber ASC NULLS LAST) a,"
                + " sum(l_quantity) OVER (PARTITION BY l_suppkey ORDER BY l_orderkey ASC NULLS LAST, l_linenumber ASC NULLS LAST"
                + " ROWS BETWEEN 5 PRECEDING AND CURRENT ROW) b,"
                + " last_value(l_partkey) OVER (PARTITION BY l_suppkey, l_returnflag ORDER BY l_orderkey ASC NULLS LAST,"
                + " l_linenumber ASC NULLS LAST ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) c,"
                + " count(*) OVER (PARTITION BY l_returnflag) d FROM lineitem";
        Map<String, String> small = Map.of("ooo.query.max-memory-per-node", "200000");
        long spilledBefore = bytesSpilled();
        try (SqlSession s = cluster.session(small)) {
            assertNull(OracleComparison.difference(rows(s, sql), cluster.oracle().rows(sql), false), sql);
            assertTrue(bytesSpilled() > spilledBefore, "the nodes spilled");
            String explained = rows(s, "EXPLAIN ANALYZE " + sql).stream().map(r -> (String) r[0])
                    .collect(Collectors.joining("\n"));
            assertTrue(explained.lines().anyMatch(l -> l.contains("Gather") && l.contains("spilled")), explained);
            assertTrue(explained.contains("on the nodes, each partition where its keys hash"), explained);
        }
    }

    private static long bytesSpilled() {
        return cluster.tpch().session.stats().values().stream().mapToLong(n -> n.get("bytesSpilled").asLong()).sum();
    }

    private static String explain(String sql) {
        return cluster.run("EXPLAIN " + sql).stream().map(r -> (String) r[0]).collect(Collectors.joining("\n"));
    }

    @Test
    void firstAndLastValueSkipNullsWithATrueSecondArgument() throws Exception {
        String hive = "SELECT o_orderkey, k, first_value(v, true) OVER (PARTITION BY k ORDER BY o_orderkey ASC NULLS LAST) f,"
                + " last_value(v, true) OVER (PARTITION BY k ORDER BY o_orderkey ASC NULLS LAST) l, first_value(v, false)"
                + " OVER (PARTITION BY k ORDER BY o_orderkey ASC NULLS LAST) g FROM " + WITH_NULLS;
        String duckDb = "SELECT o_orderkey, k, first_value(v IGNORE NULLS) OVER (PARTITION BY k ORDER BY o_orderkey ASC NULLS LAST) f,"
                + " last_value(v IGNORE NULLS) OVER (PARTITION BY k ORDER BY o_orderkey ASC NULLS LAST) l, first_value(v)"
                + " OVER (PARTITION BY k ORDER BY o_orderkey ASC NULLS LAST) g FROM " + WITH_NULLS;
        assertNull(OracleComparison.difference(cluster.run(hive), cluster.oracle().rows(duckDb), false), hive);
    }

    @Test
    void aWindowThatDoesNotFitSpillsAndGivesTheSameRows() throws Exception {
        // one partition of all of lineitem, and windows of many small ones, with 1 MiB for the statement
        String sql = "SELECT l_orderkey, l_linenumber, l_comment,"
                + " sum(l_quantity) OVER (ORDER BY l_orderkey ASC NULLS LAST, l_linenumber ASC NULLS LAST ROWS BETWEEN 10 PRECEDING AND 3 FOLLOWING) a,"
                + " rank() OVER (ORDER BY l_quantity DESC NULLS FIRST) b,"
                + " lag(l_partkey, 1000) OVER (ORDER BY l_orderkey ASC NULLS LAST, l_linenumber ASC NULLS LAST) c,"
                + " count(*) OVER () d,"
                + " last_value(l_suppkey) OVER (PARTITION BY l_returnflag ORDER BY l_orderkey ASC NULLS LAST, l_linenumber ASC NULLS LAST"
                + " ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) e,"
                + " max(l_extendedprice) OVER (PARTITION BY l_partkey) f FROM lineitem";
        Map<String, String> small = Map.of("ooo.query.max-memory", String.valueOf(1 << 20));
        try (SqlSession s = cluster.session(small)) {
            assertNull(OracleComparison.difference(rows(s, sql), cluster.oracle().rows(sql), false), sql);
            String explained = rows(s, "EXPLAIN ANALYZE " + sql).stream().map(r -> (String) r[0])
                    .collect(Collectors.joining("\n"));
            assertTrue(explained.lines().anyMatch(l -> l.contains("Window ") && l.contains("spilled")), explained);
        }
    }

    @Test
    void explainNamesTheWindowsFunctionsAndKeys() {
        String plan = cluster.run("EXPLAIN SELECT o_orderpriority, sum(o_totalprice) * 100 / sum(sum(o_totalprice))"
                + " OVER (PARTITION BY o_orderstatus) AS ratio, rank() OVER (PARTITION BY o_orderstatus ORDER BY"
                + " sum(o_totalprice) DESC) AS rk FROM orders GROUP BY o_orderpriority, o_orderstatus").stream()
                .map(r -> (String) r[0]).collect(Collectors.joining("\n"));
        assertTrue(plan.contains("Window partition by [o_orderstatus] order by [] calls [sum(sum(o_totalprice))"
                + " ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING]"), plan);
        assertTrue(plan.contains("Window partition by [o_orderstatus] order by [sum(o_totalprice) DESC] calls [rank()]"), plan);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "SELECT n_name FROM nation WHERE rank() OVER (ORDER BY n_name) = 1",
        "SELECT n_regionkey FROM nation GROUP BY n_regionkey HAVING rank() OVER (ORDER BY n_regionkey) = 1",
        "SELECT n_name, rank() OVER w FROM nation",
        "SELECT n_name, sum(n_nationkey) OVER (ORDER BY n_regionkey, n_name RANGE BETWEEN 1 PRECEDING AND CURRENT ROW) FROM nation",
        "SELECT n_name, ntile(0) OVER (ORDER BY n_name) FROM nation",
        "SELECT n_name, sum(n_nationkey) OVER (ORDER BY n_name ROWS BETWEEN CURRENT ROW AND 1 PRECEDING) FROM nation",
        "SELECT n_name, sum(n_nationkey) OVER (ORDER BY n_name ROWS BETWEEN 1 PRECEDING AND 3 PRECEDING) FROM nation",
        "SELECT n_name, sum(n_nationkey) OVER (ORDER BY n_name ROWS BETWEEN UNBOUNDED FOLLOWING AND CURRENT ROW) FROM nation",
        "SELECT n_name, lag(n_name, n_nationkey) OVER (ORDER BY n_name) FROM nation"})
    void mistakesAreSyntaxErrors(String sql) {
        SqlException e = assertThrows(SqlException.class, () -> cluster.run(sql));
        assertEquals(SqlException.SYNTAX, e.sqlState(), sql + ": " + e.getMessage());
    }
}
