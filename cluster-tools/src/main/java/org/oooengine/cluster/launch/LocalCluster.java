package org.oooengine.cluster.launch;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.oooengine.core.cluster.ClusterSession;
import org.oooengine.core.cluster.ClusterException;
import org.oooengine.core.cluster.ClusterSpec;
import org.oooengine.core.net.ClusterSecret;
import org.oooengine.core.net.RemoteException;

/**
 * The local launcher: N node daemons as separate JVMs on loopback, with their pid files under
 * {@code run/} and their logs under {@code logs/} of the cluster directory.
 */
public final class LocalCluster {
    public static final int DEFAULT_BASE_PORT = 7101;
    public static final int DEFAULT_NODES = 4;
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);

    private final Path dir;

    public LocalCluster(Path dir) {
        this.dir = dir.toAbsolutePath().normalize();
    }

    public Path dir() {
        return dir;
    }

    /** One node as {@code status} reports it. */
    public record NodeStatus(String node, String address, Long pid, String state, Double uptimeSeconds,
                             Map<String, Long> rows) {
    }

    /**
     * Creates the cluster files when absent, checks that nothing runs and every port is free,
     * starts the daemons and waits until each answers.
     *
     * @param nodes    node count; 0 = an existing cluster's own, or {@link #DEFAULT_NODES} for a new one
     * @param nodeArgs extra arguments for every {@code ooo node} (e.g. buffer pool size)
     */
    public ClusterSpec start(int nodes, int basePort, String heap, List<String> nodeArgs) throws Exception {
        ClusterSpec spec;
        if (ClusterSpec.exists(dir)) {
            spec = ClusterSpec.read(dir);
            if (nodes > 0 && spec.nodes().size() != nodes) {
                throw new IllegalArgumentException("the cluster in " + dir + " has " + spec.nodes().size() + " nodes, not "
                        + nodes + "; use another --dir for a cluster of another size");
            }
        } else {
            spec = ClusterSpec.local("local", nodes > 0 ? nodes : DEFAULT_NODES, basePort);
            spec.write(dir);
            ClusterSecret.generate().write(dir.resolve(ClusterSpec.SECRET_FILE));
        }
        for (ClusterSpec.NodeSpec n : spec.nodes()) {
            Optional<ProcessHandle> running = runningProcess(n.id());
            if (running.isPresent()) {
                throw new ClusterException("the cluster in " + dir + " is already running (node " + n.id() + ", pid "
                        + running.get().pid() + "); stop it first with: ooo cluster stop --dir " + dir);
            }
        }
        for (ClusterSpec.NodeSpec n : spec.nodes()) {
            checkPortFree(n);
        }
        Files.createDirectories(dir.resolve("run"));
        Files.createDirectories(dir.resolve("logs"));
        List<Process> started = new ArrayList<>();
        try {
            for (ClusterSpec.NodeSpec n : spec.nodes()) {
                started.add(launch(n, heap, nodeArgs));
            }
            awaitReady(spec, started);
        } catch (Exception e) {
            started.forEach(Process::destroyForcibly);
            for (ClusterSpec.NodeSpec n : spec.nodes()) {
                Files.deleteIfExists(pidFile(n.id()));
            }
            throw e;
        }
        return spec;
    }

    private Process launch(ClusterSpec.NodeSpec n, String heap, List<String> nodeArgs) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        // The same JVM flags as this process (module opens the engine needs), with the node's heap.
        for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (!arg.startsWith("-Xmx") && !arg.startsWith("-agentlib") && !arg.startsWith("-javaagent")) {
                cmd.add(arg);
            }
        }
        cmd.add("-Xmx" + heap);
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add("org.oooengine.cluster.cli.OooCli");
        cmd.addAll(List.of("node", "--cluster", dir.toString(), "--id", n.id()));
        cmd.addAll(nodeArgs);
        Path log = dir.resolve("logs").resolve(n.id() + ".log");
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        pb.environment().putIfAbsent("OOO_LOG_LEVEL", "info");
        Process p = pb.start();
        Files.writeString(pidFile(n.id()), p.pid() + "\n");
        return p;
    }

    private void awaitReady(ClusterSpec spec, List<Process> processes) throws Exception {
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        while (true) {
            for (int i = 0; i < processes.size(); i++) {
                if (!processes.get(i).isAlive()) {
                    String id = spec.nodes().get(i).id();
                    throw new ClusterException("node " + id + " exited while starting; the end of its log ("
                            + dir.resolve("logs").resolve(id + ".log") + "):\n" + tail(id, 15));
                }
            }
            try (ClusterSession s = ClusterSession.open(dir, "launcher", Duration.ofSeconds(2))) {
                return;
            } catch (RemoteException e) {
                if (System.nanoTime() > deadline) {
                    throw new ClusterException("the cluster did not answer within " + READY_TIMEOUT.toSeconds()
                            + " s: " + e.getMessage(), e);
                }
                Thread.sleep(200);
            }
        }
    }

    /** Stops every node: SIGTERM, then SIGKILL after a grace period. Returns the nodes stopped. */
    public List<String> stop() throws Exception {
        ClusterSpec spec = ClusterSpec.read(dir);
        List<String> stopped = new ArrayList<>();
        for (ClusterSpec.NodeSpec n : spec.nodes()) {
            Optional<ProcessHandle> p = runningProcess(n.id());
            if (p.isPresent()) {
                p.get().destroy();
                try {
                    p.get().onExit().get(STOP_TIMEOUT.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
                } catch (java.util.concurrent.TimeoutException e) {
                    p.get().destroyForcibly();
                }
                stopped.add(n.id());
            }
            Files.deleteIfExists(pidFile(n.id()));
        }
        return stopped;
    }

    /**
     * Makes members dial every node at its port plus {@code portOffset} on the same host (where a
     * proxy listens, e.g. one that adds network delay), or directly again when {@code portOffset}
     * is 0. Nodes read the routes when they start, so the cluster must be stopped.
     */
    public ClusterSpec route(int portOffset) {
        ClusterSpec spec = ClusterSpec.read(dir);
        List<String> running = spec.nodes().stream().map(ClusterSpec.NodeSpec::id)
                .filter(id -> runningProcess(id).isPresent()).toList();
        if (!running.isEmpty()) {
            throw new ClusterException("nodes " + running + " are running and read their routes only at start; stop the "
                    + "cluster first: ooo cluster stop --dir " + dir);
        }
        List<ClusterSpec.NodeSpec> routed = new ArrayList<>();
        for (ClusterSpec.NodeSpec n : spec.nodes()) {
            int port = n.port() + portOffset;
            if (port < 1 || port > 65535) {
                throw new IllegalArgumentException("port offset " + portOffset + " puts node " + n.id() + " at port " + port);
            }
            String connect = portOffset == 0 ? null : n.host() + ":" + port;
            routed.add(new ClusterSpec.NodeSpec(n.id(), n.host(), n.port(), connect, n.dataDir()));
        }
        ClusterSpec updated = spec.withNodes(routed);
        updated.write(dir);
        return updated;
    }

    /** Each node's process and, when it answers, its uptime and rows per table. */
    public List<NodeStatus> status() {
        ClusterSpec spec = ClusterSpec.read(dir);
        Map<String, JsonNode> stats = new LinkedHashMap<>();
        try (ClusterSession s = ClusterSession.open(dir, "status", Duration.ofSeconds(2))) {
            stats.putAll(s.stats());
        } catch (RuntimeException e) {
            // Some node does not answer: ask each on its own below.
            for (ClusterSpec.NodeSpec n : spec.nodes()) {
                stats.putAll(statsOf(n.id()));
            }
        }
        List<NodeStatus> out = new ArrayList<>();
        for (ClusterSpec.NodeSpec n : spec.nodes()) {
            Optional<ProcessHandle> p = runningProcess(n.id());
            JsonNode st = stats.get(n.id());
            Map<String, Long> rows = new LinkedHashMap<>();
            if (st != null && st.has("rows")) {
                st.get("rows").fields().forEachRemaining(e -> rows.put(e.getKey(), e.getValue().asLong()));
            }
            String state = st != null ? (st.path("loaded").asBoolean() ? "up" : "up, no data") : p.isPresent() ? "not answering" : "down";
            out.add(new NodeStatus(n.id(), n.host() + ":" + n.port(), p.map(ProcessHandle::pid).orElse(null), state,
                    st == null ? null : st.get("uptimeSeconds").asDouble(), rows));
        }
        return out;
    }

    private Map<String, JsonNode> statsOf(String node) {
        // A one-node view of the cluster: connect to this node alone.
        ClusterSpec spec = ClusterSpec.read(dir);
        try (var peers = new org.oooengine.core.cluster.Peers("status", spec, ClusterSpec.readSecret(dir), Runnable::run,
                Duration.ofSeconds(2))) {
            var frame = peers.client(node).call(org.oooengine.core.net.OpCode.PARTITION_STATS, new byte[0]).join();
            return Map.of(node, new com.fasterxml.jackson.databind.ObjectMapper().readTree(frame.payload()));
        } catch (Exception e) {
            return Map.of();
        }
    }

    private Optional<ProcessHandle> runningProcess(String node) {
        Path f = pidFile(node);
        if (!Files.isRegularFile(f)) {
            return Optional.empty();
        }
        try {
            long pid = Long.parseLong(Files.readString(f).strip());
            return ProcessHandle.of(pid).filter(ProcessHandle::isAlive);
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
    }

    private Path pidFile(String node) {
        return dir.resolve("run").resolve(node + ".pid");
    }

    private static void checkPortFree(ClusterSpec.NodeSpec n) {
        try (ServerSocket s = new ServerSocket()) {
            s.setReuseAddress(true);
            s.bind(new InetSocketAddress(n.host(), n.port()));
        } catch (IOException e) {
            throw new ClusterException("port " + n.port() + " of node " + n.id() + " on " + n.host()
                    + " is in use by another process (" + e.getMessage() + "); pick other ports with --base-port");
        }
    }

    private String tail(String node, int lines) {
        try {
            List<String> all = Files.readAllLines(dir.resolve("logs").resolve(node + ".log"), StandardCharsets.UTF_8);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
