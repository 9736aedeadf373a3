package org.oooengine.cluster.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The node supervisor of the local launcher (supervise.sh) around a stand-in for a node, a shell
 * command that records each run, writes the node's pid file as a node that serves does, and ends
 * as the test says: which ends it restarts, how often in a row, and what it logs.
 */
class SupervisorScriptTest {
    @TempDir
    Path dir;
    Path script;
    Path log;
    Path runs;

    @BeforeEach
    void setUp() throws IOException {
        assumeTrue(Files.isExecutable(Path.of("/bin/sh")), "no /bin/sh");
        Files.createDirectories(dir.resolve("run"));
        Files.createDirectories(dir.resolve("logs"));
        script = dir.resolve("run").resolve("supervise.sh");
        try (InputStream in = LocalCluster.class.getResourceAsStream("supervise.sh")) {
            Files.write(script, in.readAllBytes());
        }
        log = dir.resolve("logs").resolve("n1.log");
        runs = dir.resolve("runs");
    }

    /** Starts the supervisor of n1 over a node that runs {@code body} (sh) after serving, or before when not {@code serves}. */
    private Process supervise(String body, boolean serves, int maxRestarts) throws IOException {
        String node = "echo run >> \"$0/runs\"; " + (serves ? "echo $$ > \"$0/run/n1.pid\"; " : "") + body;
        List<String> cmd = new ArrayList<>(List.of("/bin/sh", script.toString(), "n1", dir.toString(), "/bin/sh", "-c", node,
                dir.toString()));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        pb.environment().put("OOO_MAX_RESTARTS", String.valueOf(maxRestarts));
        return pb.start();
    }

    private int runs() throws IOException {
        return Files.exists(runs) ? Files.readAllLines(runs).size() : 0;
    }

    /**
     * The node's log, a run's length written as {@code after N s}: a run of the stand-in lasts well under a
     * second, but is counted as 1 s when the clock's second turns during it.
     */
    private String log() throws IOException {
        return Files.readString(log, StandardCharsets.UTF_8).replaceAll("after \\d+ s;", "after N s;");
    }

    private static int exitCode(Process p) throws InterruptedException {
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the supervisor did not end");
        return p.exitValue();
    }

    @Test
    void aNodeOutOfMemoryIsRestartedAFewTimesInARowThenLeftDown() throws Exception {
        Process p = supervise("echo 'Terminating due to java.lang.OutOfMemoryError: Java heap space'; exit 3", true, 2);
        assertEquals(3, exitCode(p));
        assertEquals(3, runs(), "the first run and two restarts");
        String log = log();
        assertTrue(log.contains("WARN  supervisor - node n1 ended (out of memory, exit code 3: "
                + "java.lang.OutOfMemoryError: Java heap space) after N s; restarting it in 2 s (restart 1 of at most 2 in a row)"), log);
        assertTrue(log.contains("(restart 2 of at most 2 in a row)"), log);
        assertTrue(log.contains("ERROR supervisor - node n1 ended (out of memory, exit code 3: java.lang.OutOfMemoryError: "
                + "Java heap space) after N s; restarted 2 times in a row already, it stays down"), log);
    }

    @Test
    void theCauseOfAWatchdogsEndAndOfASignalIsNamed() throws Exception {
        Process p = supervise("echo 'out of memory: node n1 ran out of memory: it spent 97% of the last 30 s in garbage "
                + "collection; ending the process (exit code 3)'; exit 3", true, 0);
        assertEquals(3, exitCode(p));
        assertTrue(log().contains("node n1 ended (out of memory, exit code 3: node n1 ran out of memory: it spent 97% of the "
                + "last 30 s in garbage collection) after N s; restarted 0 times in a row already, it stays down"), log());

        Process killed = supervise("kill -9 $$", true, 0);
        assertEquals(137, exitCode(killed));
        assertTrue(log().contains("node n1 ended (killed by signal 9, exit code 137)"), log());
    }

    @Test
    void aFirstRunThatNeverServedIsNotRetried() throws Exception {
        Process p = supervise("echo 'port taken' >&2; exit 1", false, 5);
        assertEquals(1, exitCode(p));
        assertEquals(1, runs());
        assertFalse(log().contains("supervisor"), "'ooo cluster start' tells why: " + log());
    }

    @Test
    void aNodeStoppedBySigtermOrEndingWellStaysDown() throws Exception {
        assertEquals(143, exitCode(supervise("exit 143", true, 5)));
        assertEquals(0, exitCode(supervise("exit 0", true, 5)));
        assertEquals(2, runs());
        assertFalse(log().contains("restarting"), log());
    }

    @Test
    void aSupervisorToldToStopStopsItsNodeAndStartsNothing() throws Exception {
        Process p = supervise("exec sleep 600", true, 5);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!Files.exists(dir.resolve("run").resolve("n1.pid")) || Files.readString(dir.resolve("run").resolve("n1.pid")).isBlank()) {
            assertTrue(System.nanoTime() < deadline, "the node did not start");
            Thread.sleep(50);
        }
        long node = Long.parseLong(Files.readString(dir.resolve("run").resolve("n1.pid")).strip());
        p.destroy(); // SIGTERM, as ooo cluster stop sends it
        assertEquals(0, exitCode(p));
        ProcessHandle.of(node).ifPresent(h -> assertFalse(h.isAlive(), "the node outlived its supervisor"));
        assertEquals(1, runs());
    }
}
