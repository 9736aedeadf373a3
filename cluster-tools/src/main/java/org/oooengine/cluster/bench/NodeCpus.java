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
 * node pinned to a core of its own ({@code taskset}, round robin over the CPUs it may use), as
 * when every node is a machine, and a node slowed by a factor with a CPU quota of a control group
 * (1/factor of one core: a node pinned to its own core runs that many times slower). Needs the
 * rights to change other processes' affinity and the control groups (root); refused otherwise.
 * Closing puts each process back in its control group and on its CPUs as they were.
 */
public final class NodeCpus implements AutoCloseable {
    /** cgroup v1's CPU controller, and v2's unified hierarchy where the cpu controller is enabled. */
    private static final Path V1_CPU = Path.of("/sys/fs/cgroup/cpu");
    private static final Path V2 = Path.of("/sys/fs/cgroup");
    private static final long PERIOD_US = 100_000;

    private final Map<String, Long> pids;
    private final List<Path> groups = new ArrayList<>();
    /** Each capped process's control group before: where it goes back to. */
    private final Map<Long, Path> groupsBefore = new LinkedHashMap<>();
    /** Each pinned process's CPUs before ({@code taskset}'s list), to give back. */
    private final Map<Long, String> affinityBefore = new LinkedHashMap<>();

    private NodeCpus(Map<String, Long> pids) {
        this.pids = pids;
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
        NodeCpus cpus = new NodeCpus(pids);
        try {
            if (pin) {
                int i = 0;
                for (long pid : pids.values()) {
                    String before = affinity(pid);
                    List<Integer> allowed = cpuList(before);
                    cpus.affinityBefore.put(pid, before);
                    taskset(Integer.toString(allowed.get(i++ % allowed.size())), pid);
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
        Path root = v1 ? V1_CPU : V2;
        Path group = root.resolve("ooo-bench-" + node);
        try {
            groupsBefore.put(pid, root.resolve(cgroupOf(pid, v1)));
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
            try {
                for (String pid : Files.readAllLines(group.resolve("cgroup.procs"))) {
                    Path before = groupsBefore.getOrDefault(Long.parseLong(pid.strip()), group.getParent());
                    write(before.resolve("cgroup.procs"), pid.strip());
                }
                Files.delete(group);
            } catch (IOException | UncheckedIOException | NumberFormatException e) {
                problems.add(group + ": " + e.getMessage());
            }
        }
        affinityBefore.forEach((pid, cpus) -> {
            try {
                taskset(cpus, pid);
            } catch (RuntimeException e) {
                problems.add("pid " + pid + ": " + e.getMessage());
            }
        });
        if (!problems.isEmpty()) {
            throw new IllegalStateException("could not give the nodes their CPUs back: " + String.join("; ", problems));
        }
    }

    /** Pins every thread of {@code pid} (and those it starts later) to {@code cpus}. */
    private static void taskset(String cpus, long pid) {
        run("taskset", "-a", "-p", "-c", cpus, Long.toString(pid));
    }

    /** Runs a command, returning what it printed; one that fails or cannot run is an IllegalStateException. */
    private static String run(String... command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String said = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", command) + " failed: " + said);
            }
            return said;
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + command[0] + " (util-linux): " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted running " + command[0], e);
        }
    }

    /** The CPUs {@code pid} may run on, as {@code taskset -p -c} lists them (e.g. {@code 0-3,6}). */
    private static String affinity(long pid) {
        String said = run("taskset", "-p", "-c", Long.toString(pid));
        return said.substring(said.lastIndexOf(':') + 1).strip();
    }

    /** The CPUs of a list such as {@code 0-3,6}, in order. */
    static List<Integer> cpuList(String list) {
        List<Integer> cpus = new ArrayList<>();
        for (String part : list.split(",")) {
            String[] range = part.strip().split("-");
            int from = Integer.parseInt(range[0]);
            int to = range.length > 1 ? Integer.parseInt(range[1]) : from;
            for (int c = from; c <= to; c++) {
                cpus.add(c);
            }
        }
        return cpus;
    }

    /** {@code pid}'s control group of the CPU controller, relative to the hierarchy's root (v1), or its unified one (v2). */
    private static String cgroupOf(long pid, boolean v1) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "cgroup"))) {
            String[] f = line.split(":", 3);
            if (f.length == 3 && (v1 ? List.of(f[1].split(",")).contains("cpu") : f[0].equals("0"))) {
                return f[2].startsWith("/") ? f[2].substring(1) : f[2];
            }
        }
        return "";
    }

    private static void write(Path file, String text) {
        try {
            Files.writeString(file, text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
