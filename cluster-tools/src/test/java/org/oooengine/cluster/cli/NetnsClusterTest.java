package org.oooengine.cluster.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A cluster whose two nodes each run on a host of their own — a network namespace with its own
 * address on a bridge, as {@code deploy/netns-hosts.sh up --network-only} makes them — started with
 * {@code ooo cluster start --hosts ... --netns ...}: the nodes live in their namespaces, talk to each
 * other and to this machine over the bridge, and hold the data loaded through it. Needs root and
 * {@code ip netns}; skipped elsewhere.
 */
class NetnsClusterTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path SCRIPT = Path.of("..", "deploy", "netns-hosts.sh").toAbsolutePath().normalize();
    private static final String BRIDGE = "ooo-nt0";
    private static final List<String> ADDRESSES = List.of("10.79.0.11", "10.79.0.12");
    private static final List<String> NAMESPACES = List.of("ooo-nt-r1-n01", "ooo-nt-r1-n02");

    @TempDir
    static Path tmp;
    static Path inventory;
    static Path cluster;

    @BeforeAll
    static void hosts() throws Exception {
        assumeTrue("root".equals(System.getProperty("user.name")), "network namespaces need root");
        assumeTrue(ipNetns(), "no 'ip netns' here");
        inventory = tmp.resolve("inventory");
        cluster = tmp.resolve("cluster");
        Cli inv = Cli.run("deploy", "inventory", "--racks", "1", "--nodes-per-rack", "2", "--prefix", "nt",
                "--subnet", "10.79.0.0/24", "--out", inventory.toString());
        assertEquals(0, inv.exitCode(), inv::toString);
        run(List.of(SCRIPT.toString(), "down", "--inventory", inventory.toString(), "--bridge", BRIDGE)); // a run cut short
        Result up = run(List.of(SCRIPT.toString(), "up", "--network-only", "--inventory", inventory.toString(), "--bridge", BRIDGE));
        assertEquals(0, up.exitCode(), up.output());
    }

    @AfterAll
    static void down() throws Exception {
        if (cluster != null) {
            Cli.run("cluster", "stop", "--cluster", cluster.toString());
            run(List.of(SCRIPT.toString(), "down", "--inventory", inventory.toString(), "--bridge", BRIDGE));
        }
    }

    @Test
    void nodesOnHostsOfTheirOwnServeTheDataLoadedOverTheBridge() throws Exception {
        Cli start = Cli.run("cluster", "start", "--cluster", cluster.toString(), "--hosts", String.join(",", ADDRESSES),
                "--netns", String.join(",", NAMESPACES), "--node-heap", "384m", "--buffered-io", "--sql-port", "0",
                "--allow-root");
        assertEquals(0, start.exitCode(), start::toString);
        assertTrue(start.out().contains("n1 10.79.0.11:") && start.out().contains("n2 10.79.0.12:"), start::toString);
        for (int i = 0; i < 2; i++) {
            String pid = Files.readString(cluster.resolve("run").resolve("n" + (i + 1) + ".pid")).lines().findFirst().orElseThrow();
            Result ns = run(List.of("ip", "netns", "identify", pid));
            assertEquals(NAMESPACES.get(i), ns.output().strip(), "node n" + (i + 1) + " runs in its own namespace");
        }

        Cli load = Cli.run("load", "tpch", "--sf", "0.01", "--cluster", cluster.toString());
        assertEquals(0, load.exitCode(), load::toString);
        Cli status = Cli.run("cluster", "status", "--cluster", cluster.toString(), "--json");
        assertEquals(0, status.exitCode(), status::toString);
        long lineitem = 0;
        for (String line : status.out().lines().filter(l -> l.startsWith("{")).toList()) {
            JsonNode node = JSON.readTree(line);
            assertEquals("up", node.get("state").asText(), line);
            assertTrue(node.get("rows").get("lineitem").asLong() > 0, () -> "every node holds lineitem rows: " + line);
            lineitem += node.get("rows").get("lineitem").asLong();
        }
        assertEquals(60_175, lineitem);

        // A join that probes the other node's partitions: answers cross the bridge.
        Cli join = Cli.run("bench", "join", "--cluster", cluster.toString(), "--query", "PL", "--selectivity", "0.01",
                "--mode", "ooo", "--repeat", "1", "--json");
        assertEquals(0, join.exitCode(), join::toString);
        JsonNode last = JSON.readTree(join.out().lines().filter(l -> l.startsWith("{")).reduce((a, b) -> b).orElseThrow());
        assertTrue(last.get("remote_requests").asLong() > 0, last::toString);
        assertTrue(last.get("rows").asLong() > 0, last::toString);

        // Hosts of their own by address, one machine underneath: the calibration measures its device once
        // and counts both nodes on it, as the cost model must (their cores and disk are shared).
        Cli calibrate = Cli.run("calibrate", "--cluster", cluster.toString(), "--duration", "0.05", "--file-size", "8", "--json");
        assertEquals(0, calibrate.exitCode(), calibrate::toString);
        assertEquals(2, JSON.readTree(calibrate.out().strip()).get("disk").get("sharedByNodes").asInt(), calibrate::toString);

        Cli stop = Cli.run("cluster", "stop", "--cluster", cluster.toString());
        assertEquals(0, stop.exitCode(), stop::toString);
        // Started again without its namespaces, a node's address is not this machine's: said so, nothing starts.
        Cli again = Cli.run("cluster", "start", "--cluster", cluster.toString(), "--sql-port", "0", "--allow-root");
        assertEquals(1, again.exitCode(), again::toString);
        assertTrue(again.err().contains("node n1's address 10.79.0.11 is not one of this machine's")
                && again.err().contains("--netns"), again::toString);
        // Nor does a start move the nodes elsewhere: addresses belong to a new cluster.
        Cli moved = Cli.run("cluster", "start", "--cluster", cluster.toString(), "--hosts", "10.79.0.12,10.79.0.11",
                "--netns", String.join(",", NAMESPACES), "--sql-port", "0", "--allow-root");
        assertEquals(1, moved.exitCode(), moved::toString);
        assertTrue(moved.err().contains("has its nodes at [10.79.0.11, 10.79.0.12]"), moved::toString);
    }

    private static boolean ipNetns() {
        try {
            return run(List.of("ip", "netns", "list")).exitCode() == 0;
        } catch (Exception e) {
            return false;
        }
    }

    private record Result(int exitCode, String output) {
    }

    private static Result run(List<String> cmd) throws Exception {
        Process p = new ProcessBuilder(new ArrayList<>(cmd)).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "still running: " + cmd);
        return new Result(p.exitValue(), out);
    }
}
