package org.oooengine.hive.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.oooengine.hive.engine.SqlCluster.rows;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.oooengine.core.cluster.ClusterSession;
import org.oooengine.hive.sql.Cancellation;
import org.oooengine.core.sql.SqlException;
import org.oooengine.hive.sql.SqlSession;

/**
 * The embedded catalog over a cluster one node of which is down: tables created through SQL and
 * tables loaded onto the nodes are all still listed and described, row counts are the sums over
 * the nodes or name the node they lack, and reading or writing a table fails naming the node
 * rather than calling the table unknown. Once the node is back, everything reads as before.
 */
class CatalogWithANodeDownTest {
    @RegisterExtension
    static final SqlCluster cluster = SqlCluster.of("ooo-catalog-node-down", 3)
            .engine(tpch -> new ClusterSqlEngine(tpch.session, SqlCluster.catalogFile(tpch)));

    @Test
    void tablesStayListedAndDescribedAndTheirReadsNameTheNodeThatIsDown() throws Exception {
        SqlSession s = cluster.session();
        update(s, "CREATE DATABASE shop");
        update(s, "CREATE TABLE shop.items (id INT, name STRING, PRIMARY KEY (id) DISABLE NOVALIDATE)");
        update(s, "INSERT INTO shop.items VALUES (1, 'ink'), (2, 'pen'), (3, 'pad')");
        update(s, "CREATE TABLE notes (line STRING)");
        update(s, "INSERT INTO notes VALUES ('a'), ('b')");
        assertEquals(Long.toString(cluster.tpch().single.table("orders").rows()), rowsProperty(s, "orders"));
        assertEquals(Long.toString(cluster.tpch().single.table("lineitem").rows()), rowsProperty(s, "lineitem"));
        List<String> tables = column(rows(s, "SHOW TABLES"));

        String n2 = "127.0.0.1:" + cluster.tpch().cluster.spec.node("n2").port();
        cluster.tpch().cluster.stop("n2");
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
            cluster.tpch().cluster.restart("n2");
        }
        assertEquals(List.of("3"), column(rows(s, "SELECT count(*) FROM items")));
        assertEquals(List.of("2"), column(rows(s, "SELECT count(*) FROM default.notes")));
        Thread.sleep(ClusterSession.TABLES_MAX_AGE.toMillis());
        assertEquals(Long.toString(cluster.tpch().single.table("orders").rows()), rowsProperty(s, "default.orders"));
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
