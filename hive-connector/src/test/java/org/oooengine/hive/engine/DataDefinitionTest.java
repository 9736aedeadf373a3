package org.oooengine.hive.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.oooengine.hive.engine.SqlCluster.rows;

import io.trino.tpch.TpchTable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.oooengine.core.types.Column;
import org.oooengine.core.types.DataType;
import org.oooengine.core.types.Schema;
import org.oooengine.hive.files.OrcTestFiles;
import org.oooengine.hive.sql.Cancellation;
import org.oooengine.core.sql.SqlException;
import org.oooengine.hive.sql.SqlSession;

/**
 * DDL and DML in Hive syntax on a three-node cluster holding TPC-H: databases and tables are
 * created, filled, read, replaced and dropped; the catalog survives the coordinator; results of
 * CREATE TABLE ... AS SELECT and INSERT ... SELECT match DuckDB.
 */
class DataDefinitionTest {
    /** The directory LOAD DATA may read files from. */
    private static Path incoming;

    @RegisterExtension
    static final SqlCluster cluster = SqlCluster.of("ooo-ddl-test", 3,
            TpchTable.ORDERS, TpchTable.CUSTOMER, TpchTable.NATION)
            .engine(tpch -> {
                incoming = Files.createDirectories(tpch.dir.resolve("incoming"));
                return new ClusterSqlEngine(tpch.session, tpch.cluster.dir, SqlCluster.catalogFile(tpch),
                        Map.of(LoadableFiles.ALLOWED_DIRS_SETTING, incoming.toString()));
            });

    private static SqlSession session() {
        return cluster.session();
    }

    private static long update(SqlSession s, String sql) {
        return s.execute(sql, new Cancellation()).updateCount();
    }

    private static List<String> render(List<Object[]> rows) {
        return rows.stream().map(Arrays::toString).toList();
    }

    @Test
    void aTableIsCreatedFilledReadAndKeptByItsKey() {
        SqlSession s = session();
        update(s, "CREATE DATABASE IF NOT EXISTS sales COMMENT 'orders of the shop'");
        update(s, "USE sales");
        update(s, "CREATE TABLE items (id INT COMMENT 'item number', name STRING, price DECIMAL(10,2), added DATE, "
                + "PRIMARY KEY (id) DISABLE NOVALIDATE) COMMENT 'what we sell' TBLPROPERTIES ('ooo.indexes'='name')");
        assertEquals(3, update(s, "INSERT INTO items VALUES (2, 'pen', 1.5, DATE '2024-01-02'), "
                + "(1, 'ink', 12.25, DATE '2024-01-01'), (3, 'pad', 4, NULL)"));
        assertEquals(1, update(s, "INSERT INTO TABLE items (name, id) VALUES ('cap', 4)"));
        assertEquals(List.of("[1, ink, 12.25, 2024-01-01]", "[2, pen, 1.50, 2024-01-02]", "[3, pad, 4.00, null]",
                "[4, cap, null, null]"), render(rows(s, "SELECT id, name, price, added FROM items ORDER BY id")));
        assertEquals(List.of("[pen]"), render(rows(s, "SELECT name FROM sales.items WHERE price < 2")));

        SqlException dup = assertThrows(SqlException.class, () -> update(s, "INSERT INTO items VALUES (1, 'again', 1, NULL)"));
        assertEquals(SqlException.CONSTRAINT, dup.sqlState(), dup.getMessage());
        assertTrue(dup.getMessage().contains("duplicate primary key"), dup.getMessage());
        assertEquals(List.of("[4]"), render(rows(s, "SELECT count(*) FROM items")));

        SqlException nullKey = assertThrows(SqlException.class, () -> update(s, "INSERT INTO items (name) VALUES ('x')"));
        assertTrue(nullKey.getMessage().contains("primary key column id of items is NULL"), nullKey.getMessage());

        List<String> described = render(rows(s, "DESCRIBE FORMATTED items"));
        assertTrue(described.contains("[id, int, item number]"), described.toString());
        assertTrue(described.contains("[Primary Key:, id, null]"), described.toString());
        assertTrue(described.contains("[Indexed Columns:, name, null]"), described.toString());
        assertTrue(render(rows(s, "SHOW TABLES")).contains("[items]"));
        assertTrue(render(rows(s, "SHOW DATABASES")).contains("[sales]"));

        SqlException notEmpty = assertThrows(SqlException.class, () -> update(s, "DROP DATABASE sales"));
        assertTrue(notEmpty.getMessage().contains("CASCADE"), notEmpty.getMessage());
        update(s, "USE default");
        update(s, "DROP DATABASE sales CASCADE");
        assertTrue(!render(rows(s, "SHOW DATABASES")).contains("[sales]"));
        assertThrows(SqlException.class, () -> rows(s, "SELECT * FROM sales.items"));
    }

    @Test
    void aTableWithoutKeyKeepsRepeatedRows() {
        SqlSession s = session();
        update(s, "CREATE TABLE visits (page STRING, n BIGINT)");
        update(s, "INSERT INTO visits VALUES ('home', 1), ('home', 1)");
        update(s, "INSERT INTO visits SELECT page, n + 1 FROM visits");
        assertEquals(List.of("[home, 1, 2]", "[home, 2, 2]"),
                render(rows(s, "SELECT page, n, count(*) FROM visits GROUP BY page, n ORDER BY n")));
        assertEquals(List.of("[page, string, ]", "[n, bigint, ]"), render(rows(s, "DESCRIBE visits")));
        update(s, "DROP TABLE visits");
        assertThrows(SqlException.class, () -> rows(s, "SELECT * FROM visits"));
        assertEquals(0, update(s, "DROP TABLE IF EXISTS visits"));
    }

    @Test
    void createTableAsSelectAndInsertOverwriteMatchDuckDb() throws Exception {
        SqlSession s = session();
        String query = "SELECT o_orderkey, o_custkey, o_totalprice, o_orderdate FROM orders WHERE o_totalprice > 300000";
        long n = update(s, "CREATE TABLE big_orders TBLPROPERTIES ('ooo.primary.key'='o_orderkey', 'ooo.indexes'='o_custkey') AS "
                + query);
        List<Object[]> expected = cluster.oracle().rows(query);
        assertEquals(expected.size(), n);
        assertNull(OracleComparison.difference(rows(s, "SELECT * FROM big_orders"), expected, false));

        // the new table joins with a loaded one, by index or by hash, as the chooser decides
        String join = "SELECT b.o_orderkey, n_name FROM big_orders b JOIN orders o ON b.o_orderkey = o.o_orderkey "
                + "JOIN customer c ON o.o_custkey = c.c_custkey JOIN nation ON c_nationkey = n_nationkey "
                + "WHERE b.o_orderkey BETWEEN 1000 AND 30000";
        assertNull(OracleComparison.difference(rows(s, join),
                cluster.oracle().rows(join.replace("big_orders b", "(" + query + ") b")), false));

        String smaller = "SELECT o_orderkey, o_custkey, o_totalprice, o_orderdate FROM orders WHERE o_totalprice > 400000";
        update(s, "INSERT OVERWRITE TABLE big_orders " + smaller);
        assertNull(OracleComparison.difference(rows(s, "SELECT * FROM big_orders"), cluster.oracle().rows(smaller), false));
        update(s, "DROP TABLE big_orders");
    }

    /**
     * The rows an INSERT ... SELECT writes are held on the coordinator before they are written:
     * more than the statement's memory allows are refused naming the limit and the setting that
     * raises it, nothing is written, and the coordinator goes on (before, it ran out of heap).
     */
    @Test
    void rowsToWriteBeyondTheStatementsMemoryAreRefusedNamingTheLimit() throws Exception {
        SqlSession small = cluster.session(Map.of("ooo.query.max-memory", "200000"));
        update(small, "CREATE TABLE order_notes (o_orderkey BIGINT, o_comment STRING, PRIMARY KEY (o_orderkey) DISABLE NOVALIDATE)");
        String copy = "INSERT INTO order_notes SELECT o_orderkey, o_comment FROM orders";
        SqlException full = assertThrows(SqlException.class, () -> update(small, copy));
        assertEquals(SqlException.OUT_OF_MEMORY, full.sqlState(), full.getMessage());
        assertTrue(full.getMessage().contains("holding the rows a statement writes on the coordinator needs more than "
                + "the query's memory limit") && full.getMessage().contains("ooo.query.max-memory"), full.getMessage());
        assertEquals(List.of("[0]"), render(rows(small, "SELECT count(*) FROM order_notes")));
        SqlSession s = session();
        assertEquals(cluster.oracle().rows("SELECT count(*) FROM orders").get(0)[0], update(s, copy));
        update(s, "DROP TABLE order_notes");
    }

    /**
     * INSERT INTO, UPDATE and DELETE write rows in place into the partitions' B+trees; what a scan,
     * an index lookup and a count read afterwards is what DuckDB computes from the same changes.
     */
    @Test
    void insertUpdateAndDeleteWriteInPlaceAndMatchDuckDb() throws Exception {
        SqlSession s = session();
        String columns = "o_orderkey, o_custkey, o_totalprice, o_orderstatus, o_comment";
        update(s, "CREATE TABLE dml_orders TBLPROPERTIES ('ooo.primary.key'='o_orderkey', 'ooo.indexes'='o_custkey', "
                + "'ooo.split.policy'='prefix') AS SELECT " + columns + " FROM orders");
        String added = "SELECT o_orderkey + 1000000 AS o_orderkey, o_custkey, o_totalprice, o_orderstatus, o_comment "
                + "FROM orders WHERE o_orderkey < 20000";
        assertEquals(cluster.oracle().rows(added).size(), update(s, "INSERT INTO dml_orders " + added));
        String both = "(SELECT " + columns + " FROM orders UNION ALL " + added + ") x";

        long updated = update(s, "UPDATE dml_orders SET o_totalprice = o_totalprice * 2, o_comment = 'doubled' "
                + "WHERE o_custkey < 100");
        assertEquals(cluster.oracle().rows("SELECT 1 FROM " + both + " WHERE o_custkey < 100").size(), updated);
        long deleted = update(s, "DELETE FROM dml_orders WHERE o_orderstatus = 'F' AND o_orderkey < 30000");
        assertEquals(cluster.oracle().rows("SELECT 1 FROM " + both + " WHERE o_orderstatus = 'F' AND o_orderkey < 30000").size(),
                deleted);

        String expected = "SELECT o_orderkey, o_custkey, CASE WHEN o_custkey < 100 THEN o_totalprice * 2 ELSE o_totalprice "
                + "END AS o_totalprice, o_orderstatus, CASE WHEN o_custkey < 100 THEN 'doubled' ELSE o_comment END AS o_comment "
                + "FROM " + both + " WHERE NOT (o_orderstatus = 'F' AND o_orderkey < 30000)";
        assertNull(OracleComparison.difference(rows(s, "SELECT * FROM dml_orders"), cluster.oracle().rows(expected), false));
        assertNull(OracleComparison.difference(rows(s, "SELECT o_orderkey, o_comment FROM dml_orders WHERE o_custkey = 49"),
                cluster.oracle().rows("SELECT o_orderkey, o_comment FROM (" + expected + ") e WHERE o_custkey = 49"), false),
                "the index follows the writes");
        assertEquals(0, update(s, "UPDATE dml_orders SET o_comment = 'none' WHERE o_orderkey < 0"));

        SqlException key = assertThrows(SqlException.class, () -> update(s, "UPDATE dml_orders SET o_orderkey = 1"));
        assertTrue(key.getMessage().contains("UPDATE of primary key column o_orderkey"), key.getMessage());
        SqlException column = assertThrows(SqlException.class, () -> update(s, "UPDATE dml_orders SET nope = 1"));
        assertEquals(SqlException.UNKNOWN_COLUMN, column.sqlState(), column.getMessage());
        update(s, "CREATE TABLE dml_keyless (a INT)");
        SqlException keyless = assertThrows(SqlException.class, () -> update(s, "DELETE FROM dml_keyless WHERE a = 1"));
        assertTrue(keyless.getMessage().contains("which has no PRIMARY KEY"), keyless.getMessage());
        SqlException policy = assertThrows(SqlException.class, () -> update(s,
                "CREATE TABLE dml_bad (a INT) TBLPROPERTIES ('ooo.split.policy'='sideways')"));
        assertTrue(policy.getMessage().contains("unknown split policy 'sideways'"), policy.getMessage());

        long left = cluster.oracle().rows(expected).size();
        List<Object[]> health = rows(s, "SELECT node, tree, leaves, entries, fill FROM sys.tree_health "
                + "WHERE key_range = 0 AND table_name LIKE '%dml_orders%'");
        assertEquals(6, health.size(), "the clustered tree and the index on each of 3 nodes: " + render(health));
        assertEquals(left, health.stream().filter(h -> h[1].equals("data")).mapToLong(h -> (Long) h[3]).sum());
        assertTrue(health.stream().allMatch(h -> (Double) h[4] > 0.3 && (Double) h[4] <= 1.0), render(health).toString());
        List<String> described = render(rows(s, "DESCRIBE FORMATTED dml_orders"));
        assertTrue(described.contains("[# B+tree Health, null, null]"), described.toString());
        assertTrue(described.stream().anyMatch(d -> d.startsWith("[data:, ") && d.contains("leaves")), described.toString());
        assertEquals(List.of("[n1, UP]", "[n2, UP]", "[n3, UP]"),
                render(rows(s, "SELECT node, state FROM sys.nodes ORDER BY node")));
        SqlException system = assertThrows(SqlException.class, () -> update(s,
                "DELETE FROM sys.tree_health WHERE leaves = 0"));
        assertTrue(system.getMessage().contains("is a system table"), system.getMessage());
        assertEquals(left, update(s, "DELETE FROM dml_orders"));
        assertEquals(List.of("[0]"), render(rows(s, "SELECT count(*) FROM dml_orders")));
        assertEquals(List.of("[0]"), render(rows(s, "SELECT sum(entries) FROM sys.tree_health WHERE key_range = 0 "
                + "AND tree = 'data' AND table_name LIKE '%dml_orders%'")), "a node's kept answer goes with a write");
        update(s, "DROP TABLE dml_orders");
        update(s, "DROP TABLE dml_keyless");
    }

    @Test
    void loadDataReadsTextAndOrcFilesInTheTablesFormat() throws Exception {
        SqlSession s = session();
        Path files = Files.createDirectories(incoming.resolve("text-and-orc"));
        Path csv = Files.createDirectories(files.resolve("csv"));
        Files.writeString(csv.resolve("part-0"), "1,ink,12.25\n2,pen,\\N\n");
        Files.writeString(csv.resolve("part-1"), "3,pad,4\n");
        Files.writeString(csv.resolve("_SUCCESS"), "");
        update(s, "CREATE TABLE csv_items (id INT, name STRING, price DECIMAL(10,2), PRIMARY KEY (id) DISABLE NOVALIDATE) "
                + "ROW FORMAT DELIMITED FIELDS TERMINATED BY ','");
        assertEquals(3, update(s, "LOAD DATA LOCAL INPATH '" + csv + "' INTO TABLE csv_items"));
        assertEquals(List.of("[1, ink, 12.25]", "[2, pen, null]", "[3, pad, 4.00]"),
                render(rows(s, "SELECT * FROM csv_items ORDER BY id")));

        Path bad = files.resolve("bad.csv");
        Files.writeString(bad, "9,ok,1\n10,oops,not-a-number\n");
        SqlException e = assertThrows(SqlException.class,
                () -> update(s, "LOAD DATA LOCAL INPATH '" + bad + "' INTO TABLE csv_items"));
        assertEquals(SqlException.DATA, e.sqlState(), e.getMessage());
        assertTrue(e.getMessage().contains("bad.csv, line 2"), e.getMessage());
        assertEquals(List.of("[3]"), render(rows(s, "SELECT count(*) FROM csv_items")), "a failed load changes nothing");

        update(s, "CREATE TABLE orc_items (id INT, name STRING, price DECIMAL(10,2)) STORED AS ORC");
        Path orc = files.resolve("items.orc");
        Schema stored = new Schema(List.of(new Column("id", DataType.INT), new Column("name", DataType.varchar(0)),
                new Column("price", DataType.decimal(10, 2))));
        OrcTestFiles.write(orc, stored, List.of(new Object[] {5, "cap", 750L}, new Object[] {5, "cap", 750L}));
        assertEquals(2, update(s, "LOAD DATA LOCAL INPATH '" + orc + "' INTO TABLE orc_items"));
        assertEquals(2, update(s, "LOAD DATA LOCAL INPATH '" + orc + "' OVERWRITE INTO TABLE orc_items"));
        assertEquals(List.of("[5, cap, 7.50, 2]"),
                render(rows(s, "SELECT id, name, price, count(*) FROM orc_items GROUP BY id, name, price")));
        update(s, "DROP TABLE csv_items");
        update(s, "DROP TABLE orc_items");
    }

    @Test
    void theCatalogOutlivesTheCoordinator() {
        SqlSession s = session();
        update(s, "CREATE DATABASE kept");
        update(s, "CREATE TABLE kept.t (k INT, v DATE, PRIMARY KEY (k) DISABLE NOVALIDATE)");
        update(s, "INSERT INTO kept.t VALUES (7, DATE '2020-02-29')");
        ClusterSqlEngine restarted = new ClusterSqlEngine(cluster.tpch().session, cluster.catalogFile());
        SqlSession again = restarted.openSession("test", "kept", Map.of());
        List<Object[]> r = rows(again, "SELECT k, v FROM t");
        assertEquals(1, r.size());
        assertEquals(7, r.get(0)[0]);
        assertEquals(LocalDate.of(2020, 2, 29), r.get(0)[1]);
        update(again, "DROP DATABASE kept CASCADE");
    }

    @Test
    void unsupportedOrWrongDefinitionsAreRefusedByName() {
        SqlSession s = session();
        SqlException partitioned = assertThrows(SqlException.class,
                () -> update(s, "CREATE TABLE p (a INT) PARTITIONED BY (d STRING)"));
        assertEquals(SqlException.NOT_SUPPORTED, partitioned.sqlState());
        assertTrue(partitioned.getMessage().startsWith("not supported yet: PARTITIONED BY"), partitioned.getMessage());
        assertTrue(partitioned.getMessage().contains("line 1:"), partitioned.getMessage());

        SqlException badKey = assertThrows(SqlException.class,
                () -> update(s, "CREATE TABLE k (a INT, PRIMARY KEY (b) DISABLE NOVALIDATE)"));
        assertEquals(SqlException.UNKNOWN_COLUMN, badKey.sqlState(), badKey.getMessage());

        SqlException type = assertThrows(SqlException.class, () -> update(s, "CREATE TABLE bin (a BINARY)"));
        assertTrue(type.getMessage().startsWith("not supported yet: column type binary"), type.getMessage());

        SqlException exists = assertThrows(SqlException.class, () -> update(s, "CREATE TABLE nation (a INT)"));
        assertEquals(SqlException.ALREADY_EXISTS, exists.sqlState());

        SqlException width = assertThrows(SqlException.class, () -> update(s, "INSERT INTO nation VALUES (1, 'x')"));
        assertTrue(width.getMessage().contains("2 values for 4 columns"), width.getMessage());
    }
}
