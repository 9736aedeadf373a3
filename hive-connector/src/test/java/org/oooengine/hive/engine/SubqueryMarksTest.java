package org.oooengine.hive.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.trino.tpch.TpchTable;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.oooengine.core.sql.SqlException;

/**
 * EXISTS and IN subqueries a semi join cannot stand for (under OR, NOT or CASE: TPC-DS Q10, Q35,
 * Q45; a correlated NOT IN), and count in a correlated scalar subquery (Q41), return DuckDB's
 * rows: NULL outer keys and NULL subquery values, empty subqueries, an outer row with many
 * matches kept once, NOT EXISTS and NOT IN under OR, counts of 0.
 */
class SubqueryMarksTest {

    /** n_nationkey, NULL above 20. */
    private static final String NULLABLE_NATION = "CASE WHEN n_nationkey > 20 THEN NULL ELSE n_nationkey END";

    @RegisterExtension
    static final SqlCluster cluster = SqlCluster.of("ooo-subquery-marks", 2,
            TpchTable.NATION, TpchTable.REGION, TpchTable.SUPPLIER, TpchTable.CUSTOMER, TpchTable.ORDERS);

    @ParameterizedTest
    @ValueSource(strings = {
        // EXISTS beside a plain predicate under OR
        "SELECT n_name FROM nation WHERE n_regionkey = 0 "
                + "OR EXISTS (SELECT 1 FROM supplier WHERE s_nationkey = n_nationkey AND s_acctbal > 9000)",
        // TPC-DS Q10 and Q35's shape: an EXISTS, then two under OR
        "SELECT c_nationkey, count(*) FROM customer WHERE c_acctbal > 0 "
                + "AND EXISTS (SELECT * FROM orders WHERE o_custkey = c_custkey AND o_orderpriority = '1-URGENT') "
                + "AND (EXISTS (SELECT * FROM orders WHERE o_custkey = c_custkey AND o_orderstatus = 'P') "
                + "OR EXISTS (SELECT * FROM orders WHERE c_custkey = o_custkey AND o_totalprice > 300000)) "
                + "GROUP BY c_nationkey",
        // a customer with many matching orders is still one row
        "SELECT c_custkey FROM customer WHERE c_custkey < 20 "
                + "OR EXISTS (SELECT 1 FROM orders WHERE o_custkey = c_custkey AND o_totalprice > 100000)",
        "SELECT n_name FROM nation WHERE n_regionkey = 1 "
                + "OR NOT EXISTS (SELECT 1 FROM customer WHERE c_nationkey = n_nationkey AND c_acctbal > 9950)",
        "SELECT n_name FROM nation WHERE NOT (n_regionkey = 1 "
                + "OR EXISTS (SELECT 1 FROM customer WHERE c_nationkey = n_nationkey AND c_acctbal > 9950))",
        // empty subqueries, correlated and not
        "SELECT n_name FROM nation WHERE n_regionkey = 2 "
                + "OR EXISTS (SELECT 1 FROM region WHERE r_regionkey = n_regionkey AND r_name = 'nowhere')",
        "SELECT n_name FROM nation WHERE n_regionkey = 2 OR EXISTS (SELECT 1 FROM region WHERE r_name = 'nowhere')",
        "SELECT n_name FROM nation WHERE n_regionkey = 2 OR NOT EXISTS (SELECT 1 FROM region WHERE r_name = 'nowhere')",
        "SELECT n_name FROM nation WHERE n_regionkey = 2 OR NOT EXISTS (SELECT 1 FROM region)",
        // a NULL outer key meets nothing; the key is an expression of the outer row
        "SELECT n_name FROM nation WHERE n_regionkey = 3 "
                + "OR EXISTS (SELECT 1 FROM supplier WHERE s_nationkey = " + NULLABLE_NATION + ")",
        "SELECT n_name FROM nation WHERE n_regionkey = 3 "
                + "OR NOT EXISTS (SELECT 1 FROM supplier WHERE s_nationkey = " + NULLABLE_NATION + ")",
        // TPC-DS Q45's shape: IN under OR
        "SELECT n_name FROM nation WHERE n_name LIKE 'A%' "
                + "OR n_regionkey IN (SELECT r_regionkey FROM region WHERE r_name = 'ASIA')",
        "SELECT n_name FROM nation WHERE substr(n_name, 1, 1) = 'I' "
                + "OR n_nationkey + 1 IN (SELECT s_nationkey FROM supplier WHERE s_acctbal > 9000)",
        "SELECT n_name FROM nation WHERE n_regionkey = 0 "
                + "OR n_regionkey IN (SELECT r_regionkey FROM region WHERE r_name <> 'ASIA' AND r_regionkey = n_regionkey)",
        // NOT IN under OR: a NULL in the subquery, a NULL tested value, an empty subquery
        "SELECT n_name FROM nation WHERE n_regionkey = 0 OR n_nationkey NOT IN "
                + "(SELECT CASE WHEN s_nationkey = 3 THEN NULL ELSE s_nationkey END FROM supplier WHERE s_acctbal > 5000)",
        "SELECT n_name FROM nation WHERE n_regionkey = 0 OR n_nationkey NOT IN "
                + "(SELECT s_nationkey FROM supplier WHERE s_acctbal > 9000)",
        "SELECT n_name FROM nation WHERE n_regionkey = 0 OR " + NULLABLE_NATION + " NOT IN "
                + "(SELECT s_nationkey FROM supplier WHERE s_acctbal > 9000)",
        "SELECT n_name FROM nation WHERE n_regionkey = 0 OR " + NULLABLE_NATION + " NOT IN "
                + "(SELECT s_nationkey FROM supplier WHERE s_acctbal > 99999)",
        "SELECT n_name FROM nation WHERE n_regionkey = 0 OR NOT (" + NULLABLE_NATION + " IN "
                + "(SELECT CASE WHEN s_nationkey = 3 THEN NULL ELSE s_nationkey END FROM supplier WHERE s_acctbal > 9000))",
        // IN under CASE, where unknown and false differ no more than under OR
        "SELECT n_name FROM nation WHERE CASE WHEN " + NULLABLE_NATION
                + " IN (SELECT s_nationkey FROM supplier WHERE s_acctbal > 9000) THEN n_regionkey = 1 ELSE n_regionkey = 2 END",
        "SELECT n_name FROM nation WHERE (n_nationkey IN (SELECT CASE WHEN s_nationkey = 3 THEN NULL ELSE s_nationkey END "
                + "FROM supplier WHERE s_acctbal > 9000)) IS NULL",
        // a correlated NOT IN: NULLs and emptiness count per correlation key
        "SELECT n.n_name FROM nation n WHERE n.n_nationkey NOT IN (SELECT CASE WHEN s_acctbal > 9900 THEN NULL "
                + "ELSE s_nationkey + 1 END FROM supplier s, nation n2 WHERE s_nationkey = n2.n_nationkey "
                + "AND n2.n_regionkey = n.n_regionkey AND n2.n_nationkey < 22)",
        "SELECT n_name FROM nation WHERE n_nationkey NOT IN (SELECT s_nationkey FROM supplier "
                + "WHERE s_nationkey = n_nationkey AND s_acctbal > 9500)",
        // an aggregate without GROUP BY is one row, whatever the correlation finds: EXISTS is true
        "SELECT n_name FROM nation WHERE EXISTS (SELECT max(s_acctbal) FROM supplier "
                + "WHERE s_nationkey = n_nationkey AND s_acctbal > 9500)",
        "SELECT n_name FROM nation WHERE NOT EXISTS (SELECT count(*) FROM supplier "
                + "WHERE s_nationkey = n_nationkey AND s_acctbal > 9500)",
        "SELECT n_name FROM nation WHERE n_regionkey = 0 OR NOT EXISTS (SELECT max(s_acctbal) FROM supplier "
                + "WHERE s_nationkey = n_nationkey AND s_acctbal > 9500)",
        // HAVING: a mark over the groups
        "SELECT n_regionkey, count(*) FROM nation GROUP BY n_regionkey HAVING count(*) > 5 "
                + "OR EXISTS (SELECT 1 FROM region WHERE r_regionkey = n_regionkey AND r_name = 'ASIA')"})
    void existsAndInUnderOrMatchDuckDb(String sql) throws Exception {
        assertMatchesDuckDb(sql);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        // a nation without such customers counts 0, not NULL: = 0 keeps it, > 0 does not
        "SELECT n_name FROM nation WHERE (SELECT count(*) FROM customer WHERE c_nationkey = n_nationkey "
                + "AND c_acctbal > 9900) = 0",
        "SELECT n_name FROM nation WHERE (SELECT count(*) FROM customer WHERE c_nationkey = n_nationkey "
                + "AND c_acctbal > 9900) > 0",
        "SELECT n_name, (SELECT count(*) FROM supplier WHERE s_nationkey = n_nationkey AND s_acctbal > 9000) FROM nation",
        "SELECT n_name, (SELECT count(s_acctbal) + 1 FROM supplier WHERE s_nationkey = " + NULLABLE_NATION
                + " AND s_acctbal > 9000) FROM nation",
        "SELECT n_name, (SELECT coalesce(sum(s_acctbal), 0) FROM supplier WHERE s_nationkey = n_nationkey "
                + "AND s_acctbal > 9000) FROM nation",
        "SELECT n_name, (SELECT max(s_acctbal) FROM supplier WHERE s_nationkey = n_nationkey AND s_acctbal > 9000) FROM nation",
        "SELECT n_name FROM nation WHERE n_regionkey = 1 OR (SELECT count(*) FROM customer "
                + "WHERE c_nationkey = n_nationkey AND c_acctbal > 9950) = 0",
        // TPC-DS Q41's shape: the correlation repeated in each branch of an OR
        "SELECT DISTINCT n_name FROM nation n1 WHERE n_regionkey < 4 AND (SELECT count(*) AS cnt FROM nation "
                + "WHERE (n_regionkey = n1.n_regionkey AND n_name LIKE 'A%') "
                + "OR (n_regionkey = n1.n_regionkey AND n_name LIKE '%A')) > 0"})
    void countInCorrelatedScalarSubqueryMatchesDuckDb(String sql) throws Exception {
        assertMatchesDuckDb(sql);
    }

    @Test
    void aCorrelationThatIsNoEqualityIsRefusedUnderOr() {
        SqlException e = refused("SELECT n_name FROM nation WHERE n_regionkey = 0 "
                + "OR EXISTS (SELECT 1 FROM supplier WHERE s_nationkey > n_nationkey)");
        assertEquals(SqlException.NOT_SUPPORTED, e.sqlState(), e.getMessage());
        assertTrue(e.getMessage().contains("is not an equality"), e.getMessage());
    }

    @Test
    void explainShowsTheLeftJoinAndTheMarks() {
        List<String> plan = cluster.run("EXPLAIN SELECT n_name FROM nation WHERE n_regionkey = 0 "
                + "OR EXISTS (SELECT 1 FROM supplier WHERE s_nationkey = n_nationkey AND s_acctbal > 9000) "
                + "OR n_nationkey IN (SELECT c_nationkey FROM customer WHERE c_acctbal > 9990)")
                .stream().map(r -> r[0].toString()).toList();
        assertTrue(plan.stream().anyMatch(l -> l.contains("HashJoin LEFT")), plan.toString());
        assertTrue(plan.stream().anyMatch(l -> l.contains("$subquery1") && l.contains("$subquery2")), plan.toString());
    }

    @Test
    void anInSubqueryWithACorrelationAndAnAggregateIsRefused() {
        SqlException e = refused("SELECT n_name FROM nation WHERE n_regionkey = 0 "
                + "OR n_nationkey IN (SELECT max(s_nationkey) FROM supplier WHERE s_nationkey = n_nationkey)");
        assertEquals(SqlException.NOT_SUPPORTED, e.sqlState(), e.getMessage());
        assertTrue(e.getMessage().contains("an IN subquery with a correlated condition and an aggregate"), e.getMessage());
    }

    private static void assertMatchesDuckDb(String sql) throws Exception {
        assertNull(OracleComparison.difference(cluster.run(sql), cluster.oracle().rows(sql), false), sql);
    }

    private static SqlException refused(String sql) {
        return assertThrows(SqlException.class, () -> cluster.run(sql), sql);
    }
}
