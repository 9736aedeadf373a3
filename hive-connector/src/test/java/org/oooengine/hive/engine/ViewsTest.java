package org.oooengine.hive.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.trino.tpch.TpchTable;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.oooengine.core.sql.SqlException;
import org.oooengine.hive.sql.SqlSession;

/**
 * Views: created, read as tables (filtered, joined, aggregated, one over another) with DuckDB's
 * answers to the same queries written out, described, listed, replaced and dropped; kept in the
 * catalog across coordinators; a view that reaches itself, names an unknown table, or is dropped
 * as a table is refused by name.
 */
class ViewsTest {
    /** The view's query, as DuckDB reads it in place of the view. */
    private static final String ASIA = "SELECT n_nationkey AS nation, n_name AS name FROM nation JOIN region "
            + "ON n_regionkey = r_regionkey WHERE r_name = 'ASIA'";

    @RegisterExtension
    static final SqlCluster cluster = SqlCluster.of("ooo-views-test", 2,
            TpchTable.NATION, TpchTable.REGION, TpchTable.CUSTOMER, TpchTable.ORDERS)
            .keepingCatalog(Map.of());

    @BeforeAll
    static void start() throws Exception {
        try (SqlSession s = session()) {
            run(s, "CREATE VIEW asia (nation COMMENT 'its key', name) COMMENT 'nations of Asia' AS "
                    + "SELECT n_nationkey, n_name FROM nation JOIN region ON n_regionkey = r_regionkey WHERE r_name = 'ASIA'");
            run(s, "CREATE VIEW asia_customers AS SELECT c_custkey, c_acctbal, a.name FROM customer "
                    + "JOIN asia a ON c_nationkey = a.nation");
        }
    }

    @Test
    void aViewReadsAsItsQueryWould() throws Exception {
        assertSame("SELECT name FROM asia WHERE nation > 10 ORDER BY name",
                "SELECT name FROM (" + ASIA + ") v WHERE nation > 10 ORDER BY name");
        assertSame("SELECT a.name, count(*) FROM asia a JOIN customer ON a.nation = c_nationkey GROUP BY a.name",
                "SELECT a.name, count(*) FROM (" + ASIA + ") a JOIN customer ON a.nation = c_nationkey GROUP BY a.name");
        assertSame("SELECT name, sum(c_acctbal) FROM asia_customers GROUP BY name",
                "SELECT v.name, sum(c_acctbal) FROM customer JOIN (" + ASIA + ") v ON c_nationkey = v.nation GROUP BY v.name");
        assertSame("SELECT count(*) FROM asia_customers c JOIN orders ON o_custkey = c.c_custkey WHERE o_totalprice > 100000",
                "SELECT count(*) FROM customer JOIN (" + ASIA + ") v ON c_nationkey = v.nation JOIN orders "
                        + "ON o_custkey = c_custkey WHERE o_totalprice > 100000");
    }

    @Test
    void aViewIsDescribedListedAndExplained() {
        try (SqlSession s = session()) {
            List<Object[]> described = run(s, "DESCRIBE asia");
            assertEquals(List.of("nation", "name"), described.stream().map(r -> (String) r[0]).toList());
            assertEquals("its key", described.get(0)[2]);
            String formatted = String.join("\n", run(s, "DESCRIBE FORMATTED asia").stream()
                    .map(r -> r[0] + " " + r[1]).toList());
            assertTrue(formatted.contains("Table Type: VIRTUAL_VIEW"), formatted);
            assertTrue(formatted.contains("View Original Text: CREATE VIEW asia"), formatted);
            List<String> tables = run(s, "SHOW TABLES").stream().map(r -> (String) r[0]).toList();
            assertTrue(tables.containsAll(List.of("asia", "asia_customers", "nation")), tables.toString());
            List<String> views = run(s, "SHOW VIEWS").stream().map(r -> (String) r[0]).toList();
            assertTrue(views.containsAll(List.of("asia", "asia_customers")) && !views.contains("nation"), views.toString());
            String plan = String.join("\n", run(s, "EXPLAIN SELECT name FROM asia").stream().map(r -> (String) r[0]).toList());
            assertTrue(plan.contains("r_name = 'ASIA'"), plan);
        }
    }

    @Test
    void replacedDroppedAndKeptAcrossCoordinators() throws Exception {
        try (SqlSession s = session()) {
            run(s, "CREATE VIEW big_orders AS SELECT o_orderkey FROM orders WHERE o_totalprice > 400000");
            long before = count(s, "big_orders");
            SqlException exists = assertThrows(SqlException.class,
                    () -> run(s, "CREATE VIEW big_orders AS SELECT o_orderkey FROM orders"));
            assertTrue(exists.getMessage().contains("view already exists: default.big_orders"), exists.getMessage());
            run(s, "CREATE VIEW IF NOT EXISTS big_orders AS SELECT o_orderkey FROM orders");
            assertEquals(before, count(s, "big_orders"));
            run(s, "CREATE OR REPLACE VIEW big_orders AS SELECT o_orderkey FROM orders WHERE o_totalprice > 300000");
            long replaced = count(s, "big_orders");
            assertTrue(replaced > before, replaced + " > " + before);
            run(s, "ALTER VIEW big_orders AS SELECT o_orderkey FROM orders");
            assertEquals(List.of(15_000L), List.of(count(s, "big_orders")));
        }
        // a coordinator started anew reads the views from the catalog file
        try (ClusterSqlEngine again = new ClusterSqlEngine(cluster.tpch().session, cluster.tpch().cluster.dir,
                cluster.catalogFile(), Map.of());
             SqlSession s = again.openSession("test", "default", Map.of())) {
            assertEquals(15_000L, count(s, "big_orders"));
            SqlException table = assertThrows(SqlException.class, () -> run(s, "DROP TABLE big_orders"));
            assertTrue(table.getMessage().contains("is a view, not a table: drop it with DROP VIEW"), table.getMessage());
            SqlException view = assertThrows(SqlException.class, () -> run(s, "DROP VIEW orders"));
            assertTrue(view.getMessage().contains("is a table, not a view"), view.getMessage());
            run(s, "DROP VIEW big_orders");
            run(s, "DROP VIEW IF EXISTS big_orders");
            SqlException gone = assertThrows(SqlException.class, () -> run(s, "SELECT count(*) FROM big_orders"));
            assertEquals(SqlException.UNKNOWN_TABLE, gone.sqlState());
        }
    }

    @Test
    void viewsThatCannotReadAreRefusedWhenCreated() {
        try (SqlSession s = session()) {
            SqlException unknown = assertThrows(SqlException.class,
                    () -> run(s, "CREATE VIEW nowhere AS SELECT * FROM no_such_table"));
            assertEquals(SqlException.UNKNOWN_TABLE, unknown.sqlState());
            SqlException columns = assertThrows(SqlException.class,
                    () -> run(s, "CREATE VIEW two (a) AS SELECT n_name, n_nationkey FROM nation"));
            assertTrue(columns.getMessage().contains("names 1 columns; its query gives 2"), columns.getMessage());
            run(s, "CREATE VIEW loop_a AS SELECT n_name FROM nation");
            run(s, "CREATE VIEW loop_b AS SELECT n_name FROM loop_a");
            SqlException loop = assertThrows(SqlException.class,
                    () -> run(s, "CREATE OR REPLACE VIEW loop_a AS SELECT n_name FROM loop_b"));
            assertTrue(loop.getMessage().contains("view default.loop_a refers to itself: default.loop_a -> default.loop_b "
                    + "-> default.loop_a"), loop.getMessage());
            assertEquals(25L, count(s, "loop_b")); // the refused replacement changed nothing
            SqlException isView = assertThrows(SqlException.class, () -> run(s, "CREATE TABLE loop_b (x int)"));
            assertEquals(SqlException.ALREADY_EXISTS, isView.sqlState());
            SqlException written = assertThrows(SqlException.class, () -> run(s, "INSERT INTO loop_b VALUES ('x')"));
            assertTrue(written.getMessage().contains("default.loop_b is a view: it cannot be written"), written.getMessage());
        }
    }

    private static void assertSame(String ours, String duckdb) throws Exception {
        List<Object[]> rows;
        try (SqlSession s = session()) {
            rows = run(s, ours);
        }
        assertTrue(!rows.isEmpty(), ours);
        assertNull(OracleComparison.difference(rows, cluster.oracle().rows(duckdb), false), ours);
    }

    private static long count(SqlSession s, String view) {
        return ((Number) run(s, "SELECT count(*) FROM " + view).get(0)[0]).longValue();
    }

    private static SqlSession session() {
        return cluster.session();
    }

    private static List<Object[]> run(SqlSession s, String sql) {
        return SqlCluster.rows(s, sql);
    }
}
