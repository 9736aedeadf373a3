package org.oooengine.hive.engine;

import static org.junit.jupiter.api.Assertions.assertFalse;
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
 * WHERE conditions over outer joins return DuckDB's rows wherever the planner places them: on the
 * preserved side (moved below the join), null-rejecting on the null-supplying side (the join made
 * inner), not null-rejecting there (IS NULL, COALESCE, CASE, an OR with such a branch: kept above
 * the join), on both sides, ON conditions on one side, nested and mixed joins, RIGHT and FULL
 * joins. EXPLAIN shows where the conditions went.
 */
class OuterJoinPredicatesTest {
    @RegisterExtension
    static final SqlCluster cluster = SqlCluster.of("ooo-outer-join-predicates", 2,
            TpchTable.NATION, TpchTable.REGION, TpchTable.CUSTOMER, TpchTable.ORDERS);

    @ParameterizedTest
    @ValueSource(strings = {
        // the preserved side's conditions
        "SELECT c_custkey, o_orderkey FROM customer LEFT JOIN orders ON c_custkey = o_custkey WHERE c_nationkey = 3",
        "SELECT c_custkey, o_orderkey FROM orders RIGHT JOIN customer ON c_custkey = o_custkey "
                + "WHERE c_acctbal < 0 AND c_mktsegment = 'BUILDING'",
        // null-rejecting on the null-supplying side: the same rows as an inner join
        "SELECT c_custkey, o_orderkey FROM customer LEFT JOIN orders ON c_custkey = o_custkey WHERE o_totalprice > 300000",
        "SELECT c_custkey, o_orderkey FROM customer LEFT JOIN orders ON c_custkey = o_custkey "
                + "WHERE o_orderkey IN (1, 2, 3, 4, 5, 6, 7, 32, 33, 34, 35)",
        "SELECT c_custkey, o_orderkey FROM customer LEFT JOIN orders ON c_custkey = o_custkey "
                + "WHERE o_comment LIKE '%special%requests%' AND c_nationkey = 7",
        "SELECT count(*), count(o_orderkey) FROM customer LEFT JOIN orders ON c_custkey = o_custkey WHERE o_orderkey IS NOT NULL",
        "SELECT count(*) FROM customer LEFT JOIN orders ON c_custkey = o_custkey WHERE NOT (o_orderstatus = 'F')",
        "SELECT count(*) FROM customer LEFT JOIN orders ON c_custkey = o_custkey "
                + "WHERE o_orderstatus = 'P' OR o_totalprice > 400000",
        "SELECT c_custkey, o_orderkey FROM orders RIGHT JOIN customer ON c_custkey = o_custkey "
                + "WHERE o_orderdate = DATE '1995-03-05'",
        // not null-rejecting: the padded rows must stay
        "SELECT c_custkey FROM customer LEFT JOIN orders ON c_custkey = o_custkey WHERE o_orderkey IS NULL",
        "SELECT c_custkey, o_orderkey FROM customer LEFT JOIN orders ON c_custkey = o_custkey "
                + "WHERE coalesce(o_totalprice, 0) < 1500",
        "SELECT c_custkey, o_orderkey FROM customer LEFT JOIN orders ON c_custkey = o_custkey "
                + "WHERE o_orderstatus = 'P' OR o_orderkey IS NULL",
        "SELECT c_custkey, o_orderkey FROM customer LEFT JOIN orders ON c_custkey = o_custkey "
                + "WHERE CASE WHEN o_orderkey IS NULL THEN 'none' ELSE o_orderstatus END IN ('none', 'P')",
        "SELECT c_custkey, o_orderkey FROM customer LEFT JOIN orders ON c_custkey = o_custkey "
                + "WHERE (o_orderkey IS NULL OR o_totalprice > 450000) AND c_nationkey = 1",
        // a condition on both sides
        "SELECT c_custkey, o_orderkey FROM customer LEFT JOIN orders ON c_custkey = o_custkey "
                + "WHERE c_acctbal * 40 > o_totalprice",
        "SELECT c_custkey, o_orderkey FROM customer LEFT JOIN orders ON c_custkey = o_custkey "
                + "WHERE coalesce(o_totalprice, c_acctbal) < 1000",
        // ON conditions on one side: the null-supplying side's filter it; the preserved side's only decide matches
        "SELECT c_custkey, o_orderkey FROM customer LEFT JOIN orders ON c_custkey = o_custkey "
                + "AND o_orderdate < DATE '1992-02-01' WHERE c_nationkey = 5",
        "SELECT count(*), count(o_orderkey) FROM customer LEFT JOIN orders ON c_custkey = o_custkey AND c_nationkey = 1",
        "SELECT count(*), count(c_custkey) FROM customer RIGHT JOIN orders ON c_custkey = o_custkey "
                + "AND c_nationkey = 1 AND o_orderstatus = 'P'",
        // nested outer joins
        "SELECT n_name, c_custkey, o_orderkey FROM nation LEFT JOIN customer ON n_nationkey = c_nationkey "
                + "LEFT JOIN orders ON c_custkey = o_custkey AND o_orderstatus = 'P' WHERE c_acctbal > 9900",
        "SELECT n_name, count(*), count(c_custkey), count(o_orderkey) FROM nation "
                + "LEFT JOIN customer ON n_nationkey = c_nationkey AND c_acctbal > 9990 "
                + "LEFT JOIN orders ON c_custkey = o_custkey WHERE o_orderkey IS NULL AND n_regionkey = 1 GROUP BY n_name",
        "SELECT n_name, c_custkey, o_orderkey FROM nation LEFT JOIN customer ON n_nationkey = c_nationkey "
                + "AND c_acctbal > 9900 LEFT JOIN orders ON c_custkey = o_custkey WHERE o_totalprice > 200000",
        "SELECT r_name, n_name, c_custkey FROM region LEFT JOIN nation ON r_regionkey = n_regionkey "
                + "LEFT JOIN customer ON n_nationkey = c_nationkey AND c_acctbal > 9950 WHERE n_name LIKE '%A%'",
        "SELECT r_name, x.n_name, x.c_custkey FROM region LEFT JOIN (SELECT n_regionkey, n_name, c_custkey FROM nation "
                + "LEFT JOIN customer ON n_nationkey = c_nationkey AND c_acctbal > 9950) x ON r_regionkey = x.n_regionkey "
                + "WHERE x.c_custkey IS NULL",
        // inner joins under and over outer joins
        "SELECT n_name, c_custkey, o_orderkey FROM nation JOIN customer ON n_nationkey = c_nationkey "
                + "LEFT JOIN orders ON c_custkey = o_custkey WHERE n_regionkey = 2 AND c_acctbal > 9000",
        "SELECT n_name, x.c_custkey, x.o_orderkey FROM nation LEFT JOIN (SELECT c_nationkey, c_custkey, o_orderkey, "
                + "o_totalprice FROM customer JOIN orders ON c_custkey = o_custkey) x ON n_nationkey = x.c_nationkey "
                + "WHERE x.o_totalprice > 420000 OR n_regionkey = 4",
        "SELECT n_name, c_custkey, o_orderkey FROM region JOIN nation ON r_regionkey = n_regionkey "
                + "LEFT JOIN customer ON n_nationkey = c_nationkey JOIN orders ON c_custkey = o_custkey "
                + "WHERE r_name = 'ASIA' AND o_totalprice > 350000",
        // FULL joins
        "SELECT n_name, r_name FROM nation FULL JOIN region ON n_regionkey = r_regionkey AND r_name <> 'ASIA' "
                + "WHERE n_nationkey < 12",
        "SELECT n_name, r_name FROM nation FULL JOIN region ON n_regionkey = r_regionkey AND n_nationkey < 8 "
                + "WHERE r_name <> 'EUROPE'",
        "SELECT n_name, r_name FROM nation FULL JOIN region ON n_regionkey = r_regionkey AND n_nationkey < 8 "
                + "WHERE r_name IS NULL OR n_name IS NULL"})
    void matchesDuckDb(String sql) throws Exception {
        assertNull(OracleComparison.difference(cluster.run(sql), cluster.oracle().rows(sql), false), sql);
    }

    /**
     * An index join driven by a range of a GLOBAL index (here the one on c_nationkey, which a
     * condition moved below an outer join makes a range) reads each row from the node that owns
     * it, not the node that holds its index entry.
     */
    @ParameterizedTest
    @ValueSource(strings = {
        "SELECT c_custkey, o_orderkey FROM customer JOIN orders ON c_custkey = o_custkey "
                + "WHERE o_comment LIKE '%special%requests%' AND c_nationkey = 7",
        "SELECT n_name, c_custkey, c_acctbal FROM nation JOIN customer ON n_nationkey = c_nationkey WHERE n_regionkey = 2"})
    void anIndexJoinDrivenByAGlobalIndexMatchesDuckDb(String sql) throws Exception {
        List<Object[]> rows = cluster.run(sql, Map.of("ooo.join.method", "index"));
        assertNull(OracleComparison.difference(rows, cluster.oracle().rows(sql), false), sql);
        assertFalse(rows.isEmpty(), sql);
    }

    /** A preserved side's condition filters that side's scan, under the outer join. */
    @Test
    void explainShowsThePreservedSidesFilterBelowTheJoin() throws Exception {
        String plan = explain("SELECT c_custkey, o_orderkey FROM customer LEFT JOIN orders ON c_custkey = o_custkey "
                + "WHERE c_nationkey = 3 AND o_orderkey IS NULL");
        assertTrue(plan.contains("LEFT"), plan);
        assertTrue(plan.indexOf("c_nationkey = 3") > plan.indexOf("LEFT"), "the filter is below the join\n" + plan);
        assertTrue(plan.indexOf("o_orderkey IS NULL") < plan.indexOf("LEFT"), "IS NULL stays above\n" + plan);
    }

    /** A null-rejecting condition on the null-supplying side makes the join inner and filters that side's scan. */
    @Test
    void explainShowsTheJoinMadeInner() throws Exception {
        String plan = explain("SELECT c_custkey, o_orderkey FROM customer LEFT JOIN orders ON c_custkey = o_custkey "
                + "WHERE o_totalprice > 300000");
        assertFalse(plan.contains("LEFT"), plan);
        assertTrue(plan.indexOf("Filter o_totalprice > 300000") > plan.indexOf("HashJoin INNER"), plan);
    }

    private static String explain(String sql) throws Exception {
        return String.join("\n", cluster.run("EXPLAIN " + sql).stream().map(r -> (String) r[0]).toList());
    }
}
