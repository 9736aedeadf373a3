package org.oooengine.cluster.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.oooengine.cluster.launch.LocalCluster;
import org.oooengine.core.settings.CoordinatorSettings;
import org.oooengine.core.storage.Directories;
import org.oooengine.hive.engine.ClusterSqlEngine;

/**
 * A node that runs out of memory under an ordinary request ends rather than hangs, and its
 * supervisor starts it again, saying so: one node with a 32 MiB heap, asked to load more rows than
 * its load's in-memory sort (up to 64 MiB) can hold in it. A SQL statement it ran fails of memory,
 * naming it.
 */
class OutOfMemoryRestartTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;
    Path cluster;

    @AfterEach
    void stop() {
        if (cluster != null) {
            Cli.run("cluster", "stop", "--cluster", cluster.toString());
        }
    }

    @Test
    void aNodeOutOfMemoryEndsIsRestartedAndAnswersAgain() throws Exception {
        cluster = tmp.resolve("cluster");
        Cli r = Cli.run("cluster", "start", "--nodes", "1", "--cluster", cluster.toString(), "--base-port",
                String.valueOf(Cli.freePorts(1)), "--sql-port", "0", "--node-heap", "32m", "--buffer-pool", "4",
                "--buffered-io");
        assertEquals(0, r.exitCode(), r::toString);
        long first = pid("n1");
        long supervisor = pid("n1.supervisor");

        Cli load = Cli.run("load", "tpch", "--sf", "0.05", "--cluster", cluster.toString());
        assertNotEquals(0, load.exitCode(), load::toString);
        assertTrue(load.err().contains("node n1"), () -> "the failure names the node: " + load);

        // The JVM ended (it did not sit in collections), with the exit code of out of memory ...
        ProcessHandle.of(first).ifPresent(p -> p.onExit().orTimeout(90, TimeUnit.SECONDS).join());
        Path log = cluster.resolve("logs").resolve("n1.log");
        awaitLog(log, "supervisor - node n1 ended (out of memory, exit code 3");
        String text = Files.readString(log);
        assertTrue(text.contains("Terminating due to java.lang.OutOfMemoryError: Java heap space")
                || text.contains("out of memory: node n1 ran out of memory: it spent "), text);
        assertTrue(text.contains("; restarting it in 2 s (restart 1 of at most 5 in a row)"), text);

        // ... and its supervisor started it again: it answers.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        JsonNode n1 = status();
        while (!n1.get("state").asText().startsWith("up")) {
            assertTrue(System.nanoTime() < deadline, () -> "n1 does not answer again: " + read(log));
            Thread.sleep(500);
            n1 = status();
        }
        assertNotEquals(first, n1.get("pid").asLong());
        assertEquals(supervisor, pid("n1.supervisor"));
        assertTrue(n1.get("gcShare").asDouble() >= 0, n1::toString);
        // ... and says why it was restarted
        assertTrue(n1.get("restartedAfter").asText().startsWith("out of memory, exit code 3"), n1::toString);
        Cli table = Cli.run("cluster", "status", "--cluster", cluster.toString());
        assertTrue(table.out().contains("restarted by its supervisor after: out of memory, exit code 3"), table::toString);

        // Stopped, it stays down: its supervisor ends with it.
        Cli stop = Cli.run("cluster", "stop", "--cluster", cluster.toString());
        assertEquals("stopped n1", stop.out().strip(), stop::toString);
        assertFalse(ProcessHandle.of(supervisor).map(ProcessHandle::isAlive).orElse(false), "the supervisor still runs");
        Thread.sleep(3000);
        assertEquals("down", status().get("state").asText());
        try (var run = Files.list(cluster.resolve("run"))) {
            assertEquals(List.of(), run.map(p -> p.getFileName().toString()).toList());
        }
        cluster = null;
    }

    /**
     * A SQL statement whose node runs out of memory under it fails with SQLSTATE 53200 naming the
     * node, not with 58000: the coordinator lost its connection to the node, waited for the
     * supervisor to start it again, and the node said its previous run ran out of memory while the
     * statement ran. Through the real Hive JDBC driver: a CREATE TABLE ... AS SELECT of 300,000 rows
     * of 200 characters, more than the load's in-memory sort on a node of a 32 MiB heap can hold.
     */
    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void aStatementWhoseNodeRanOutOfMemoryFailsWithOutOfMemoryNamingTheNode() throws Exception {
        cluster = tmp.resolve("cluster");
        // A generous wait for the node to come back on a loaded machine (the default is 10 s).
        Directories.createPrivate(cluster);
        Directories.writePrivate(cluster.resolve(ClusterSqlEngine.SETTINGS_FILE),
                CoordinatorSettings.NODE_RESTART_WAIT.name() + "=120s\n");
        int base = Cli.freePorts(2);
        Cli r = Cli.run("cluster", "start", "--nodes", "1", "--cluster", cluster.toString(), "--base-port",
                String.valueOf(base), "--sql-port", String.valueOf(base + 1), "--sql-heap", "512m", "--node-heap", "32m",
                "--buffer-pool", "4", "--buffered-io");
        assertEquals(0, r.exitCode(), r::toString);
        String url = LocalCluster.jdbcUrl("127.0.0.1", base + 1);
        long first = pid("n1");
        Path log = cluster.resolve("logs").resolve("n1.log");
        try (Connection c = HiveJdbc.connect(url, null, null); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE seed (k INT)");
            st.execute("INSERT INTO seed VALUES " + IntStream.range(0, 100).mapToObj(i -> "(" + i + ")")
                    .collect(Collectors.joining(", ")));

            long t0 = System.nanoTime();
            SQLException e = assertThrows(SQLException.class, () -> st.execute("CREATE TABLE big AS SELECT "
                    + "a.k * 10000 + b.k * 100 + c.k AS id, repeat('x', 200) AS pad FROM seed a CROSS JOIN seed b "
                    + "CROSS JOIN (SELECT k FROM seed WHERE k < 30) c"));
            double took = (System.nanoTime() - t0) / 1e9;
            assertEquals("53200", e.getSQLState(), () -> e + "\n" + read(log));
            assertTrue(e.getMessage().contains("node n1 ran out of memory"), () -> e + "\n" + read(log));
            if (read(log).contains("Terminating due to java.lang.OutOfMemoryError")) {
                // The JVM's own end, which the node had no time to tell anyone: the restarted node told it.
                assertTrue(e.getMessage().contains("node n1 ran out of memory (exit code 3: java.lang.OutOfMemoryError: "
                        + "Java heap space) while running this statement and was restarted by its supervisor"), e::toString);
            }
            assertTrue(took < 240, "failed after " + took + " s");
            // (it answered before it wrote its pid file, maybe)
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (pid("n1") == first && System.nanoTime() < deadline) {
                Thread.sleep(200);
            }
            assertNotEquals(first, pid("n1"), "n1 was started again");

            // The coordinator reaches the restarted node by itself: what was loaded before is there.
            try (ResultSet rs = st.executeQuery("SELECT count(*) FROM seed")) {
                assertTrue(rs.next());
                assertEquals(100, rs.getLong(1));
            }
        }
    }

    private JsonNode status() throws Exception {
        Cli r = Cli.run("cluster", "status", "--cluster", cluster.toString(), "--json");
        return JSON.readTree(r.out().lines().findFirst().orElseThrow());
    }

    private long pid(String member) throws Exception {
        return Long.parseLong(Files.readAllLines(cluster.resolve("run").resolve(member + ".pid")).get(0));
    }

    private static void awaitLog(Path log, String text) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (!read(log).contains(text)) {
            assertTrue(System.nanoTime() < deadline, () -> "no '" + text + "' in " + read(log));
            Thread.sleep(200);
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (java.io.IOException e) {
            return e.toString();
        }
    }
}
