package org.oooengine.cluster.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.oooengine.hive.engine.ClusterSqlEngine;
import org.oooengine.hive.server.EndpointConfig;
import org.oooengine.hive.server.HiveServer2Endpoint;

/**
 * {@code ooo sql} end to end: a two-node cluster with its coordinator ({@code ooo server} as a
 * separate JVM, started by {@code ooo cluster start}), queried through sqlline and the real Hive
 * JDBC driver in their own class loader.
 */
class SqlCommandTest {
    @TempDir
    static Path tmp;
    static Path cluster;
    static String url;
    static long coordinatorPid;

    @BeforeAll
    static void start() throws Exception {
        cluster = tmp.resolve("cluster");
        int base = Cli.freePorts(3); // two nodes, then the coordinator
        int sqlPort = base + 2;
        Cli r = Cli.run("cluster", "start", "--nodes", "2", "--cluster", cluster.toString(), "--base-port",
                String.valueOf(base), "--node-heap", "384m", "--buffered-io", "--sql-port", String.valueOf(sqlPort),
                "--sql-heap", "512m");
        assertEquals(0, r.exitCode(), r::toString);
        url = "jdbc:hive2://127.0.0.1:" + sqlPort + "/default;auth=noSasl";
        assertTrue(r.out().contains("coordinator up: " + url), r::toString);
        coordinatorPid = Long.parseLong(Files.readAllLines(cluster.resolve("run").resolve("coordinator.pid")).get(0));
        r = Cli.run("load", "tpch", "--sf", "0.01", "--cluster", cluster.toString());
        assertEquals(0, r.exitCode(), r::toString);
    }

    @AfterAll
    static void stop() {
        Cli r = Cli.run("cluster", "stop", "--cluster", cluster.toString());
        assertTrue(r.out().contains("coordinator"), r::toString);
        assertFalse(ProcessHandle.of(coordinatorPid).map(ProcessHandle::isAlive).orElse(false), "coordinator still runs");
    }

    @Test
    void benchTpchThroughJdbcReturnsWhatTheEngineReturnsInProcess() throws Exception {
        Path viaJdbc = tmp.resolve("tpch-jdbc");
        Path inProcess = tmp.resolve("tpch-here");
        Cli jdbc = Cli.run("bench", "tpch", "--cluster", cluster.toString(), "--jdbc", "--queries", "1,3,13", "--repeat", "1",
                "--json", "--results", viaJdbc.toString());
        assertEquals(0, jdbc.exitCode(), jdbc::toString);
        Cli here = Cli.run("bench", "tpch", "--cluster", cluster.toString(), "--queries", "1,3,13", "--repeat", "1",
                "--json", "--results", inProcess.toString());
        assertEquals(0, here.exitCode(), here::toString);
        for (String q : List.of("q01", "q03", "q13")) {
            List<String> rows = Files.readAllLines(viaJdbc.resolve(q + ".tsv"));
            assertFalse(rows.isEmpty(), q);
            assertEquals(Files.readAllLines(inProcess.resolve(q + ".tsv")), rows, q);
        }
        Cli refused = Cli.run("bench", "tpch", "--cluster", cluster.toString(), "--jdbc", "--profile", tmp.resolve("p").toString());
        assertEquals(2, refused.exitCode(), refused::toString);
        assertTrue(refused.err().contains("--jdbc runs the queries on the cluster's coordinator"), refused::toString);
    }

    @Test
    void showTablesListsTheClustersTables() {
        Cli r = Cli.run("sql", "--url", url, "-e", "show tables");
        assertEquals(0, r.exitCode(), r::toString);
        for (String table : List.of("lineitem", "orders", "part", "nation", "region")) {
            assertTrue(r.out().contains("| " + table), table + " missing: " + r);
        }
        assertFalse(r.err().contains("isolation") || r.err().contains("terminal"), "driver noise: " + r);
    }

    @Test
    void aBadQueryExitsNonZeroWithTheError() {
        Cli r = Cli.run("sql", "--url", url, "-e", "selec 1");
        assertNotEquals(0, r.exitCode(), r::toString);
        assertTrue(r.err().contains("syntax error"), r::toString);
        assertFalse(r.err().contains("\tat "), "one line, not a stack trace: " + r);
    }

    @Test
    void theClusterDirectoryLeadsToTheCoordinator() {
        Cli r = Cli.run("sql", "--cluster", cluster.toString(), "-e", "select count(*) as n from nation");
        assertEquals(0, r.exitCode(), r::toString);
        assertTrue(r.out().contains("| 25 "), r::toString);

        Cli status = Cli.run("cluster", "status", "--cluster", cluster.toString());
        assertEquals(0, status.exitCode(), status::toString);
        assertTrue(status.out().contains("coordinator (SQL): up") && status.out().contains(url), status::toString);
    }

    @Test
    void aScriptRunsUntilItsFirstFailure() throws Exception {
        Path script = tmp.resolve("script.sql");
        Files.writeString(script, "select count(*) from region;\nselect nope from region;\nselect 42;\n");
        Cli r = Cli.run("sql", "--url", url, "-f", script.toString());
        assertEquals(1, r.exitCode(), r::toString);
        assertTrue(r.out().contains("| 5 "), r::toString);
        assertTrue(r.err().contains("nope"), r::toString);
        assertFalse(r.out().contains("42"), "stops at the failure: " + r);
    }

    @Test
    void theUrlIsNotTheUser() {
        Cli r = Cli.run("sql", "-u", url, "-e", "select 1");
        assertEquals(2, r.exitCode(), r::toString);
        assertTrue(r.err().contains("give the URL with --url"), r::toString);
    }

    @Test
    void thePasswordComesFromAFile() throws Exception {
        Path users = tmp.resolve("users");
        Files.writeString(users, "alice:s3cret-pw\n");
        Path right = tmp.resolve("right");
        Files.writeString(right, "s3cret-pw\n");
        Path wrong = tmp.resolve("wrong");
        Files.writeString(wrong, "guess\n");
        try (ClusterSqlEngine engine = ClusterSqlEngine.open(cluster, Duration.ofSeconds(30), Map.of());
             HiveServer2Endpoint endpoint = HiveServer2Endpoint.start(engine,
                     EndpointConfig.withPasswordFile("127.0.0.1", 0, users))) {
            String passwordUrl = "jdbc:hive2://127.0.0.1:" + endpoint.port() + "/default";
            Cli r = Cli.run("sql", "--url", passwordUrl, "-u", "alice", "-w", right.toString(), "-e",
                    "select count(*) as n from nation");
            assertEquals(0, r.exitCode(), r::toString);
            assertTrue(r.out().contains("| 25 "), r::toString);

            r = Cli.run("sql", "--url", passwordUrl, "-u", "alice", "-w", wrong.toString(), "-e", "select 1");
            assertEquals(1, r.exitCode(), r::toString);
            assertTrue(r.err().contains("authentication failed"), r::toString);
        }
        Cli both = Cli.run("sql", "--url", url, "-p", "x", "-w", right.toString(), "-e", "select 1");
        assertEquals(2, both.exitCode(), both::toString);
        Cli directory = Cli.run("sql", "--url", url, "-w", right.getParent().toString(), "-e", "select 1");
        assertEquals(2, directory.exitCode(), directory::toString);
        assertTrue(directory.err().contains("is not a readable file"), directory::toString);
    }
}
