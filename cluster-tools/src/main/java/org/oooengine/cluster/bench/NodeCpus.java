package org.oooengine.cluster.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.oooengine.cluster.launch.PidFile;

/**
 * The CPUs of a local cluster's node processes, set for a benchmark and given back after: each
 * node pinned to a core of its own ({@code taskset}, round robin over the machine's cores), as
 * when every node is a machine, and a node slowed by a factor with a CPU quota of a control group
 * (1/factor of one core: a node pinned to its own core runs that many times slower). Needs the
 * rights to change other processes' affinity and the control groups (root); refused otherwise,
 * before anything changed.
 */
public final class NodeCpus implements AutoCloseable {
    /** cgroup v1's CPU controller, and v2's unified hierarchy where the cpu controller is enabled. */
    private static final Path V1_CPU = Path.of("/sys/fs/cgroup/cpu");
    private static final Path V2 = Path.of("/sys/fs/cgroup");
    private static final long PERIOD_US = 100_000;

    private final Map<String, Long> pids;
    private final List<Path> groups = new ArrayList<>();
    private final boolean pinned;

    private NodeCpus(Map<String, Long> pids, boolean pinned) {
        this.pids = pids;
        this.pinned = pinned;
    }

    /**
     * Sets the CPUs of the nodes of the cluster in {@code clusterDir}: pinned when {@code pin},
     * each of {@code slow} (node id to factor, at least 1) capped at 1/factor of a core.
     */
    public static NodeCpus set(Path clusterDir, List<String> nodes, boolean pin, Map<String, Double> slow) {
        Map<String, Long> pids = new LinkedHashMap<>();
        for (String node : nodes) {
            if (!(new PidFile(clusterDir, node).read() instanceof PidFile.Up up)) {
                throw new IllegalStateException("node " + node + " of " + clusterDir + " is not running");
            }
            pids.put(node, up.process().pid());
        }
        for (String node : slow.keySet()) {
            if (!pids.containsKey(node)) {
                throw new IllegalArgumentException("no node " + node + " in " + clusterDir + " (nodes: " + nodes + ")");
            }
        }
        NodeCpus cpus = new NodeCpus(pids, pin);
        try {
            if (pin) {
                int cores = Runtime.getRuntime().availableProcessors();
                int i = 0;
                for (long pid : pids.values()) {
                    taskset(Integer.toString(i++ % cores), pid);
                }
            }
            for (Map.Entry<String, Double> e : slow.entrySet()) {
                cpus.cap(e.getKey(), pids.get(e.getKey()), e.getValue());
            }
        } catch (RuntimeException e) {
            cpus.close();
            throw e;
        }
        return cpus;
    }

    /** Puts {@code pid} in a control group of its own limited to 1/{@code factor} of a core. */
    private void cap(String node, long pid, double factor) {
        if (!(factor >= 1)) {
            throw new IllegalArgumentException("node " + node + ": a slowing factor is at least 1, got " + factor);
        }
        long quota = Math.round(PERIOD_US / factor);
        boolean v1 = Files.isWritable(V1_CPU.resolve("cpu.cfs_quota_us"));
        Path group = (v1 ? V1_CPU : V2).resolve("ooo-bench-" + node);
        try {
            Files.createDirectories(group);
            groups.add(group);
            if (v1) {
                write(group.resolve("cpu.cfs_period_us"), Long.toString(PERIOD_US));
                write(group.resolve("cpu.cfs_quota_us"), Long.toString(quota));
            } else {
                write(group.resolve("cpu.max"), quota + " " + PERIOD_US);
            }
            write(group.resolve("cgroup.procs"), Long.toString(pid));
        } catch (IOException | UncheckedIOException e) {
            throw new IllegalStateException("cannot slow node " + node + " with a CPU quota under " + group
                    + " (root and a cgroup CPU controller are needed): " + e.getMessage(), e);
        }
    }

    /** The nodes' CPUs as before: every core again, out of the control groups. */
    @Override
    public void close() {
        List<String> problems = new ArrayList<>();
        for (Path group : groups) {
            Path root = group.getParent();
            try {
                for (String pid : Files.readAllLines(group.resolve("cgroup.procs"))) {
                    write(root.resolve("cgroup.procs"), pid.strip());
                }
                Files.delete(group);
            } catch (IOException | UncheckedIOException e) {
                problems.add(group + ": " + e.getMessage());
            }
        }
        if (pinned) {
            String all = "0-" + (Runtime.getRuntime().availableProcessors() - 1);
            for (long pid : pids.values()) {
                try {
                    taskset(all, pid);
                } catch (RuntimeException e) {
                    problems.add("pid " + pid + ": " + e.getMessage());
                }
            }
        }
        if (!problems.isEmpty()) {
            throw new IllegalStateException("could not give the nodes their CPUs back: " + String.join("; ", problems));
        }
    }

    /** Pins every thread of {@code pid} (and those it starts later) to {@code cpus}. */
    private static void taskset(String cpus, long pid) {
        try {
            Process p = new ProcessBuilder("taskset", "-a", "-p", "-c", cpus, Long.toString(pid))
                    .redirectErrorStream(true).start();
            String said = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IllegalStateException("taskset -a -p -c " + cpus + " " + pid + " failed: " + said);
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot run taskset (util-linux) to pin pid " + pid + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while pinning pid " + pid, e);
        }
    }

    private static void write(Path file, String text) {
        try {
            Files.writeString(file, text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
