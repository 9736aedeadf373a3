package org.oooengine.hive.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.trino.tpch.TpchTable;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.oooengine.hive.engine.ClusterSqlEngine;
import org.oooengine.hive.engine.SqlCluster;

/**
 * Column types as the real Hive JDBC driver sees them: result metadata (getColumnType,
 * getColumnTypeName), the Java values it returns, and DatabaseMetaData.getColumns, for TINYINT,
 * SMALLINT, FLOAT, BOOLEAN and TIMESTAMP columns (java.sql.Timestamp, as from HiveServer2), and
 * DECIMAL(38,10) (java.math.BigDecimal with its precision and scale).
 */
class JdbcTypesTest {
    @RegisterExtension
    @Order(1)
    static final SqlCluster cluster = SqlCluster.of("ooo-jdbc-types", 2, TpchTable.NATION)
            .engine(tpch -> new ClusterSqlEngine(tpch.session, tpch.cluster.dir, null, Map.of()));
    @RegisterExtension
    @Order(2)
    static final JdbcEndpoint endpoint = new JdbcEndpoint(cluster);

    @BeforeAll
    static void createTables() throws Exception {
        try (Connection c = connect(); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE small (t TINYINT, s SMALLINT, f FLOAT, b BOOLEAN)");
            st.execute("INSERT INTO small VALUES (-5, 1200, 0.1, true), (NULL, NULL, NULL, NULL)");
            st.execute("CREATE TABLE times (id INT, ts TIMESTAMP)");
            st.execute("INSERT INTO times VALUES (1, TIMESTAMP '2024-01-02 03:04:05.123'), (2, NULL), "
                    + "(3, TIMESTAMP '1969-07-20 20:17:40')");
            st.execute("CREATE TABLE texts (c CHAR(5), v VARCHAR(3))");
            st.execute("INSERT INTO texts VALUES ('ab', 'abcdef')");
            st.execute("CREATE TABLE wide (id INT, amount DECIMAL(38,10))");
            st.execute("INSERT INTO wide VALUES (1, 9999999999999999999999999999.9999999999), (2, NULL), (3, -0.5)");
        }
    }

    private static Connection connect() throws SQLException {
        return endpoint.connect();
    }

    @Test
    void smallNumbersFloatsAndBooleansKeepTheirTypes() throws Exception {
        try (Connection c = connect(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT t, s, f, b, t + s, f * 2 FROM small ORDER BY t NULLS LAST")) {
            ResultSetMetaData md = rs.getMetaData();
            List<String> names = new ArrayList<>();
            List<Integer> codes = new ArrayList<>();
            for (int i = 1; i <= md.getColumnCount(); i++) {
                names.add(md.getColumnTypeName(i));
                codes.add(md.getColumnType(i));
            }
            assertEquals(List.of("tinyint", "smallint", "float", "boolean", "smallint", "float"), names);
            assertEquals(List.of(Types.TINYINT, Types.SMALLINT, Types.FLOAT, Types.BOOLEAN, Types.SMALLINT, Types.FLOAT), codes);
            assertTrue(rs.next());
            assertEquals((byte) -5, rs.getByte(1));
            assertEquals((short) 1200, rs.getShort(2));
            assertEquals(0.1f, rs.getFloat(3));
            assertEquals(0.1, rs.getDouble(3), "sent as the double its text reads as, as HiveServer2 sends it");
            assertTrue(rs.getBoolean(4));
            assertEquals(1195, rs.getInt(5));
            assertEquals(0.2f, rs.getFloat(6));
            assertTrue(rs.next());
            assertNull(rs.getObject(1));
            assertNull(rs.getObject(3));
            assertNull(rs.getObject(4));
            assertFalse(rs.next());
        }
    }

    @Test
    void timestampsArriveAsJavaSqlTimestamps() throws Exception {
        try (Connection c = connect(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT ts, CAST(ts AS DATE), current_timestamp FROM times ORDER BY id")) {
            ResultSetMetaData md = rs.getMetaData();
            assertEquals("timestamp", md.getColumnTypeName(1));
            assertEquals(Types.TIMESTAMP, md.getColumnType(1));
            assertEquals(Types.TIMESTAMP, md.getColumnType(3));
            assertTrue(rs.next());
            assertEquals(Timestamp.valueOf("2024-01-02 03:04:05.123"), rs.getTimestamp(1));
            assertEquals(Timestamp.valueOf("2024-01-02 03:04:05.123"), rs.getObject(1));
            assertEquals("2024-01-02 03:04:05.123", rs.getString(1));
            assertEquals(java.sql.Date.valueOf("2024-01-02"), rs.getDate(2));
            assertTrue(rs.getTimestamp(3).after(Timestamp.valueOf("2024-01-01 00:00:00")));
            assertTrue(rs.next());
            assertNull(rs.getTimestamp(1));
            assertTrue(rs.next());
            assertEquals(Timestamp.valueOf("1969-07-20 20:17:40"), rs.getTimestamp(1));
            assertFalse(rs.next());
        }
        try (Connection c = connect(); ResultSet rs = c.getMetaData().getColumns(null, "default", "times", "ts")) {
            assertTrue(rs.next());
            assertEquals(Types.TIMESTAMP, rs.getInt("DATA_TYPE"));
            assertEquals("timestamp", rs.getString("TYPE_NAME"));
        }
    }

    @Test
    void getColumnsReportsTheDeclaredTypes() throws Exception {
        try (Connection c = connect(); ResultSet rs = c.getMetaData().getColumns(null, "default", "small", null)) {
            List<String> columns = new ArrayList<>();
            while (rs.next()) {
                columns.add(rs.getString("COLUMN_NAME") + " " + rs.getInt("DATA_TYPE") + " " + rs.getString("TYPE_NAME"));
            }
            assertEquals(List.of("t " + Types.TINYINT + " tinyint", "s " + Types.SMALLINT + " smallint",
                    "f " + Types.FLOAT + " float", "b " + Types.BOOLEAN + " boolean"), columns);
        }
    }

    @Test
    void charAndVarcharKeepTheirLengths() throws Exception {
        try (Connection c = connect(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT c, v, length(c), c = 'ab' FROM texts")) {
            ResultSetMetaData md = rs.getMetaData();
            assertEquals(List.of("char", "varchar"), List.of(md.getColumnTypeName(1), md.getColumnTypeName(2)));
            assertEquals(List.of(Types.CHAR, Types.VARCHAR), List.of(md.getColumnType(1), md.getColumnType(2)));
            assertEquals(List.of(5, 3), List.of(md.getPrecision(1), md.getPrecision(2)));
            assertTrue(rs.next());
            assertEquals("ab   ", rs.getString(1), "a CHAR shows its pad");
            assertEquals("abc", rs.getString(2), "a VARCHAR keeps its first characters");
            assertEquals(2, rs.getInt(3), "the pad does not count");
            assertTrue(rs.getBoolean(4));
        }
        try (Connection c = connect(); ResultSet rs = c.getMetaData().getColumns(null, "default", "texts", null)) {
            List<String> columns = new ArrayList<>();
            while (rs.next()) {
                columns.add(rs.getString("COLUMN_NAME") + " " + rs.getInt("DATA_TYPE") + " " + rs.getString("TYPE_NAME")
                        + " " + rs.getInt("COLUMN_SIZE"));
            }
            assertEquals(List.of("c " + Types.CHAR + " char(5) 5", "v " + Types.VARCHAR + " varchar(3) 3"), columns);
        }
    }

    /** As HiveServer2 sends them: ARRAY_TYPE and MAP_TYPE columns whose values are JSON text. */
    @Test
    void arraysAndMapsArriveAsHivesJsonText() throws Exception {
        try (Connection c = connect(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT array('a', NULL, 'b\"c'), map('k', 1, 'j', 2), array(1.5, 2), "
                     + "map(1, array(true))")) {
            ResultSetMetaData md = rs.getMetaData();
            assertEquals(List.of("array", "map"), List.of(md.getColumnTypeName(1), md.getColumnTypeName(2)));
            assertEquals(List.of(Types.ARRAY, Types.JAVA_OBJECT), List.of(md.getColumnType(1), md.getColumnType(2)));
            assertTrue(rs.next());
            assertEquals("[\"a\",null,\"b\\\"c\"]", rs.getString(1));
            assertEquals("{\"k\":1,\"j\":2}", rs.getObject(2));
            assertEquals("[1.5,2.0]", rs.getString(3));
            assertEquals("{1:[true]}", rs.getString(4));
        }
    }

    @Test
    void wideDecimalsArriveAsBigDecimalsWithTheirPrecisionAndScale() throws Exception {
        try (Connection c = connect(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT amount FROM wide ORDER BY id")) {
            ResultSetMetaData md = rs.getMetaData();
            assertEquals(Types.DECIMAL, md.getColumnType(1));
            assertEquals("decimal", md.getColumnTypeName(1));
            assertEquals(38, md.getPrecision(1));
            assertEquals(10, md.getScale(1));
            assertTrue(rs.next());
            assertEquals(new java.math.BigDecimal("9999999999999999999999999999.9999999999"), rs.getBigDecimal(1));
            assertEquals(new java.math.BigDecimal("9999999999999999999999999999.9999999999"), rs.getObject(1));
            assertTrue(rs.next());
            assertNull(rs.getBigDecimal(1));
            assertTrue(rs.next());
            assertEquals(0, new java.math.BigDecimal("-0.5").compareTo(rs.getBigDecimal(1)));
            assertFalse(rs.next());
        }
        try (Connection c = connect(); ResultSet rs = c.getMetaData().getColumns(null, "default", "wide", "amount")) {
            assertTrue(rs.next());
            assertEquals(Types.DECIMAL, rs.getInt("DATA_TYPE"));
            assertEquals(38, rs.getInt("COLUMN_SIZE"));
            assertEquals(10, rs.getInt("DECIMAL_DIGITS"));
        }
    }
}
