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
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.oooengine.core.cluster.ClusterSpec;
import org.oooengine.core.cluster.TestCluster;
import org.oooengine.core.cluster.TpchCluster;
import org.oooengine.hive.engine.ClusterSqlEngine;

/**
 * Server-side files as an attacker reaches for them, through the Hive JDBC driver and the
 * endpoint clients reach without credentials, on a cluster directory with its secret: LOAD DATA
 * of the secret, {@code /etc/passwd}, files outside the allowed directory by symlinks and
 * {@code ..}, and the cluster's own files from an allowed parent directory; Hadoop settings in the
 * JDBC URL; Hive's other statements that name files. Every attempt is refused with a message
 * saying why, and reads nothing; a file in the allowed directory loads.
 */
class LoadDataFileAccessTest {
    private static final String ALLOWED_DIRS = "ooo.load.allowed-dirs";
    private static TpchCluster tpch;
    private static Path secret;
    /** The one directory the operator allows. */
    private static Path incoming;
    private static Path outside;
    private static IsolatedHiveDriver driver;

    @BeforeAll
    static void start() throws Exception {
        tpch = new TpchCluster("ooo-load-access-test", 1, 0.01, List.of(TpchTable.NATION));
        secret = tpch.cluster.dir.resolve(ClusterSpec.SECRET_FILE);
        assertTrue(Files.isRegularFile(secret));
        incoming = Files.createDirectories(tpch.dir.resolve("incoming"));
        outside = Files.createDirectories(tpch.dir.resolve("outside"));
        Files.writeString(outside.resolve("private.csv"), "not yours\n");
        Files.writeString(incoming.resolve("items.csv"), "1\tink\n2\tpen\n");
        driver = new IsolatedHiveDriver();
    }

    @AfterAll
    static void stop() throws Exception {
        if (tpch != null) {
            tpch.close();
        }
    }

    /** An engine over the test's cluster with {@code settings}, served on an endpoint without passwords. */
    private record Coordinator(ClusterSqlEngine engine, HiveServer2Endpoint endpoint) implements AutoCloseable {
        static Coordinator start(String catalog, Map<String, String> settings) throws Exception {
            ClusterSqlEngine engine = new ClusterSqlEngine(tpch.session, tpch.cluster.dir, tpch.dir.resolve(catalog), settings);
            return new Coordinator(engine, HiveServer2Endpoint.start(engine, EndpointConfig.unauthenticated("127.0.0.1", 0)));
        }

        Connection connect() throws SQLException {
            return connect("");
        }

        /** @param hiveconf settings the driver sends when it opens the session, e.g. {@code ?k=v} */
        Connection connect(String hiveconf) throws SQLException {
            return driver.connect("jdbc:hive2://127.0.0.1:" + endpoint.port() + "/default;auth=noSasl" + hiveconf,
                    "mallory", null);
        }

        @Override
        public void close() {
            endpoint.close();
            engine.close();
        }
    }

    /** The attack's table: one string column, tab separated, as for reading any text file line by line. */
    private static void createProbe(Statement st, String db) throws SQLException {
        st.execute("CREATE DATABASE " + db);
        st.execute("CREATE TABLE " + db + ".f (line string) ROW FORMAT DELIMITED FIELDS TERMINATED BY '\\t'");
    }

    /** {@code sql} fails with SQLSTATE 42000 and a message containing each of {@code expected}. */
    private static void assertRefused(Statement st, String sql, String... expected) {
        SQLException e = assertThrows(SQLException.class, () -> st.execute(sql), sql);
        assertEquals("42000", e.getSQLState(), sql + ": " + e.getMessage());
        for (String part : expected) {
            assertTrue(e.getMessage().contains(part), sql + ": " + e.getMessage());
        }
    }

    @Test
    void withoutAllowedDirectoriesNoFileOnTheCoordinatorLoads() throws Exception {
        try (Coordinator c = Coordinator.start("catalog-default.json", Map.of()); Connection conn = c.connect();
             Statement st = conn.createStatement()) {
            createProbe(st, "probe_default");
            String howTo = "reading files on the coordinator is off. The operator allows directories with "
                    + ALLOWED_DIRS + " (comma separated) in <cluster-dir>/coordinator.properties or with ooo server --conf "
                    + ALLOWED_DIRS + "=";
            assertRefused(st, "LOAD DATA LOCAL INPATH '" + secret + "' INTO TABLE probe_default.f", howTo);
            assertRefused(st, "LOAD DATA INPATH '" + secret + "' INTO TABLE probe_default.f", howTo);
            assertRefused(st, "LOAD DATA INPATH 'file://" + secret + "' INTO TABLE probe_default.f", howTo);
            assertRefused(st, "LOAD DATA LOCAL INPATH '/etc/passwd' INTO TABLE probe_default.f", howTo);
            assertRefused(st, "LOAD DATA LOCAL INPATH '" + incoming.resolve("items.csv") + "' INTO TABLE probe_default.f",
                    howTo);
            assertEquals(List.of("0"), lines(st, "SELECT count(*) FROM probe_default.f"));
            st.execute("DROP DATABASE probe_default CASCADE");
        }
    }

    @Test
    void onlyFilesReallyUnderTheAllowedDirectoryLoad() throws Exception {
        Path trap = Files.createDirectories(incoming.resolve("trap"));
        Files.writeString(trap.resolve("a.csv"), "harmless\n");
        Files.createSymbolicLink(trap.resolve("b.csv"), outside.resolve("private.csv"));
        Path etc = Files.createDirectories(incoming.resolve("etc-link-inside"));
        Files.createSymbolicLink(etc.resolve("etc"), Path.of("/etc"));
        Files.createSymbolicLink(incoming.resolve("passwd"), Path.of("/etc/passwd"));
        Files.createSymbolicLink(incoming.resolve("key"), secret);
        Path batch = Files.createDirectories(incoming.resolve("batch"));
        Files.writeString(batch.resolve("part-0"), "3\tcap\n");
        Files.writeString(batch.resolve("_SUCCESS"), "");
        Files.createSymbolicLink(batch.resolve("part-1"), incoming.resolve("items.csv")); // a link that stays inside

        try (Coordinator c = Coordinator.start("catalog-incoming.json", Map.of(ALLOWED_DIRS, incoming.toString()));
             Connection conn = c.connect(); Statement st = conn.createStatement()) {
            createProbe(st, "probe_x");
            String notUnder = "is not under a directory SQL may read files from (" + ALLOWED_DIRS + ": " + incoming + ")";
            // the attack, LOCAL and not, and as a file: URI
            assertRefused(st, "LOAD DATA LOCAL INPATH '" + secret + "' INTO TABLE probe_x.f", notUnder);
            assertRefused(st, "LOAD DATA INPATH '" + secret + "' INTO TABLE probe_x.f", notUnder);
            assertRefused(st, "LOAD DATA INPATH 'file://" + secret + "' INTO TABLE probe_x.f", notUnder);
            assertRefused(st, "LOAD DATA LOCAL INPATH 'file:" + secret + "' INTO TABLE probe_x.f", notUnder);
            assertRefused(st, "LOAD DATA LOCAL INPATH '/etc/passwd' INTO TABLE probe_x.f", notUnder);
            assertRefused(st, "LOAD DATA LOCAL INPATH '/etc' INTO TABLE probe_x.f", notUnder);
            // out of the allowed directory by ..
            assertRefused(st, "LOAD DATA LOCAL INPATH '" + incoming + "/../outside/private.csv' INTO TABLE probe_x.f",
                    notUnder);
            assertRefused(st, "LOAD DATA LOCAL INPATH '" + incoming + "/../cluster/secret' INTO TABLE probe_x.f", notUnder);
            // out of it by symlinks: a file, and directories holding such links
            assertRefused(st, "LOAD DATA LOCAL INPATH '" + incoming.resolve("passwd") + "' INTO TABLE probe_x.f",
                    incoming.resolve("passwd") + " (really /etc/passwd) " + notUnder);
            assertRefused(st, "LOAD DATA LOCAL INPATH '" + incoming.resolve("key") + "' INTO TABLE probe_x.f",
                    "(really " + secret.toRealPath() + ") is in the cluster's own files", "which SQL never reads");
            assertRefused(st, "LOAD DATA LOCAL INPATH '" + trap + "' INTO TABLE probe_x.f",
                    trap.resolve("b.csv") + " (really " + outside.resolve("private.csv").toRealPath() + ")", notUnder);
            assertRefused(st, "LOAD DATA LOCAL INPATH '" + etc + "' INTO TABLE probe_x.f", notUnder);
            assertRefused(st, "LOAD DATA LOCAL INPATH '" + incoming + "' INTO TABLE probe_x.f", notUnder);
            // a path relative to whatever directory the coordinator runs in, other file systems, LOCAL with a remote one
            assertRefused(st, "LOAD DATA LOCAL INPATH 'incoming/items.csv' INTO TABLE probe_x.f", "needs an absolute path");
            assertRefused(st, "LOAD DATA INPATH 'http://169.254.169.254/latest/meta-data/' INTO TABLE probe_x.f",
                    "file system http is not one SQL reads (ooo.load.file-systems: hdfs)");
            assertRefused(st, "LOAD DATA LOCAL INPATH 'hdfs://namenode:8020/data/x' INTO TABLE probe_x.f",
                    "LOCAL names a file on the coordinator");
            assertEquals(List.of("0"), lines(st, "SELECT count(*) FROM probe_x.f"), "nothing was read");

            // what the operator allows loads: a file, and a directory whose link stays inside
            st.execute("CREATE TABLE probe_x.items (id INT, name STRING) ROW FORMAT DELIMITED FIELDS TERMINATED BY '\\t'");
            st.execute("LOAD DATA LOCAL INPATH '" + incoming.resolve("items.csv") + "' INTO TABLE probe_x.items");
            assertEquals(List.of("ink", "pen"), lines(st, "SELECT name FROM probe_x.items ORDER BY id"));
            st.execute("LOAD DATA INPATH 'file://" + batch + "' OVERWRITE INTO TABLE probe_x.items");
            assertEquals(List.of("ink", "pen", "cap"), lines(st, "SELECT name FROM probe_x.items ORDER BY id"));
            st.execute("DROP DATABASE probe_x CASCADE");
        }
    }

    /** An allowed directory that holds the cluster directory: the cluster's files stay out of reach. */
    @Test
    void theClusterDirectoryIsNeverReadEvenUnderAnAllowedParent() throws Exception {
        try (Coordinator c = Coordinator.start("catalog-parent.json", Map.of(ALLOWED_DIRS, tpch.dir.toString()));
             Connection conn = c.connect(); Statement st = conn.createStatement()) {
            createProbe(st, "probe_parent");
            String never = "which SQL never reads";
            assertRefused(st, "LOAD DATA LOCAL INPATH '" + secret + "' INTO TABLE probe_parent.f", never);
            assertRefused(st, "LOAD DATA INPATH '" + secret + "' INTO TABLE probe_parent.f", never);
            assertRefused(st, "LOAD DATA LOCAL INPATH '" + tpch.cluster.dir + "' INTO TABLE probe_parent.f", never);
            assertRefused(st, "LOAD DATA LOCAL INPATH '" + tpch.cluster.dir.resolve("nodes") + "' INTO TABLE probe_parent.f",
                    never);
            assertRefused(st, "LOAD DATA LOCAL INPATH '" + incoming + "/../cluster/./secret' INTO TABLE probe_parent.f",
                    never);
            // the allowed directory itself holds the cluster directory: the whole load is refused, naming what it met
            assertRefused(st, "LOAD DATA LOCAL INPATH '" + tpch.dir + "' INTO TABLE probe_parent.f", never);
            assertEquals(List.of("0"), lines(st, "SELECT count(*) FROM probe_parent.f"), "nothing was read");

            st.execute("LOAD DATA LOCAL INPATH '" + outside.resolve("private.csv") + "' INTO TABLE probe_parent.f");
            assertEquals(List.of("not yours"), lines(st, "SELECT line FROM probe_parent.f"));
            st.execute("DROP DATABASE probe_parent CASCADE");
        }
    }

    /** Hive's other statements that name files on the server are not run at all. */
    @Test
    void noOtherStatementNamesAFileOnTheServer() throws Exception {
        try (Coordinator c = Coordinator.start("catalog-other.json", Map.of(ALLOWED_DIRS, incoming.toString()));
             Connection conn = c.connect(); Statement st = conn.createStatement()) {
            for (String sql : List.of("CREATE TABLE located (a INT) LOCATION 'file:///etc'",
                    "INSERT OVERWRITE LOCAL DIRECTORY '" + incoming.resolve("out") + "' SELECT * FROM nation",
                    "INSERT OVERWRITE DIRECTORY 'file:///tmp/out' SELECT * FROM nation",
                    "CREATE FUNCTION evil AS 'org.example.Evil' USING JAR 'file:///tmp/evil.jar'")) {
                SQLException e = assertThrows(SQLException.class, () -> st.execute(sql), sql);
                assertEquals("0A000", e.getSQLState(), sql + ": " + e.getMessage());
            }
            assertTrue(Files.notExists(incoming.resolve("out")));
        }
    }

    /**
     * The Hadoop settings that would make an HDFS path a local one, or load a class of the
     * client's choosing, are the operator's also when a client puts them in its JDBC URL: the
     * connection is refused. A job-tuning setting there is taken.
     */
    @Test
    void hadoopSettingsInTheUrlAreTheOperatorsToo() throws Exception {
        try (Coordinator c = Coordinator.start("catalog-url.json", Map.of(ALLOWED_DIRS, incoming.toString()))) {
            for (String conf : List.of("?fs.defaultFS=file:///", "?fs.hdfs.impl=org.apache.hadoop.fs.RawLocalFileSystem")) {
                SQLException e = assertThrows(SQLException.class, () -> c.connect(conf).close(), conf);
                String key = conf.substring(1, conf.indexOf('='));
                assertTrue(e.getMessage().contains("SET " + key + " is refused"), conf + ": " + e.getMessage());
            }
            try (Connection conn = c.connect("?mapreduce.job.ubertask.enable=true"); Statement st = conn.createStatement()) {
                assertEquals(List.of("mapreduce.job.ubertask.enable=true"), lines(st, "SET mapreduce.job.ubertask.enable"));
            }
        }
    }

    /** The operator's settings are checked when the coordinator starts, not at the first load. */
    @Test
    void aWrongAllowedDirectoryStopsTheCoordinator() {
        IllegalArgumentException relative = assertThrows(IllegalArgumentException.class, () -> ClusterSqlEngine.open(
                tpch.cluster.dir, TestCluster.TIMEOUT, Map.of(ALLOWED_DIRS, "incoming")));
        assertEquals(ALLOWED_DIRS + ": incoming is not an absolute path", relative.getMessage());
        IllegalArgumentException missing = assertThrows(IllegalArgumentException.class, () -> ClusterSqlEngine.open(
                tpch.cluster.dir, TestCluster.TIMEOUT, Map.of(ALLOWED_DIRS, incoming + "," + tpch.dir.resolve("gone"))));
        assertEquals(ALLOWED_DIRS + ": " + tpch.dir.resolve("gone") + " is not a directory", missing.getMessage());
    }
}
