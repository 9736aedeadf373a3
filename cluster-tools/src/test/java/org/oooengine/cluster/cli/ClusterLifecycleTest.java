package org.oooengine.cluster.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * The accidents of a running local cluster, one after the other on one cluster of two node JVMs
 * and a coordinator: a node killed and restarted by its supervisor, a node killed with its
 * supervisor, then the coordinator, killed and brought back by {@code ooo cluster start}, a node
 * started by hand, pid files that name a process that is not theirs, and the modes of the files it
 * all leaves behind.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ClusterLifecycleTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> NODE_OPTIONS = List.of("--node-heap", "384m", "--node-gc", "parallel", "--buffered-io",
            "--sql-heap", "512m");
    private static final long LINEITEM_ROWS = 60_175;

    @TempDir
    static Path tmp;
    static Path cluster;
    /** An unrelated process, alive throughout: a pid a dead member's pid file may come to name. */
    static Process stranger;
    static Process byHand;

    @BeforeAll
    static void start() throws Exception {
        cluster = tmp.resolve("cluster");
        int basePort = Cli.freePorts(3); // two nodes, then the coordinator
        List<String> args = new ArrayList<>(List.of("cluster", "start", "--nodes", "2", "--cluster", cluster.toString(),
                "--base-port", String.valueOf(basePort), "--sql-port", String.valueOf(basePort + 2)));
        args.addAll(NODE_OPTIONS);
        Cli r = Cli.run(args.toArray(String[]::new));
        assertEquals(0, r.exitCode(), r::toString);
        r = Cli.run("load", "tpch", "--sf", "0.01", "--cluster", cluster.toString());
        assertEquals(0, r.exitCode(), r::toString);
    }

    @AfterAll
    static void cleanUp() {
        Cli.run("cluster", "stop", "--cluster", cluster.toString());
        for (Process p : new Process[] {stranger, byHand}) {
            if (p != null) {
                p.destroyForcibly();
            }
        }
    }

    @Test
    @Order(0)
    void nodesRunWithTheCollectorAskedForAndTheCoordinatorWithItsOwn() throws Exception {
        List<String> node = commandLine(pid("n1"));
        assertTrue(node.contains("-XX:+UseParallelGC") && !node.contains("-XX:+UseG1GC"), node::toString);
        String heap = node.stream().filter(a -> a.startsWith("-Xmx")).findFirst().orElseThrow().substring(4);
        assertTrue(node.contains("-Xms" + heap), "the whole heap from the start: " + node);
        List<String> coordinator = commandLine(pid("coordinator"));
        assertTrue(coordinator.contains("-XX:+UseG1GC"), coordinator::toString);
        // Out of memory, every member ends (and a node is restarted) rather than hangs.
        assertEquals(1, node.stream().filter("-XX:+ExitOnOutOfMemoryError"::equals).count(), node::toString);
        assertTrue(coordinator.contains("-XX:+ExitOnOutOfMemoryError"), coordinator::toString);
        ProcessHandle supervisor = ProcessHandle.of(pid("n1.supervisor")).orElseThrow();
        assertEquals(supervisor.pid(), ProcessHandle.of(pid("n1")).orElseThrow().parent().orElseThrow().pid(),
                "n1 runs under its supervisor");
        assertTrue(commandLine(supervisor.pid()).contains(cluster.resolve("run").resolve("supervise.sh").toString()),
                () -> "supervisor: " + supervisor.info());
    }

    private static List<String> commandLine(long pid) throws Exception {
        return List.of(Files.readString(Path.of("/proc", String.valueOf(pid), "cmdline")).split("\0"));
    }

    @Test
    @Order(1)
    void aNodeKilledWithSigkillIsRestartedByItsSupervisorWithItsData() throws Exception {
        long n1 = pid("n1");
        long n2 = pid("n2");
        long supervisor = pid("n2.supervisor");
        kill9(n2);

        // A start meanwhile (say, a script's, after a crash) waits for the supervisor's restart, and starts no second n2.
        Cli r = startAgain();
        assertEquals(0, r.exitCode(), r::toString);
        assertTrue(r.out().contains("n2 restarted by its supervisor") && r.out().contains("n1 running already")
                && r.out().contains("coordinator running already"), r::toString);
        assertEquals("up", status().get("n2").get("state").asText(), () -> log(cluster.resolve("logs/n2.log")));
        assertNotEquals(n2, pid("n2"));
        assertEquals(supervisor, pid("n2.supervisor"), "the same supervisor");
        assertEquals(n1, pid("n1"), "the running node is left alone");
        String log = log(cluster.resolve("logs/n2.log"));
        assertTrue(log.contains("WARN  supervisor - node n2 ended (killed by signal 9, exit code 137) after "), log);
        assertTrue(log.contains("restarting it in 2 s (restart 1 of at most 5 in a row)"), log);

        // The coordinator, which ran throughout, reaches the new n2 and its partition.
        Cli sql = Cli.run("sql", "--cluster", cluster.toString(), "-e", "select count(*) as n from lineitem");
        assertEquals(0, sql.exitCode(), sql::toString);
        assertTrue(sql.out().contains("| " + LINEITEM_ROWS + " "), sql::toString);
    }

    @Test
    @Order(2)
    void aNodeKilledWithItsSupervisorComesBackWithItsDataOnStart() throws Exception {
        long n1 = pid("n1");
        crash("n2");
        assertEquals("down", status().get("n2").get("state").asText());

        Cli r = startAgain();
        assertEquals(0, r.exitCode(), r::toString);
        assertTrue(r.out().contains("started n2 ") && r.out().contains("n1 running already"), r::toString);
        assertTrue(r.out().contains("coordinator running already"), r::toString);

        Map<String, JsonNode> status = status();
        for (String node : List.of("n1", "n2")) {
            assertEquals("up", status.get(node).get("state").asText(), status::toString);
            assertEquals(pid(node), status.get(node).get("pid").asLong(), status::toString);
            assertTrue(ProcessHandle.of(pid(node)).map(ProcessHandle::isAlive).orElse(false), node);
        }
        assertEquals(n1, pid("n1"), "the running node is left alone");
        Cli text = Cli.run("cluster", "status", "--cluster", cluster.toString());
        assertEquals(0, text.exitCode(), text::toString);
        assertTrue(text.out().contains("coordinator (SQL): up, pid " + pid("coordinator")), text::toString);
        Cli beats = Cli.run("cluster", "status", "--cluster", cluster.toString(), "--heartbeats", "1");
        assertEquals(0, beats.exitCode(), beats::toString);
        assertTrue(beats.out().contains("heartbeats over 1 s") && beats.out().contains("  n1     UP ")
                && beats.out().contains("  n2     UP "), beats::toString);

        // The coordinator, which ran throughout, reaches the new n2 and its partition.
        Cli sql = Cli.run("sql", "--cluster", cluster.toString(), "-e", "select count(*) as n from lineitem");
        assertEquals(0, sql.exitCode(), sql::toString);
        assertTrue(sql.out().contains("| " + LINEITEM_ROWS + " "), sql::toString);
    }

    @Test
    @Order(3)
    void aKilledCoordinatorComesBackOnItsPort() throws Exception {
        String url = Files.readString(cluster.resolve("run").resolve("coordinator.url")).strip();
        // Killed alone, its supervisor starts it again ...
        long first = pid("coordinator");
        kill9(first);
        awaitLog(cluster.resolve("logs").resolve("coordinator.log"),
                "supervisor - the coordinator ended (killed by signal 9, exit code 137)");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (!Files.exists(pidFile("coordinator")) || pid("coordinator") == first) {
            assertTrue(System.nanoTime() < deadline, () -> "the coordinator was not restarted: "
                    + log(cluster.resolve("logs").resolve("coordinator.log")));
            Thread.sleep(250);
        }
        Cli sql = Cli.run("sql", "--url", url, "-e", "select count(*) as n from lineitem");
        assertEquals(0, sql.exitCode(), sql::toString);
        assertTrue(sql.out().contains("| " + LINEITEM_ROWS + " "), sql::toString);

        // ... and killed with its supervisor, 'ooo cluster start' brings it back on its port.
        crash("coordinator");
        Cli r = startAgain();
        assertEquals(0, r.exitCode(), r::toString);
        assertTrue(r.out().contains("n1, n2 running already"), r::toString);
        assertTrue(r.out().contains("coordinator up: " + url), r::toString);
        sql = Cli.run("sql", "--url", url, "-e", "select count(*) as n from lineitem");
        assertEquals(0, sql.exitCode(), sql::toString);
        assertTrue(sql.out().contains("| " + LINEITEM_ROWS + " "), sql::toString);
    }

    private static void awaitLog(Path file, String text) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!log(file).contains(text)) {
            assertTrue(System.nanoTime() < deadline, () -> "no '" + text + "' in " + log(file));
            Thread.sleep(250);
        }
    }

    @Test
    @Order(4)
    void aClusterWhoseEveryMemberRunsIsRefused() {
        Cli r = startAgain();
        assertEquals(1, r.exitCode(), r::toString);
        assertTrue(r.err().contains("is already running (every node and the coordinator)"), r::toString);
    }

    @Test
    @Order(5)
    void aNodeStartedByHandShowsInStatus() throws Exception {
        ProcessHandle n1 = ProcessHandle.of(pid("n1")).orElseThrow();
        ProcessHandle supervisor = ProcessHandle.of(pid("n1.supervisor")).orElseThrow();
        n1.destroy();
        n1.onExit().get(30, TimeUnit.SECONDS);
        assertFalse(Files.exists(pidFile("n1")), "a node stopped by SIGTERM removes its own pid file");
        supervisor.onExit().get(30, TimeUnit.SECONDS); // and its supervisor does not start it again

        // As an operator would: from the cluster's parent directory, the cluster named relatively.
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                .filter(a -> a.startsWith("--add-opens")).forEach(cmd::add);
        cmd.addAll(List.of("-Xmx384m", "-cp", System.getProperty("java.class.path"), OooCli.class.getName(),
                "node", "--cluster", "cluster", "--id", "n1", "--buffered-io"));
        byHand = new ProcessBuilder(cmd).directory(tmp.toFile()).redirectErrorStream(true)
                .redirectOutput(tmp.resolve("n1-by-hand.log").toFile()).start();

        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!status().get("n1").get("state").asText().equals("up")) {
            assertTrue(byHand.isAlive(), () -> "the node exited: " + log(tmp.resolve("n1-by-hand.log")));
            assertTrue(System.nanoTime() < deadline, () -> "n1 not up: " + log(tmp.resolve("n1-by-hand.log")));
            Thread.sleep(200);
        }
        assertEquals(byHand.pid(), status().get("n1").get("pid").asLong());
    }

    @Test
    @Order(6)
    void aPidFileNamingAnotherProcessDoesNotBlockStart() throws Exception {
        // A process that got a dead member's pid started after the member, by more than a clock's jitter.
        java.time.Instant n2Started = ProcessHandle.of(pid("n2")).orElseThrow().info().startInstant().orElseThrow();
        Thread.sleep(Math.max(0, java.time.Duration.between(java.time.Instant.now(), n2Started.plusSeconds(2)).toMillis()));
        stranger = new ProcessBuilder("sleep", "600").start();
        crash("n2");
        // What the pid's reuse by another process looks like: n2's record, another live process at its pid.
        List<String> record = Files.readAllLines(pidFile("n2"));
        record.set(0, String.valueOf(stranger.pid()));
        Files.write(pidFile("n2"), record);
        JsonNode n2 = status().get("n2");
        assertEquals("down", n2.get("state").asText(), n2::toString);
        assertTrue(n2.get("pid").isNull(), n2::toString);

        Cli r = startAgain();
        assertEquals(0, r.exitCode(), r::toString);
        assertTrue(r.out().contains("started n2 "), r::toString);
        assertTrue(r.err().contains("note: run/n2.pid named pid " + stranger.pid() + ", which is not n2 (it started at "),
                r::toString);
        assertTrue(stranger.isAlive());
        assertNotEquals(stranger.pid(), pid("n2"));
        assertEquals("up", status().get("n2").get("state").asText());
    }

    /** Table files, the secret, logs, pid files: no other local user reads any of it. */
    @Test
    @Order(7)
    void everyFileIsTheOwnersAlone() throws Exception {
        assumeTrue(FileSystems.getDefault().supportedFileAttributeViews().contains("posix"), "not a POSIX file system");
        Set<PosixFilePermission> groupOrOthers = PosixFilePermissions.fromString("---rwxrwx");
        List<String> open = new ArrayList<>();
        int files = 0;
        try (Stream<Path> all = Files.walk(cluster)) {
            for (Path p : all.toList()) {
                Set<PosixFilePermission> mode = Files.getPosixFilePermissions(p);
                String expected = Files.isDirectory(p) ? "rwx------" : "rw-------";
                if (mode.stream().anyMatch(groupOrOthers::contains)
                        || Files.isDirectory(p) && !PosixFilePermissions.toString(mode).equals(expected)) {
                    open.add(cluster.relativize(p) + " " + PosixFilePermissions.toString(mode));
                }
                files += Files.isRegularFile(p) ? 1 : 0;
            }
        }
        assertTrue(open.isEmpty(), "readable by others: " + open);
        for (String f : List.of("secret", "cluster.json", "run/n1.pid", "run/coordinator.url", "logs/coordinator.log",
                "nodes/n2/store/store.json", "nodes/n2/store/" + org.oooengine.core.store.StoreManifest
                        .read(cluster.resolve("nodes/n2/store")).table("lineitem").file())) {
            assertTrue(Files.isRegularFile(cluster.resolve(f)), f + " was walked");
        }
        assertTrue(files > 20, files + " files");
    }

    @Test
    @Order(8)
    void stopStopsEveryMemberButNoStranger() throws Exception {
        long n2 = pid("n2");
        crash("coordinator");
        // A pid file of the older kind, the pid alone: the command line tells it is not the coordinator.
        Files.writeString(pidFile("coordinator"), stranger.pid() + "\n");

        Cli r = Cli.run("cluster", "stop", "--cluster", cluster.toString());
        assertEquals(0, r.exitCode(), r::toString);
        assertEquals("stopped n1, n2", r.out().strip(), r::toString);
        assertTrue(r.err().contains("note: run/coordinator.pid named pid " + stranger.pid()
                + ", which is not coordinator (its command line does not name coordinator): left that process alone"),
                r::toString);
        assertTrue(stranger.isAlive(), "stop killed an unrelated process");
        assertTrue(byHand.waitFor(30, TimeUnit.SECONDS), "the node started by hand still runs");
        assertFalse(ProcessHandle.of(n2).map(ProcessHandle::isAlive).orElse(false), "n2 still runs");
        try (Stream<Path> run = Files.list(cluster.resolve("run"))) {
            assertEquals(List.of(), run.map(p -> p.getFileName().toString()).toList());
        }
        Cli status = Cli.run("cluster", "status", "--cluster", cluster.toString(), "--json");
        assertEquals(1, status.exitCode(), status::toString);
        assertTrue(status.out().lines().allMatch(l -> l.contains("\"state\":\"down\"")), status::toString);
    }

    private static Cli startAgain() {
        List<String> args = new ArrayList<>(List.of("cluster", "start", "--cluster", cluster.toString()));
        args.addAll(NODE_OPTIONS);
        return Cli.run(args.toArray(String[]::new));
    }

    private static Map<String, JsonNode> status() throws Exception {
        Cli r = Cli.run("cluster", "status", "--cluster", cluster.toString(), "--json");
        Map<String, JsonNode> byNode = new LinkedHashMap<>();
        for (String line : r.out().lines().toList()) {
            JsonNode n = JSON.readTree(line);
            byNode.put(n.get("node").asText(), n);
        }
        return byNode;
    }

    private static Path pidFile(String member) {
        return cluster.resolve("run").resolve(member + ".pid");
    }

    private static long pid(String member) throws Exception {
        return Long.parseLong(Files.readAllLines(pidFile(member)).get(0));
    }

    /** A node and its supervisor killed, as by a crash of them both: nothing restarts the node. */
    private static void crash(String node) throws Exception {
        kill9(pid(node + ".supervisor"));
        kill9(pid(node));
    }

    private static void kill9(long pid) throws Exception {
        ProcessHandle p = ProcessHandle.of(pid).orElseThrow();
        assertTrue(p.destroyForcibly());
        p.onExit().get(30, TimeUnit.SECONDS);
    }

    private static String log(Path file) {
        try {
            return Files.readString(file);
        } catch (java.io.IOException e) {
            return e.toString();
        }
    }

}
