package org.oooengine.hive.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.oooengine.hive.server.JdbcEndpoint.lines;

import io.trino.tpch.TpchTable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.oooengine.core.cluster.ClusterSpec;
import org.oooengine.core.cluster.TestCluster;
import org.oooengine.core.cluster.TpchCluster;
import org.oooengine.hive.engine.ClusterSqlEngine;

/**
 * The built-in access rules on a password-protected endpoint, through the Hive JDBC driver: the
 * operator names alice an admin user in {@code coordinator.properties}; alice creates, loads,
 * inserts and drops; bob, who logs in with his own password, reads and may not change anything
 * (SQLSTATE 42000 naming him, the action and the object), and his attempts change nothing. A
 * client that only claims to be alice — over an endpoint that checks no passwords, or as a
 * proxy user — is not alice.
 */
class AdminUsersTest {
    private static TpchCluster tpch;
    private static Path incoming;
    private static ClusterSqlEngine engine;
    private static HiveServer2Endpoint secured;
    private static HiveServer2Endpoint unchecked;
    private static IsolatedHiveDriver driver;

    @BeforeAll
    static void start() throws Exception {
        tpch = new TpchCluster("ooo-admin-users-test", 1, 0.01, List.of(TpchTable.NATION));
        incoming = Files.createDirectories(tpch.dir.resolve("incoming"));
        Files.writeString(incoming.resolve("items.csv"), "1\tink\n2\tpen\n");
        Files.writeString(tpch.cluster.dir.resolve(ClusterSqlEngine.SETTINGS_FILE),
                "ooo.security.admin-users=alice, carol\nooo.load.allowed-dirs=" + incoming + "\n");
        Path passwords = Files.writeString(tpch.dir.resolve("users"), "alice:a1ice:pw\nbob:b0b\n");
        engine = ClusterSqlEngine.open(tpch.cluster.dir, TestCluster.TIMEOUT);
        secured = HiveServer2Endpoint.start(engine, EndpointConfig.withPasswordFile("127.0.0.1", 0, passwords));
        unchecked = HiveServer2Endpoint.start(engine, EndpointConfig.unauthenticated("127.0.0.1", 0));
        driver = new IsolatedHiveDriver();
    }

    @AfterAll
    static void stop() throws Exception {
        try (AutoCloseable t = tpch; AutoCloseable e = engine; AutoCloseable s = secured; AutoCloseable u = unchecked) {
            // endpoints, engine, then the cluster
        }
    }

    private static Connection login(String user, String password, String urlSuffix) throws SQLException {
        return driver.connect("jdbc:hive2://127.0.0.1:" + secured.port() + "/default" + urlSuffix, user, password);
    }

    private static void assertDenied(Statement st, String sql, String user, String actionAndObject, String why) {
        SQLException e = assertThrows(SQLException.class, () -> st.execute(sql), sql);
        assertEquals("42000", e.getSQLState(), sql + ": " + e.getMessage());
        assertTrue(e.getMessage().contains("access denied: user " + user + " may not " + actionAndObject + ": " + why),
                sql + ": " + e.getMessage());
    }

    @Test
    void anAdminChangesTablesAndOtherUsersOnlyRead() throws Exception {
        try (Connection alice = login("alice", "a1ice:pw", ""); Statement a = alice.createStatement()) {
            a.execute("CREATE DATABASE shop");
            a.execute("CREATE TABLE shop.items (id INT, name STRING, PRIMARY KEY (id) DISABLE NOVALIDATE) "
                    + "ROW FORMAT DELIMITED FIELDS TERMINATED BY '\\t'");
            a.execute("LOAD DATA LOCAL INPATH '" + incoming.resolve("items.csv") + "' INTO TABLE shop.items");
            assertEquals(1, a.executeUpdate("INSERT INTO shop.items VALUES (3, 'cap')"));
            a.execute("CREATE TABLE shop.cheap AS SELECT * FROM shop.items WHERE id < 3");
        }

        String onlyAdmins = "only the admin users of ooo.security.admin-users may";
        try (Connection bob = login("bob", "b0b", ""); Statement b = bob.createStatement()) {
            assertEquals(List.of("ink", "pen", "cap"), lines(b, "SELECT name FROM shop.items ORDER BY id"));
            b.execute("USE shop");
            assertEquals(List.of("cheap", "items"), lines(b, "SHOW TABLES").stream().sorted().toList());
            b.execute("USE default");
            b.execute("SET mapreduce.job.reduces=2"); // tuning his own statements is reading too

            assertDenied(b, "CREATE DATABASE bobs", "bob", "CREATE DATABASE bobs", onlyAdmins);
            assertDenied(b, "CREATE TABLE shop.mine (a INT)", "bob", "CREATE TABLE shop.mine", onlyAdmins);
            assertDenied(b, "CREATE TABLE shop.copy AS SELECT * FROM shop.items", "bob", "CREATE TABLE shop.copy",
                    onlyAdmins);
            assertDenied(b, "INSERT INTO shop.items VALUES (9, 'bob was here')", "bob", "INSERT into shop.items",
                    onlyAdmins);
            assertDenied(b, "INSERT OVERWRITE TABLE shop.items SELECT * FROM shop.cheap", "bob",
                    "INSERT into shop.items", onlyAdmins);
            assertDenied(b, "LOAD DATA LOCAL INPATH '" + incoming.resolve("items.csv") + "' OVERWRITE INTO TABLE shop.items",
                    "bob", "LOAD DATA into shop.items", onlyAdmins);
            assertDenied(b, "LOAD DATA LOCAL INPATH '" + tpch.cluster.dir.resolve(ClusterSpec.SECRET_FILE)
                    + "' INTO TABLE shop.items", "bob", "LOAD DATA into shop.items", onlyAdmins);
            assertDenied(b, "DROP TABLE shop.items", "bob", "DROP TABLE shop.items", onlyAdmins);
            assertDenied(b, "DROP DATABASE shop CASCADE", "bob", "DROP DATABASE shop", onlyAdmins);
            assertEquals(List.of("ink", "pen", "cap"), lines(b, "SELECT name FROM shop.items ORDER BY id"),
                    "bob's attempts changed nothing");
        }

        // carol is an admin user, but not in the password file: she does not get in at all
        assertThrows(SQLException.class, () -> login("carol", "anything", "").close());

        try (Connection alice = login("alice", "a1ice:pw", ""); Statement a = alice.createStatement()) {
            a.execute("DROP TABLE shop.cheap");
            a.execute("DROP DATABASE shop CASCADE");
            assertTrue(!lines(a, "SHOW DATABASES").contains("shop"));
        }
    }

    @Test
    void aNameTheClientOnlyClaimsIsNotTrusted() throws Exception {
        // bob asks to act as alice, as HiveServer2's proxy users do: he stays bob
        try (Connection bob = login("bob", "b0b", ";hive.server2.proxy.user=alice"); Statement b = bob.createStatement()) {
            assertDenied(b, "CREATE DATABASE as_alice", "bob", "CREATE DATABASE as_alice",
                    "only the admin users of ooo.security.admin-users may");
        }
        // an endpoint that checks no passwords cannot tell alice from anyone who types her name
        String url = "jdbc:hive2://127.0.0.1:" + unchecked.port() + "/default;auth=noSasl";
        try (Connection claimed = driver.connect(url, "alice", null); Statement st = claimed.createStatement()) {
            assertEquals(List.of("ALGERIA"), lines(st, "SELECT n_name FROM nation WHERE n_nationkey = 0"));
            assertDenied(st, "CREATE DATABASE claimed", "alice", "CREATE DATABASE claimed",
                    "ooo.security.admin-users names admin users, but this endpoint checks no passwords "
                            + "(ooo server --users-file), so it cannot tell who alice is");
        }
    }
}
