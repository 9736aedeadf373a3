package org.oooengine.hive.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.oooengine.core.cluster.ClusterSession;
import org.oooengine.core.cluster.TpchCluster;
import org.oooengine.hive.catalog.EmbeddedCatalog;
import org.oooengine.hive.sql.Cancellation;
import org.oooengine.core.sql.SqlException;
import org.oooengine.hive.sql.SqlSession;
import org.oooengine.hive.sql.StatementResult;

/**
 * The embedded catalog over a cluster one node of which is down: tables created through SQL and
 * tables loaded onto the nodes are all still listed and described, row counts are the sums over
 * the nodes or name the node they lack, and reading or writing a table fails naming the node
 * rather than calling the table unknown. Once the node is back, everything reads as before.
 */
class CatalogWithANodeDownTest {
    private static TpchCluster tpch;
    private static ClusterSqlEngine engine;

    @BeforeAll
    static void start() throws Exception {
        tpch = new TpchCluster("ooo-catalog-node-down", 3, 0.01, List.of());
        engine = new ClusterSqlEngine(tpch.session, tpch.dir.resolve(EmbeddedCatalog.FILE_NAME));
    }

    @AfterAll
    static void stop() throws Exception {
        if (tpch != null) {
            tpch.close();
        }
    }

    @Test
    void tablesStayListedAndDescribedAndTheirReadsNameTheNodeThatIsDown() throws Exception {
        SqlSession s = engine.openSession("test", "default", Map.of());
        update(s, "CREATE DATABASE shop");
        update(s, "CREATE TABLE shop.items (id INT, name STRING, PRIMARY KEY (id) DISABLE NOVALIDATE)");
        update(s, "INSERT INTO shop.items VALUES (1, 'ink'), (2, 'pen'), (3, 'pad')");
        update(s, "CREATE TABLE notes (line STRING)");
        update(s, "INSERT INTO notes VALUES ('a'), ('b')");
        assertEquals(Long.toString(tpch.single.table("orders").rows()), rowsProperty(s, "orders"));
        assertEquals(Long.toString(tpch.single.table("lineitem").rows()), rowsProperty(s, "lineitem"));
        List<String> tables = column(rows(s, "SHOW TABLES"));

        String n2 = "127.0.0.1:" + tpch.cluster.spec.node("n2").port();
        tpch.cluster.stop("n2");
        try {
            Thread.sleep(ClusterSession.TABLES_MAX_AGE.toMillis()); // the catalog's answer from before is over
            assertEquals(tables, column(rows(s, "SHOW TABLES")));
            assertTrue(tables.containsAll(List.of("notes", "orders", "lineitem")), tables::toString);
            String orders = rowsProperty(s, "orders");
            assertTrue(orders.startsWith("unknown: node n2 at " + n2 + ": unreachable ("), orders);
            assertEquals(List.of("id", "name"), column(rows(s, "DESCRIBE shop.items")));
            update(s, "USE shop");
            assertEquals(List.of("items"), column(rows(s, "SHOW TABLES")));

            for (String read : List.of("SELECT count(*) FROM items", "SELECT count(*) FROM default.orders")) {
                SqlException e = assertThrows(SqlException.class, () -> rows(s, read));
                assertNotEquals(SqlException.UNKNOWN_TABLE, e.sqlState(), e.getMessage());
                assertTrue(e.getMessage().contains("node n2") && e.getMessage().contains(n2), read + ": " + e.getMessage());
            }
            SqlException write = assertThrows(SqlException.class, () -> update(s, "INSERT INTO items VALUES (4, 'cap')"));
            assertTrue(write.getMessage().contains("node n2") && write.getMessage().contains(n2), write.getMessage());
            SqlException unknown = assertThrows(SqlException.class, () -> rows(s, "SELECT * FROM default.nosuch"));
            assertEquals(SqlException.NODE_FAILURE, unknown.sqlState());
            assertTrue(unknown.getMessage().startsWith("cannot tell whether table default.nosuch exists"),
                    unknown.getMessage());
        } finally {
            tpch.cluster.restart("n2");
        }
        assertEquals(List.of("3"), column(rows(s, "SELECT count(*) FROM items")));
        assertEquals(List.of("2"), column(rows(s, "SELECT count(*) FROM default.notes")));
        Thread.sleep(ClusterSession.TABLES_MAX_AGE.toMillis());
        assertEquals(Long.toString(tpch.single.table("orders").rows()), rowsProperty(s, "default.orders"));
    }

    private static List<Object[]> rows(SqlSession s, String sql) {
        StatementResult r = s.execute(sql, new Cancellation());
        List<Object[]> out = new ArrayList<>();
        r.rows().forEachRemaining(out::add);
        return out;
    }

    private static void update(SqlSession s, String sql) {
        s.execute(sql, new Cancellation());
    }

    private static List<String> column(List<Object[]> rows) {
        return rows.stream().map(r -> String.valueOf(r[0])).toList();
    }

    private static String rowsProperty(SqlSession s, String table) {
        return rows(s, "DESCRIBE FORMATTED " + table).stream()
                .filter(r -> "Table Parameters:".equals(r[0]) && "rows".equals(r[1]))
                .map(r -> String.valueOf(r[2])).findFirst().orElseThrow();
    }
}
