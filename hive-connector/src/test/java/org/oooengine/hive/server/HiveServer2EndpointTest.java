package org.oooengine.hive.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.Date;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.hive.service.rpc.thrift.TCLIService;
import org.apache.hive.service.rpc.thrift.TCancelOperationReq;
import org.apache.hive.service.rpc.thrift.TCloseOperationReq;
import org.apache.hive.service.rpc.thrift.TCloseSessionReq;
import org.apache.hive.service.rpc.thrift.TExecuteStatementReq;
import org.apache.hive.service.rpc.thrift.TExecuteStatementResp;
import org.apache.hive.service.rpc.thrift.TFetchOrientation;
import org.apache.hive.service.rpc.thrift.TFetchResultsReq;
import org.apache.hive.service.rpc.thrift.TFetchResultsResp;
import org.apache.hive.service.rpc.thrift.TGetDelegationTokenReq;
import org.apache.hive.service.rpc.thrift.TGetInfoReq;
import org.apache.hive.service.rpc.thrift.TGetInfoResp;
import org.apache.hive.service.rpc.thrift.TGetInfoType;
import org.apache.hive.service.rpc.thrift.TGetSchemasReq;
import org.apache.hive.service.rpc.thrift.TOpenSessionReq;
import org.apache.hive.service.rpc.thrift.TOpenSessionResp;
import org.apache.hive.service.rpc.thrift.TOperationHandle;
import org.apache.hive.service.rpc.thrift.TProtocolVersion;
import org.apache.hive.service.rpc.thrift.TRowSet;
import org.apache.hive.service.rpc.thrift.TSessionHandle;
import org.apache.hive.service.rpc.thrift.TStatus;
import org.apache.hive.service.rpc.thrift.TStatusCode;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.transport.TSocket;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Protocol tests of the HiveServer2 endpoint with the real Hive 4.1 JDBC driver, against a
 * scripted engine. One class, so the large driver jar is loaded once.
 */
class HiveServer2EndpointTest {
    private static ScriptedSqlEngine engine;
    private static HiveServer2Endpoint open;
    private static HiveServer2Endpoint secured;
    private static Path passwordFile;
    private static IsolatedHiveDriver driver;

    @BeforeAll
    static void start() throws Exception {
        engine = new ScriptedSqlEngine();
        open = HiveServer2Endpoint.start(engine, EndpointConfig.unauthenticated("127.0.0.1", 0));
        passwordFile = Files.createTempFile("hs2-users", ".txt");
        Files.writeString(passwordFile, "# test users\nalice:s3cret:with:colons\n\nbob:builder\n");
        secured = HiveServer2Endpoint.start(engine, EndpointConfig.withPasswordFile("127.0.0.1", 0, passwordFile));
        driver = new IsolatedHiveDriver();
    }

    @AfterAll
    static void stop() throws Exception {
        if (open != null) {
            open.close();
        }
        if (secured != null) {
            secured.close();
        }
        Files.deleteIfExists(passwordFile);
    }

    private static Connection connect() throws SQLException {
        return connect("default", "");
    }

    private static Connection connect(String database, String suffix) throws SQLException {
        return driver.connect("jdbc:hive2://127.0.0.1:" + open.port() + "/" + database + ";auth=noSasl" + suffix, "tester", null);
    }

    private static String queryString(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement(); ResultSet rs = statement.executeQuery(sql)) {
            assertTrue(rs.next(), "one row expected for " + sql);
            String value = rs.getString(1);
            assertFalse(rs.next());
            return value;
        }
    }

    @Test
    void sessionGetsDatabaseUserAndSettingsFromTheUrl() throws Exception {
        try (Connection connection = connect("sales", "?ooo.execution.mode=local#region=EUROPE")) {
            assertEquals("sales", queryString(connection, "select current_database()"));
            assertEquals("tester", queryString(connection, "select current_user()"));
            assertEquals("local", queryString(connection, "select setting ooo.execution.mode"));
            assertEquals("EUROPE", queryString(connection, "select setting hivevar:region"));
        }
        assertTrue(engine.lastSessionOf("tester").closed, "Connection.close() closes the engine session");
    }

    @Test
    void everyTypeArrivesWithValuesNullsAndMetadata() throws Exception {
        try (Connection connection = connect(); Statement statement = connection.createStatement();
             ResultSet rs = statement.executeQuery("select * from all_types")) {
            ResultSetMetaData md = rs.getMetaData();
            assertEquals(9, md.getColumnCount());
            List<String> names = new ArrayList<>();
            for (int i = 1; i <= 9; i++) {
                names.add(md.getColumnName(i));
            }
            assertEquals(List.of("b", "i", "l", "d", "dec", "dt", "s", "vc", "c"), names);
            assertEquals(List.of(Types.BOOLEAN, Types.INTEGER, Types.BIGINT, Types.DOUBLE, Types.DECIMAL, Types.DATE,
                    Types.VARCHAR, Types.VARCHAR, Types.CHAR), List.of(md.getColumnType(1), md.getColumnType(2),
                    md.getColumnType(3), md.getColumnType(4), md.getColumnType(5), md.getColumnType(6), md.getColumnType(7),
                    md.getColumnType(8), md.getColumnType(9)));
            assertEquals(10, md.getPrecision(5));
            assertEquals(2, md.getScale(5));
            assertEquals(20, md.getPrecision(8));
            assertEquals(5, md.getPrecision(9));

            assertTrue(rs.next());
            assertTrue(rs.getBoolean("b"));
            assertEquals(-7, rs.getInt("i"));
            assertEquals(9_000_000_000L, rs.getLong("l"));
            assertEquals(2.5, rs.getDouble("d"));
            assertEquals(new BigDecimal("12345.60"), rs.getBigDecimal("dec"));
            assertEquals(Date.valueOf("1995-03-15"), rs.getDate("dt"));
            assertEquals("hello", rs.getString("s"));
            assertEquals("varchar value", rs.getString("vc"));
            assertEquals("ab   ", rs.getString("c"));
            assertFalse(rs.wasNull());

            assertTrue(rs.next());
            assertFalse(rs.getBoolean(1));
            assertTrue(rs.wasNull());
            assertEquals(0, rs.getInt(2));
            assertTrue(rs.wasNull());
            assertEquals(0L, rs.getLong(3));
            assertTrue(rs.wasNull());
            assertEquals(0.0, rs.getDouble(4));
            assertTrue(rs.wasNull());
            for (int i = 5; i <= 9; i++) {
                assertNull(rs.getObject(i), "column " + i);
                assertTrue(rs.wasNull());
            }
            assertNull(rs.getBigDecimal(5));
            assertNull(rs.getDate(6));
            assertNull(rs.getString(7));
            assertFalse(rs.next());
        }
    }

    @Test
    void resultLargerThanTheFetchSizeArrivesCompleteAndInOrder() throws Exception {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.setFetchSize(1000);
            try (ResultSet rs = statement.executeQuery("select range 10000")) {
                int expected = 0;
                while (rs.next()) {
                    assertEquals(expected, rs.getInt(1));
                    assertEquals("row-" + expected, rs.getString(2));
                    expected++;
                }
                assertEquals(10_000, expected);
            }
            // The connection stays usable after the driver's background fetching ended.
            assertEquals("default", queryString(connection, "select current_database()"));
        }
    }

    @Test
    void updateReturnsItsCount() throws Exception {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            assertEquals(42, statement.executeUpdate("update nation set n_name = 'x'"));
            assertFalse(statement.execute("update nation set n_name = 'y'"));
            assertEquals(42, statement.getUpdateCount());
        }
    }

    @Test
    void engineErrorReachesTheClientWithItsSqlStateAndMessage() throws Exception {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            SQLException e = assertThrows(SQLException.class, () -> statement.executeQuery("select * from missing"));
            assertEquals("42S02", e.getSQLState());
            assertEquals("Table not found: missing (line 1:14)", e.getMessage());
            // The session survives a failed statement.
            assertEquals("default", queryString(connection, "select current_database()"));
        }
        SQLException e = assertThrows(SQLException.class, () -> connect("nowhere", "").close());
        assertTrue(e.getMessage().contains("Database does not exist: nowhere"), e.getMessage());
    }

    @Test
    void cancelEndsABlockedStatement() throws Exception {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            CompletableFuture<Void> running = CompletableFuture.runAsync(() -> {
                try {
                    statement.executeQuery("select block_until_cancelled()");
                } catch (SQLException e) {
                    throw new RuntimeException(e);
                }
            });
            assertTrue(engine.blockingStatementStarted.await(30, TimeUnit.SECONDS), "statement started");
            IsolatedHiveDriver.awaitRunning(statement, 30);
            // Uncancelled, the statement blocks for ever: ending at all is the behaviour. The 30 s
            // allowed are many times what a quiet machine takes (a few polls of the driver).
            statement.cancel();
            ExecutionException failure = assertThrows(ExecutionException.class, () -> running.get(30, TimeUnit.SECONDS));
            SQLException e = (SQLException) failure.getCause().getCause();
            assertTrue(e.getMessage().contains("cancelled"), e.getMessage());
            assertTrue(engine.blockingStatementCancellation.isCancelled());
            assertEquals("default", queryString(connection, "select current_database()"));
        }
    }

    @Test
    void queryTimeoutEndsTheStatementWithATimeout() throws Exception {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.setQueryTimeout(1);
            long start = System.nanoTime();
            SQLException e = assertThrows(SQLException.class, () -> statement.executeQuery("select block_until_cancelled()"));
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertTrue(e instanceof SQLTimeoutException, e.toString());
            // not before the timeout; uncancelled, the statement would block for ever, so the upper
            // bound (twenty times the timeout) only keeps a failure from hanging on a loaded machine
            assertTrue(millis >= 900 && millis < 20_000, "timed out after " + millis + " ms");
        }
    }

    @Test
    void databaseMetaDataDescribesTheCatalog() throws Exception {
        try (Connection connection = connect()) {
            DatabaseMetaData md = connection.getMetaData();
            assertEquals("OoO Engine", md.getDatabaseProductName());
            assertEquals("0.1.0", md.getDatabaseProductVersion());
            assertTrue(md.getSQLKeywords().contains("DISTRIBUTE"));

            assertEquals(List.of("default", "sales"), column(md.getSchemas(), "TABLE_SCHEM"));
            assertEquals(List.of("sales"), column(md.getSchemas(null, "sa%"), "TABLE_SCHEM"));

            assertEquals(List.of("nation", "order_items", "orders"), column(md.getTables(null, "%", "%", null), "TABLE_NAME"));
            assertEquals(List.of("orders"), column(md.getTables(null, "sales", "order_", new String[] {"TABLE"}), "TABLE_NAME"));
            assertEquals(List.of(), column(md.getTables(null, "%", "%", new String[] {"VIEW"}), "TABLE_NAME"));
            try (ResultSet rs = md.getTables(null, "default", "nation", null)) {
                assertTrue(rs.next());
                assertEquals("default", rs.getString("TABLE_SCHEM"));
                assertEquals("TABLE", rs.getString("TABLE_TYPE"));
                assertEquals("nations of the world", rs.getString("REMARKS"));
            }
            assertEquals(List.of("TABLE", "VIEW"), column(md.getTableTypes(), "TABLE_TYPE"));

            try (ResultSet rs = md.getColumns(null, "sales", "orders", "%")) {
                List<String> rows = new ArrayList<>();
                while (rs.next()) {
                    rows.add(rs.getString("COLUMN_NAME") + " " + rs.getInt("DATA_TYPE") + " " + rs.getString("TYPE_NAME")
                            + " " + rs.getInt("COLUMN_SIZE") + " " + rs.getInt("DECIMAL_DIGITS") + " " + rs.getInt("ORDINAL_POSITION"));
                }
                assertEquals(List.of("o_orderkey -5 bigint 19 0 1", "o_totalprice 3 decimal(15,2) 15 2 2",
                        "o_orderdate 91 date 10 0 3", "o_status 1 char(1) 1 0 4"), rows);
            }
            assertEquals(List.of("n_name"), column(md.getColumns(null, "def%", "nat_on", "%name"), "COLUMN_NAME"));
            try (ResultSet rs = md.getColumns(null, "default", "nation", "n_name")) {
                assertTrue(rs.next());
                assertEquals("nation name", rs.getString("REMARKS"));
                assertEquals(25, rs.getInt("COLUMN_SIZE"));
                assertEquals(Types.VARCHAR, rs.getInt("DATA_TYPE"));
            }

            List<String> types = new ArrayList<>();
            try (ResultSet rs = md.getTypeInfo()) {
                while (rs.next()) {
                    types.add(rs.getString("TYPE_NAME") + ":" + rs.getInt("DATA_TYPE"));
                }
            }
            assertEquals(List.of("BOOLEAN:16", "INT:4", "BIGINT:-5", "DOUBLE:8", "DECIMAL:3", "DATE:91", "STRING:12",
                    "VARCHAR:12", "CHAR:1"), types);
            assertEquals(List.of("n_nationkey"), column(md.getPrimaryKeys(null, "default", "nation"), "COLUMN_NAME"));
            // a table in files lists the key declared DISABLE NOVALIDATE, with its name
            assertEquals(List.of("oi_orderkey"), column(md.getPrimaryKeys(null, "sales", "order_items"), "COLUMN_NAME"));
            assertEquals(List.of("items_pk"), column(md.getPrimaryKeys(null, "sales", "order_items"), "PK_NAME"));
            assertEquals(List.of(), column(md.getCatalogs(), "TABLE_CAT"));
        }
    }

    private static List<String> column(ResultSet rs, String name) throws SQLException {
        try (rs) {
            List<String> values = new ArrayList<>();
            while (rs.next()) {
                values.add(rs.getString(name));
            }
            return values;
        }
    }

    @Test
    void plainAuthenticationAcceptsValidUsersOnly() throws Exception {
        String url = "jdbc:hive2://127.0.0.1:" + secured.port() + "/default";
        try (Connection connection = driver.connect(url, "alice", "s3cret:with:colons")) {
            assertEquals("alice", queryString(connection, "select current_user()"));
        }
        SQLException wrongPassword = assertThrows(SQLException.class, () -> driver.connect(url, "bob", "wrong").close());
        assertTrue(wrongPassword.getMessage().contains("authentication failed"), wrongPassword.getMessage());
        assertThrows(SQLException.class, () -> driver.connect(url, "mallory", "builder").close());
        assertThrows(SQLException.class, () -> driver.connect(url + ";auth=noSasl", "bob", "builder").close());
        // Failed logins leave the endpoint serving.
        try (Connection connection = driver.connect(url, "bob", "builder")) {
            assertEquals("bob", queryString(connection, "select current_user()"));
        }
    }

    @Test
    void badFramesCloseOnlyTheirConnection() throws Exception {
        byte[] garbage = new byte[4096];
        new Random(42).nextBytes(garbage);
        garbage[0] = 0x17; // neither SASL nor Thrift
        assertClosedByServer(garbage);
        // A strict Thrift header announcing a 2 GB method name.
        assertClosedByServer(new byte[] {(byte) 0x80, 0x01, 0x00, 0x01, 0x7f, (byte) 0xff, (byte) 0xff, (byte) 0xff, 1, 2, 3});
        // A SASL start naming a mechanism we do not have.
        byte[] mechanism = "GSSAPI".getBytes(StandardCharsets.US_ASCII);
        byte[] saslStart = new byte[5 + mechanism.length];
        saslStart[0] = 0x01;
        saslStart[4] = (byte) mechanism.length;
        System.arraycopy(mechanism, 0, saslStart, 5, mechanism.length);
        assertClosedByServer(saslStart);

        try (Connection connection = connect()) {
            assertEquals("default", queryString(connection, "select current_database()"));
        }
    }

    private static void assertClosedByServer(byte[] bytes) throws Exception {
        try (Socket socket = new Socket("127.0.0.1", open.port())) {
            socket.setSoTimeout(5000);
            OutputStream out = socket.getOutputStream();
            out.write(bytes);
            out.flush();
            InputStream in = socket.getInputStream();
            try {
                // The server may send an error message first (SASL); then it must close.
                while (in.read() != -1) {
                    // drain
                }
            } catch (SocketTimeoutException e) {
                throw new AssertionError("server kept the connection open after a bad frame", e);
            } catch (java.net.SocketException e) {
                // connection reset: closed as well
            }
        }
    }

    @Test
    void sessionsOfAVanishedClientAreClosed() throws Exception {
        // A raw Thrift client that opens a session and drops the socket without CloseSession.
        TSocket socket = new TSocket("127.0.0.1", open.port());
        socket.open();
        TCLIService.Client client = new TCLIService.Client(new TBinaryProtocol(socket));
        TOpenSessionReq req = new TOpenSessionReq();
        req.setUsername("vanishing");
        req.setConfiguration(Map.of("use:database", "sales"));
        TOpenSessionResp resp = client.OpenSession(req);
        assertEquals(TStatusCode.SUCCESS_STATUS, resp.getStatus().getStatusCode());
        assertEquals(TProtocolVersion.HIVE_CLI_SERVICE_PROTOCOL_V10, resp.getServerProtocolVersion());
        assertEquals("1000", resp.getConfiguration().get("hive.server2.thrift.resultset.default.fetch.size"));
        ScriptedSqlEngine.Session session = engine.lastSessionOf("vanishing");
        assertEquals("sales", session.database);
        assertFalse(session.closed);

        socket.close();
        long deadline = System.currentTimeMillis() + 30_000;
        while (!session.closed && System.currentTimeMillis() < deadline) {
            Thread.sleep(10);
        }
        assertTrue(session.closed, "session closed after its connection dropped");
        assertNotNull(open.address());
    }

    /** Each version gets the lower of its own and ours, and row sets in the layout of that version. */
    @Test
    void protocolVersionsAreNegotiatedAndServedInTheirLayout() throws Exception {
        try (TSocket socket = new TSocket("127.0.0.1", open.port())) {
            socket.open();
            TCLIService.Client client = new TCLIService.Client(new TBinaryProtocol(socket));
            for (TProtocolVersion asked : TProtocolVersion.values()) {
                TOpenSessionReq req = new TOpenSessionReq(asked);
                TOpenSessionResp resp = client.OpenSession(req);
                assertEquals(TStatusCode.SUCCESS_STATUS, resp.getStatus().getStatusCode(), asked.toString());
                TProtocolVersion expected = asked.getValue() > TProtocolVersion.HIVE_CLI_SERVICE_PROTOCOL_V10.getValue()
                        ? TProtocolVersion.HIVE_CLI_SERVICE_PROTOCOL_V10 : asked;
                assertEquals(expected, resp.getServerProtocolVersion());

                TExecuteStatementReq query = new TExecuteStatementReq(resp.getSessionHandle(), "select range 3");
                query.setRunAsync(false);
                TOperationHandle handle = client.ExecuteStatement(query).getOperationHandle();
                TRowSet rows = client.FetchResults(new TFetchResultsReq(handle, TFetchOrientation.FETCH_NEXT, 10)).getResults();
                if (expected.getValue() >= TProtocolVersion.HIVE_CLI_SERVICE_PROTOCOL_V6.getValue()) {
                    assertTrue(rows.getRows().isEmpty(), asked.toString());
                    assertEquals(List.of(0, 1, 2), rows.getColumns().get(0).getI32Val().getValues());
                } else {
                    assertFalse(rows.isSetColumns(), asked + " gets rows, not columns");
                    assertEquals(3, rows.getRows().size());
                    assertEquals(2, rows.getRows().get(2).getColVals().get(0).getI32Val().getValue());
                    assertEquals("row-2", rows.getRows().get(2).getColVals().get(1).getStringVal().getValue());
                }
                client.CloseSession(new TCloseSessionReq(resp.getSessionHandle()));
            }
        }
    }

    @Test
    void rawProtocolCornerCases() throws Exception {
        try (TSocket socket = new TSocket("127.0.0.1", open.port())) {
            socket.open();
            TCLIService.Client client = new TCLIService.Client(new TBinaryProtocol(socket));
            TOpenSessionReq open = new TOpenSessionReq();
            open.setConfiguration(Map.of("use:database", "default", "set:hiveconf:a.b", "1", "some.unknown.key", "x"));
            TSessionHandle session = client.OpenSession(open).getSessionHandle();
            assertEquals("anonymous", engine.lastSessionOf("anonymous").user);
            assertEquals(Map.of("a.b", "1"), engine.lastSessionOf("anonymous").settings);

            // A synchronous statement reports its error in the ExecuteStatement response.
            TExecuteStatementReq failing = new TExecuteStatementReq(session, "select * from missing");
            failing.setRunAsync(false);
            TStatus status = client.ExecuteStatement(failing).getStatus();
            assertEquals(TStatusCode.ERROR_STATUS, status.getStatusCode());
            assertEquals("42S02", status.getSqlState());

            TExecuteStatementReq query = new TExecuteStatementReq(session, "select range 5");
            query.setRunAsync(false);
            TExecuteStatementResp executed = client.ExecuteStatement(query);
            TOperationHandle handle = executed.getOperationHandle();
            assertTrue(handle.isHasResultSet());
            TFetchResultsResp first = client.FetchResults(new TFetchResultsReq(handle, TFetchOrientation.FETCH_NEXT, 3));
            assertEquals(0, first.getResults().getStartRowOffset());
            assertEquals(List.of(0, 1, 2), first.getResults().getColumns().get(0).getI32Val().getValues());
            TFetchResultsResp second = client.FetchResults(new TFetchResultsReq(handle, TFetchOrientation.FETCH_NEXT, 3));
            assertEquals(3, second.getResults().getStartRowOffset());
            assertEquals(List.of("row-3", "row-4"), second.getResults().getColumns().get(1).getStringVal().getValues());
            for (int i = 0; i < 2; i++) { // the end repeats as an empty batch, never as an error
                TFetchResultsResp end = client.FetchResults(new TFetchResultsReq(handle, TFetchOrientation.FETCH_NEXT, 3));
                assertEquals(TStatusCode.SUCCESS_STATUS, end.getStatus().getStatusCode());
                assertEquals(5, end.getResults().getStartRowOffset());
                assertTrue(end.getResults().getColumns().get(0).getI32Val().getValues().isEmpty());
                assertFalse(end.isHasMoreRows());
            }
            // Streamed rows cannot be re-read; query logs are always empty.
            assertEquals(TStatusCode.ERROR_STATUS, client.FetchResults(
                    new TFetchResultsReq(handle, TFetchOrientation.FETCH_FIRST, 3)).getStatus().getStatusCode());
            TFetchResultsReq logs = new TFetchResultsReq(handle, TFetchOrientation.FETCH_NEXT, 100);
            logs.setFetchType((short) 1);
            assertTrue(client.FetchResults(logs).getResults().getColumns().get(0).getStringVal().getValues().isEmpty());
            assertEquals(TStatusCode.SUCCESS_STATUS, client.CloseOperation(new TCloseOperationReq(handle)).getStatus().getStatusCode());
            assertEquals(TStatusCode.SUCCESS_STATUS, client.CloseOperation(new TCloseOperationReq(handle)).getStatus().getStatusCode());
            assertEquals(TStatusCode.SUCCESS_STATUS, client.CancelOperation(new TCancelOperationReq(handle)).getStatus().getStatusCode());

            // Metadata results are in memory, so FETCH_FIRST starts over.
            TOperationHandle schemas = client.GetSchemas(new TGetSchemasReq(session)).getOperationHandle();
            assertEquals(List.of("default", "sales"), client.FetchResults(new TFetchResultsReq(schemas, TFetchOrientation.FETCH_NEXT, 10))
                    .getResults().getColumns().get(0).getStringVal().getValues());
            assertEquals(List.of("default"), client.FetchResults(new TFetchResultsReq(schemas, TFetchOrientation.FETCH_FIRST, 1))
                    .getResults().getColumns().get(0).getStringVal().getValues());

            TGetInfoResp unsupported = client.GetInfo(new TGetInfoReq(session, TGetInfoType.CLI_TXN_CAPABLE));
            assertEquals(TStatusCode.ERROR_STATUS, unsupported.getStatus().getStatusCode());
            assertEquals("0A000", unsupported.getStatus().getSqlState());
            assertEquals(128, client.GetInfo(new TGetInfoReq(session, TGetInfoType.CLI_MAX_TABLE_NAME_LEN)).getInfoValue().getLenValue());
            assertEquals(TStatusCode.ERROR_STATUS, client.GetDelegationToken(new TGetDelegationTokenReq(session, "a", "b"))
                    .getStatus().getStatusCode());

            assertEquals(TStatusCode.SUCCESS_STATUS, client.CloseSession(new TCloseSessionReq(session)).getStatus().getStatusCode());
            assertTrue(engine.lastSessionOf("anonymous").closed);
            TStatus afterClose = client.ExecuteStatement(new TExecuteStatementReq(session, "select range 1")).getStatus();
            assertEquals(TStatusCode.ERROR_STATUS, afterClose.getStatusCode());
            assertTrue(afterClose.getErrorMessage().contains("Invalid SessionHandle"), afterClose.getErrorMessage());
        }
    }
}
