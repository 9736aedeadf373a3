package org.oooengine.hive.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.trino.tpch.TpchTable;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.oooengine.core.tpch.DuckDbOracle;
import org.oooengine.hive.engine.ClusterSqlEngine;
import org.oooengine.hive.engine.OracleComparison;
import org.oooengine.hive.engine.SqlCluster;
import org.oooengine.hive.engine.TpchQueriesTest;

/**
 * A user's JDBC session against the real engine: the real Hive JDBC driver, the HiveServer2
 * endpoint, the SQL engine and a two-node cluster holding TPC-H — catalog and metadata calls, DDL,
 * LOAD DATA and INSERT, a TPC-H query checked against DuckDB, settings, EXPLAIN, a syntax error, a construct we do
 * not support yet, and the cancel of a long query.
 */
class JdbcEndToEndTest {
    /** The directory LOAD DATA may read files from. */
    private static Path incoming;

    @RegisterExtension
    @Order(1)
    static final SqlCluster cluster = SqlCluster.of("ooo-jdbc-test", 2, TpchTable.getTables())
            .engine(tpch -> {
                incoming = Files.createDirectories(tpch.dir.resolve("incoming"));
                return new ClusterSqlEngine(tpch.session, tpch.cluster.dir, null,
                        Map.of("ooo.load.allowed-dirs", incoming.toString()));
            });
    @RegisterExtension
    @Order(2)
    static final JdbcEndpoint endpoint = new JdbcEndpoint(cluster);

    private static Connection connect() throws SQLException {
        return endpoint.connect();
    }

    @Test
    void showTablesAndDescribeListTheCatalog() throws Exception {
        try (Connection c = connect(); Statement st = c.createStatement()) {
            List<String> tables = new ArrayList<>();
            try (ResultSet rs = st.executeQuery("SHOW TABLES")) {
                while (rs.next()) {
                    tables.add(rs.getString(1));
                }
            }
            assertTrue(tables.containsAll(List.of("customer", "lineitem", "nation", "orders", "part", "partsupp",
                    "region", "supplier")), tables.toString());
            try (ResultSet rs = st.executeQuery("DESCRIBE lineitem")) {
                assertTrue(rs.next());
                assertEquals("l_orderkey", rs.getString(1));
                assertEquals("bigint", rs.getString(2));
            }
            List<String> formatted = new ArrayList<>();
            try (ResultSet rs = st.executeQuery("DESCRIBE FORMATTED orders")) {
                while (rs.next()) {
                    formatted.add(rs.getString(1) + "=" + rs.getString(2));
                }
            }
            assertTrue(formatted.contains("Primary Key:=o_orderkey"), formatted.toString());
            assertTrue(formatted.contains("Indexed Columns:=o_totalprice, o_custkey")
                    || formatted.stream().anyMatch(l -> l.startsWith("Indexed Columns:=") && l.contains("o_totalprice")),
                    formatted.toString());
            DatabaseMetaData md = c.getMetaData();
            try (ResultSet rs = md.getColumns(null, "default", "lineitem", "l_extendedprice")) {
                assertTrue(rs.next());
                assertEquals(Types.DECIMAL, rs.getInt("DATA_TYPE"));
                assertEquals(15, rs.getInt("COLUMN_SIZE"));
                assertEquals(2, rs.getInt("DECIMAL_DIGITS"));
            }
        }
    }

    /** What a user does first with their own data: create a table, load a file, add rows, query, list, drop. */
    @Test
    void ddlLoadAndQueriesInOneSession() throws Exception {
        Path csv = incoming.resolve("items.csv");
        Files.writeString(csv, "1,ink,12.25,2024-01-01\n2,pen,1.5,\\N\n3,pad,4,2024-03-01\n");
        try (Connection c = connect(); Statement st = c.createStatement()) {
            st.execute("CREATE DATABASE shop");
            st.execute("USE shop");
            st.execute("CREATE TABLE items (id INT, name STRING, price DECIMAL(10,2), added DATE, "
                    + "PRIMARY KEY (id) DISABLE NOVALIDATE) ROW FORMAT DELIMITED FIELDS TERMINATED BY ',' "
                    + "STORED AS TEXTFILE TBLPROPERTIES ('ooo.indexes'='name')");
            st.execute("LOAD DATA LOCAL INPATH '" + csv + "' INTO TABLE items");
            assertEquals(1, st.executeUpdate("INSERT INTO items VALUES (4, 'cap', 7.5, DATE '2024-04-01')"));
            List<String> rows = new ArrayList<>();
            try (ResultSet rs = st.executeQuery("SELECT id, name, price, added FROM items ORDER BY id")) {
                while (rs.next()) {
                    rows.add(rs.getInt(1) + " " + rs.getString(2) + " " + rs.getBigDecimal(3) + " " + rs.getString(4));
                }
            }
            assertEquals(List.of("1 ink 12.25 2024-01-01", "2 pen 1.50 null", "3 pad 4.00 2024-03-01",
                    "4 cap 7.50 2024-04-01"), rows);
            st.execute("CREATE VIEW cheap COMMENT 'under 5' AS SELECT id, name FROM items WHERE price < 5");
            try (ResultSet rs = c.getMetaData().getTables(null, "shop", "%", null)) {
                assertTrue(rs.next());
                assertEquals("items", rs.getString("TABLE_NAME"));
                assertTrue(rs.next());
                assertEquals("cheap VIEW under 5", rs.getString("TABLE_NAME") + " " + rs.getString("TABLE_TYPE") + " "
                        + rs.getString("REMARKS"));
            }
            try (ResultSet rs = c.getMetaData().getColumns(null, "shop", "cheap", "%")) {
                assertTrue(rs.next());
                assertEquals("id", rs.getString("COLUMN_NAME"));
                assertTrue(rs.next());
                assertEquals("name", rs.getString("COLUMN_NAME"));
            }
            try (ResultSet rs = st.executeQuery("SELECT name FROM cheap ORDER BY name")) {
                List<String> names = new ArrayList<>();
                while (rs.next()) {
                    names.add(rs.getString(1));
                }
                assertEquals(List.of("pad", "pen"), names);
            }
            st.execute("DROP VIEW cheap");
            SQLException dup = assertThrows(SQLException.class, () -> st.execute("INSERT INTO items VALUES (4, 'x', 1, NULL)"));
            assertEquals("23000", dup.getSQLState(), dup.getMessage());
            st.execute("DROP TABLE items");
            st.execute("USE default");
            st.execute("DROP DATABASE shop");
        }
    }

    /** Keys Hive declares, as JDBC tools read them; SHOW CREATE TABLE, ALTER TABLE and SORT BY from a client. */
    @Test
    void keysAlterTableAndSortByOverJdbc() throws Exception {
        try (Connection c = connect(); Statement st = c.createStatement()) {
            st.execute("CREATE DATABASE keys");
            st.execute("CREATE TABLE keys.kinds (k INT, label STRING, CONSTRAINT pk_kinds PRIMARY KEY (k) DISABLE NOVALIDATE)");
            st.execute("CREATE TABLE keys.things (id INT, kind INT, PRIMARY KEY (id) DISABLE NOVALIDATE, "
                    + "CONSTRAINT fk_kind FOREIGN KEY (kind) REFERENCES keys.kinds(k) DISABLE NOVALIDATE RELY)");
            st.execute("INSERT INTO keys.things VALUES (1, 20), (2, 10), (3, 20)");
            DatabaseMetaData md = c.getMetaData();
            try (ResultSet rs = md.getPrimaryKeys(null, "keys", "kinds")) {
                assertTrue(rs.next());
                assertEquals("k pk_kinds", rs.getString("COLUMN_NAME") + " " + rs.getString("PK_NAME"));
            }
            try (ResultSet rs = md.getCrossReference(null, "keys", "kinds", null, "keys", "things")) {
                assertTrue(rs.next());
                assertEquals("keys.kinds.k <- keys.things.kind 1 fk_kind pk_kinds", rs.getString("PKTABLE_SCHEM") + "."
                        + rs.getString("PKTABLE_NAME") + "." + rs.getString("PKCOLUMN_NAME") + " <- "
                        + rs.getString("FKTABLE_SCHEM") + "." + rs.getString("FKTABLE_NAME") + "."
                        + rs.getString("FKCOLUMN_NAME") + " " + rs.getInt("KEY_SEQ") + " " + rs.getString("FK_NAME") + " "
                        + rs.getString("PK_NAME"));
                assertFalse(rs.next());
            }
            try (ResultSet rs = md.getCrossReference(null, "keys", "things", null, "keys", "kinds")) {
                assertFalse(rs.next());
            }
            List<String> created = new ArrayList<>();
            try (ResultSet rs = st.executeQuery("SHOW CREATE TABLE keys.things")) {
                while (rs.next()) {
                    created.add(rs.getString(1));
                }
            }
            assertTrue(created.contains("  CONSTRAINT `fk_kind` FOREIGN KEY (`kind`) REFERENCES `keys`.`kinds` (`k`) "
                    + "DISABLE NOVALIDATE RELY"), created.toString());
            st.execute("ALTER TABLE keys.things RENAME TO keys.items");
            st.execute("ALTER TABLE keys.items ADD COLUMNS (note STRING)");
            List<String> rows = new ArrayList<>();
            try (ResultSet rs = st.executeQuery("SELECT id, kind, note FROM keys.items SORT BY kind DESC, id")) {
                while (rs.next()) {
                    rows.add(rs.getInt(1) + " " + rs.getInt(2) + " " + rs.getString(3));
                }
            }
            assertEquals(List.of("1 20 null", "3 20 null", "2 10 null"), rows);
            st.execute("DROP TABLE keys.things"); // gone: no error, as in Hive
            st.execute("DROP DATABASE keys CASCADE");
        }
    }

    @Test
    void tpchQ3OverJdbcMatchesDuckDb() throws Exception {
        String sql = TpchQueriesTest.text("queries/tpch/q03.sql");
        try (Connection c = connect(); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            assertEquals("revenue", rs.getMetaData().getColumnLabel(2));
            List<Object[]> ours = DuckDbOracle.rows(rs);
            assertEquals(10, ours.size());
            assertTrue(ours.get(0)[1] instanceof BigDecimal, "revenue arrives as a DECIMAL");
            assertNull(OracleComparison.difference(ours, cluster.oracle().rows(sql), true));
        }
    }

    @Test
    void settingsAndExplain() throws Exception {
        try (Connection c = connect(); Statement st = c.createStatement()) {
            assertEquals(0, st.executeUpdate("SET ooo.execution.mode=daemon"));
            try (ResultSet rs = st.executeQuery("SET ooo.execution.mode")) {
                assertTrue(rs.next());
                assertEquals("ooo.execution.mode=daemon", rs.getString(1));
            }
            try (ResultSet rs = st.executeQuery("EXPLAIN SELECT n_name, r_name FROM nation JOIN region ON n_regionkey = r_regionkey")) {
                StringBuilder plan = new StringBuilder();
                while (rs.next()) {
                    plan.append(rs.getString(1)).append('\n');
                }
                assertTrue(plan.toString().contains("HashJoin INNER"), plan.toString());
                assertTrue(plan.toString().contains("Scan default.region"), plan.toString());
            }
            try (ResultSet rs = st.executeQuery("EXPLAIN ANALYZE SELECT count(*) FROM nation JOIN region ON n_regionkey = r_regionkey")) {
                List<String> plan = new ArrayList<>();
                while (rs.next()) {
                    plan.add(rs.getString(1));
                }
                assertTrue(plan.get(0).contains("[actual rows 1,"), plan.toString());
                // region is broadcast (its 5 rows read once), the join and a partial count run on each node
                assertTrue(plan.stream().anyMatch(l -> l.contains("Gather [r_regionkey]") && l.contains("[actual rows 5,")),
                        plan.toString());
                assertTrue(plan.stream().anyMatch(l -> l.contains("[each node] HashJoin INNER")), plan.toString());
            }
            SQLException mode = assertThrows(SQLException.class, () -> st.execute("SET ooo.execution.mode=bogus"));
            assertEquals("42000", mode.getSQLState());
            assertTrue(mode.getMessage().contains("expected daemon or mapreduce"), mode.getMessage());
            SQLException method = assertThrows(SQLException.class, () -> st.execute("SET ooo.join.method=nested"));
            assertTrue(method.getMessage().contains("ooo.join.method is 'nested'; expected auto, index, hash or psmj"), method.getMessage());
            SQLException noDb = assertThrows(SQLException.class, () -> st.execute("USE nosuchdb"));
            assertTrue(noDb.getMessage().contains("database does not exist: nosuchdb"), noDb.getMessage());
        }
    }

    private static List<String> rows(Statement st, String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (ResultSet rs = st.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                List<String> row = new ArrayList<>();
                for (int i = 1; i <= n; i++) {
                    row.add(rs.getString(i));
                }
                out.add(String.join(" ", row));
            }
        }
        return out;
    }

    /** Hive's ACID tables through the Hive driver: DDL, INSERT, UPDATE across every node, DELETE, MERGE, bad DML. */
    @Test
    void transactionalTablesTakeHiveAcidStatements() throws Exception {
        try (Connection c = connect(); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE stock_acid (item INT, qty INT, PRIMARY KEY (item) DISABLE NOVALIDATE) "
                    + "STORED AS ORC TBLPROPERTIES ('transactional'='true')");
            assertEquals(6, st.executeUpdate("INSERT INTO stock_acid VALUES (1, 10), (2, 20), (3, 30), (4, 40), (5, 50), (6, 60)"));
            assertEquals(6, st.executeUpdate("UPDATE stock_acid SET qty = qty - 1"));
            assertEquals(1, st.executeUpdate("DELETE FROM stock_acid WHERE item = 6"));
            assertEquals(2, st.executeUpdate("MERGE INTO stock_acid t USING (SELECT 1 AS item, 5 AS qty UNION ALL "
                    + "SELECT 7 AS item, 70 AS qty) s ON t.item = s.item WHEN MATCHED THEN UPDATE SET qty = t.qty + s.qty "
                    + "WHEN NOT MATCHED THEN INSERT VALUES (s.item, s.qty)"));
            assertEquals(List.of("1 14", "2 19", "3 29", "4 39", "5 49", "7 70"), rows(st, "SELECT * FROM stock_acid ORDER BY item"));
            SQLException dup = assertThrows(SQLException.class, () -> st.executeUpdate("INSERT INTO stock_acid VALUES (8, 1), (1, 1)"));
            assertEquals("23000", dup.getSQLState(), dup.getMessage());
            SQLException bad = assertThrows(SQLException.class, () -> st.executeUpdate("UPDATE stock_acid SET qty = WHERE item = 1"));
            assertEquals("42000", bad.getSQLState(), bad.getMessage());
            assertTrue(bad.getMessage().contains("line 1:"), bad.getMessage());
            assertEquals(List.of("6"), rows(st, "SELECT count(*) FROM stock_acid"), "nothing of the failed statements stayed");
            st.execute("DROP TABLE stock_acid");
        }
    }

    /**
     * Concurrent UPDATEs of the same rows from several connections: each one that succeeded counts
     * once in the result (a serializable outcome); with retries off, conflicts reach the clients as 40001.
     */
    @Test
    void conflictingUpdatesFromSeveralClientsAreSerializableOrRefusedWith40001() throws Exception {
        try (Connection c = connect(); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE hits (page INT, n BIGINT, PRIMARY KEY (page) DISABLE NOVALIDATE) "
                    + "TBLPROPERTIES ('transactional'='true')");
            st.executeUpdate("INSERT INTO hits VALUES (1, 0), (2, 0), (3, 0), (4, 0)");
            java.util.concurrent.atomic.AtomicInteger applied = new java.util.concurrent.atomic.AtomicInteger();
            java.util.concurrent.atomic.AtomicInteger refused = new java.util.concurrent.atomic.AtomicInteger();
            List<CompletableFuture<Void>> clients = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                clients.add(CompletableFuture.runAsync(() -> {
                    try (Connection mine = connect(); Statement s = mine.createStatement()) {
                        s.execute("SET ooo.transaction.attempts=1");
                        for (int k = 0; k < 25; k++) {
                            try {
                                assertEquals(4, s.executeUpdate("UPDATE hits SET n = n + 1"));
                                applied.incrementAndGet();
                            } catch (SQLException e) {
                                assertEquals("40001", e.getSQLState(), e.getMessage());
                                refused.incrementAndGet();
                            }
                        }
                    } catch (SQLException e) {
                        throw new IllegalStateException(e);
                    }
                }));
            }
            CompletableFuture.allOf(clients.toArray(CompletableFuture[]::new)).get(180, TimeUnit.SECONDS);
            String n = String.valueOf(applied.get());
            assertEquals(List.of("1 " + n, "2 " + n, "3 " + n, "4 " + n), rows(st, "SELECT * FROM hits ORDER BY page"));
            assertTrue(applied.get() > 0 && refused.get() > 0, applied + " applied, " + refused + " refused");
            st.execute("DROP TABLE hits");
        }
    }

    @Test
    void syntaxErrorNamesTheTokenAndPosition() throws Exception {
        try (Connection c = connect(); Statement st = c.createStatement()) {
            SQLException e = assertThrows(SQLException.class, () -> st.executeQuery("SELECT n_name FORM nation"));
            assertEquals("42000", e.getSQLState());
            assertTrue(e.getMessage().contains("line 1:"), e.getMessage());
            assertTrue(e.getMessage().contains("nation"), e.getMessage());
            // the session is still usable
            try (ResultSet rs = st.executeQuery("SELECT count(*) FROM region")) {
                assertTrue(rs.next());
                assertEquals(5, rs.getLong(1));
            }
        }
    }

    @Test
    void unsupportedConstructIsRefusedByName() throws Exception {
        try (Connection c = connect(); Statement st = c.createStatement()) {
            SQLException e = assertThrows(SQLException.class, () -> st.executeQuery(
                    "SELECT n_name FROM nation LATERAL VIEW json_tuple(n_comment, 'a') t AS x"));
            assertEquals("0A000", e.getSQLState());
            assertTrue(e.getMessage().contains("not supported yet: table function json_tuple (only explode and posexplode) "
                    + "at line 1:"), e.getMessage());
            SQLException unknown = assertThrows(SQLException.class, () -> st.executeQuery("SELECT nope FROM nation"));
            assertTrue(unknown.getMessage().contains("unknown column 'nope' at line 1:7"), unknown.getMessage());
        }
    }

    @Test
    void cancelStopsALongQuery() throws Exception {
        try (Connection c = connect(); Statement st = c.createStatement()) {
            // 60,000 x 60,000 pairs: minutes of work, no rows kept
            CompletableFuture<Throwable> outcome = CompletableFuture.supplyAsync(() -> {
                try {
                    st.executeQuery("SELECT count(*) FROM lineitem a, lineitem b WHERE a.l_orderkey + b.l_orderkey < 0");
                    return null;
                } catch (SQLException e) {
                    return e;
                }
            });
            IsolatedHiveDriver.awaitRunning(st, 30);
            st.cancel();
            // Failing instead of answering is the behaviour: the 60 s allowed are many times what a
            // cancel takes on a quiet machine, and far less than the query's own work.
            Throwable t = outcome.get(60, TimeUnit.SECONDS);
            assertTrue(t instanceof SQLException, "the cancelled query failed: " + t);
            assertTrue(t.getMessage().contains("cancel"), t.getMessage());
        }
        // the engine serves the next statement
        try (Connection c = connect(); Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT count(*) FROM nation")) {
            assertTrue(rs.next());
            assertEquals(25, rs.getLong(1));
        }
    }

}
