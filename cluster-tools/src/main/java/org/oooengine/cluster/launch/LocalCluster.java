package org.oooengine.cluster.launch;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.oooengine.core.cluster.ClusterSession;
import org.oooengine.core.cluster.GcWatchdog;
import org.oooengine.core.cluster.ClusterException;
import org.oooengine.core.cluster.ClusterSpec;
import org.oooengine.core.cluster.PreviousEnd;
import org.oooengine.core.net.ClusterSecret;
import org.oooengine.core.net.WireCompression;
import org.oooengine.core.net.RemoteException;
import org.oooengine.core.storage.Directories;

/**
 * The local launcher: N node daemons as separate JVMs on loopback, and optionally the coordinator
 * ({@code ooo server}, the SQL endpoint) beside them, with their pid files under {@code run/} and
 * their logs under {@code logs/} of the cluster directory. Starting a cluster whose members partly
 * run starts those that are down; a pid file is trusted only while its process is the member (see
 * {@link PidFile}).
 *
 * <p>Every member runs with {@code -XX:+ExitOnOutOfMemoryError} (and a garbage collection watchdog,
 * see GcWatchdog): out of memory, it ends rather than hangs. Each node runs under a supervisor, a
 * small shell loop ({@code supervise.sh} beside this class) that starts it again when it ends
 * abnormally after it served, at most a few times in a row, and logs the node and the cause.
 */
public final class LocalCluster {
    public static final int DEFAULT_BASE_PORT = 7101;
    public static final int DEFAULT_NODES = 4;

    /**
     * How many nodes keep each partition of a new cluster of {@code nodes} unless told: two from three
     * nodes on, so that a node lost loses nothing and a partition has a holder left while one is down.
     */
    public static int defaultReplication(int nodes) {
        return nodes >= 3 ? 2 : 1;
    }
    public static final int DEFAULT_SQL_PORT = 10000;
    /** The coordinator's name for its pid, log and URL files; no node is called so. */
    public static final String COORDINATOR = "coordinator";
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);
    private static final Path SHELL = Path.of("/bin/sh");
    /** What every member's JVM does on an OutOfMemoryError: end (exit code 3), rather than go on half broken. */
    static final String EXIT_ON_OOM = "-XX:+ExitOnOutOfMemoryError";
    /** The node supervisor, a POSIX shell script (see the file). */
    private static final String SUPERVISOR = supervisorScript();

    private final Path dir;
    private final boolean rootAllowed;

    public LocalCluster(Path dir) {
        this(dir, false);
    }

    /** @param rootAllowed the members it starts may run as root (they refuse otherwise) */
    public LocalCluster(Path dir, boolean rootAllowed) {
        this.dir = dir.toAbsolutePath().normalize();
        this.rootAllowed = rootAllowed;
    }

    public Path dir() {
        return dir;
    }

    /**
     * One node as {@code status} reports it: state is up, up (no data), not answering (with the
     * share of garbage collection its last report gave, when high and recent), restarting (its
     * supervisor starts it again) or down. gcShare is the share of about the last 30 s the node
     * spent in garbage collection, from its answer or, when it does not answer, its recent report.
     */
    /**
     * @param restartedAfter when this run was started by the node's supervisor: why and when the run
     *                       before it ended (e.g. {@code out of memory, exit code 3: Java heap space, at
     *                       2026-11-28T08:41:02Z}); null otherwise
     * @param workRunning    the scans and join fragments it runs (admitted): the queue its heartbeats
     *                       report and the coordinator balances partitions' reads by
     * @param workWaiting    those waiting for admission
     */
    public record NodeStatus(String node, String address, String rack, Long pid, String state, Double uptimeSeconds,
                             Map<String, Long> rows, Double gcShare, String restartedAfter, Integer workRunning,
                             Integer workWaiting) {
    }

    /** The coordinator as {@code status} reports it: state is up, not answering or down. */
    public record CoordinatorStatus(String url, Long pid, String state) {
    }

    /** A report of the share of garbage collection at least this high is worth telling with "not answering". */
    private static final double GC_WORTH_TELLING = 0.5;
    /** How long {@link #status} waits for a node to connect and answer. */
    private static final Duration STATUS_TIMEOUT = Duration.ofSeconds(2);
    private static final com.fasterxml.jackson.databind.ObjectMapper STATUS_JSON = new com.fasterxml.jackson.databind.ObjectMapper();
    /** A report older than this says nothing of now (a process writes one every 5 s). */
    private static final Duration GC_REPORT_FRESH = Duration.ofSeconds(15);

    /**
     * What {@link #start} did: the nodes it started, those that were running already, and pid files
     * it found naming another process than their member (one sentence each). Nodes that were down
     * while their supervisor restarted them are not started again, but waited for: they are in
     * {@code restarted}, and not in {@code running}.
     */
    public record Started(ClusterSpec spec, List<String> started, List<String> running, List<String> strangers,
                          List<String> restarted) {
    }

    /** The garbage collector of a node's JVM. */
    public enum Gc {
        /** G1, the JVM's default: short pauses, for queries beside queries. */
        G1("-XX:+UseG1GC"),
        /**
         * The parallel collector: no concurrent refinement and cheaper write barriers, for
         * transactional work that updates many old rows in place (TPC-C: about a fifth less CPU per
         * transaction), at the price of longer pauses when the old generation fills.
         */
        PARALLEL("-XX:+UseParallelGC");

        final String flag;

        Gc(String flag) {
            this.flag = flag;
        }
    }

    /** How a node's JVM runs: its heap (a JVM size such as 2g) and collector. */
    public record NodeJvm(String heap, Gc gc) {
        public static NodeJvm of(String heap) {
            return new NodeJvm(heap, Gc.G1);
        }
    }

    /**
     * Where the nodes of a new cluster listen — on loopback at consecutive ports from {@code basePort},
     * or each at an address of its own, all at {@code basePort} — and the Linux network namespaces they
     * run in, one per node in node order, or none: node n<i> then starts under {@code ip netns exec}
     * its namespace, which holds its address (hosts such as deploy/netns-hosts.sh makes, for a cluster
     * whose nodes talk over a real network stack rather than loopback). Namespaces are not recorded:
     * every start names them again. {@code compression}, where not null, is how every member started
     * from now on compresses the frames it sends, recorded in cluster.json (null: as it records).
     */
    public record Placement(int basePort, List<String> addresses, List<String> namespaces, int replication,
                            WireCompression compression) {
        public Placement {
            addresses = List.copyOf(addresses);
            namespaces = List.copyOf(namespaces);
            onceEach("address", addresses);
            onceEach("network namespace", namespaces);
        }

        /** Each partition on one node. */
        public Placement(int basePort, List<String> addresses, List<String> namespaces) {
            this(basePort, addresses, namespaces, 1, null);
        }

        private static void onceEach(String what, List<String> values) {
            Set<String> seen = new HashSet<>();
            for (String v : values) {
                if (!seen.add(v)) {
                    throw new IllegalArgumentException(what + " " + v + " given twice: one node each");
                }
            }
        }

        public static Placement loopback(int basePort) {
            return new Placement(basePort, List.of(), List.of());
        }

        ClusterSpec newSpec(int nodes) {
            if (addresses.isEmpty()) {
                return ClusterSpec.local("local", nodes, basePort).withReplication(replication);
            }
            if (nodes != addresses.size()) {
                throw new IllegalArgumentException(addresses.size() + " addresses for " + nodes + " nodes");
            }
            return ClusterSpec.onHosts("local", addresses, basePort).withReplication(replication);
        }

        /** The command prefix that runs node {@code index} (0-based) in its namespace, if it has one. */
        List<String> launcher(int index) {
            return namespaces.isEmpty() ? List.of() : List.of("ip", "netns", "exec", namespaces.get(index));
        }
    }

    /** What {@link #stop} did: the members it stopped and pid files naming another process, left alone. */
    public record Stopped(List<String> stopped, List<String> strangers) {
    }

    /**
     * Creates the cluster files when absent, then starts every node that is down (all of them for a
     * new or stopped cluster), after checking that their ports are free, and waits until the whole
     * cluster answers. Running nodes are left alone. On failure the nodes it started are stopped.
     *
     * @param nodes    node count; 0 = an existing cluster's own, or {@link #DEFAULT_NODES} for a new one
     * @param nodeArgs extra arguments for every {@code ooo node} (e.g. buffer pool size)
     */
    public Started start(int nodes, int basePort, NodeJvm jvm, List<String> nodeArgs) throws Exception {
        return start(nodes, Placement.loopback(basePort), jvm, nodeArgs);
    }

    /** {@link #start(int, int, NodeJvm, List)} with the nodes placed as {@code placement} says. */
    public Started start(int nodes, Placement placement, NodeJvm jvm, List<String> nodeArgs) throws Exception {
        ClusterSpec spec;
        if (ClusterSpec.exists(dir)) {
            spec = ClusterSpec.read(dir);
            if (nodes > 0 && spec.nodes().size() != nodes) {
                throw new IllegalArgumentException("the cluster in " + dir + " has " + spec.nodes().size() + " nodes, not "
                        + nodes + "; use another --cluster directory for a cluster of another size");
            }
            List<String> hosts = spec.nodes().stream().map(ClusterSpec.NodeSpec::host).toList();
            if (!placement.addresses().isEmpty() && !placement.addresses().equals(hosts)) {
                throw new IllegalArgumentException("the cluster in " + dir + " has its nodes at " + hosts + ", not "
                        + placement.addresses() + "; addresses are given to a new cluster only");
            }
        } else {
            int count = nodes > 0 ? nodes : placement.addresses().isEmpty() ? DEFAULT_NODES : placement.addresses().size();
            spec = placement.newSpec(count);
            spec.write(dir);
            ClusterSecret.generate().write(dir.resolve(ClusterSpec.SECRET_FILE));
        }
        if (placement.compression() != null && placement.compression() != spec.wireCompression()) {
            spec = spec.withCompression(placement.compression());
            spec.write(dir);
        }
        if (!placement.namespaces().isEmpty() && placement.namespaces().size() != spec.nodes().size()) {
            throw new IllegalArgumentException(placement.namespaces().size() + " network namespaces for the "
                    + spec.nodes().size() + " nodes of the cluster in " + dir);
        }
        List<ClusterSpec.NodeSpec> down = new ArrayList<>();
        List<String> running = new ArrayList<>();
        List<String> strangers = new ArrayList<>();
        List<ClusterSpec.NodeSpec> restarting = new ArrayList<>();
        List<ProcessHandle> restartingSupervisors = new ArrayList<>();
        for (ClusterSpec.NodeSpec n : spec.nodes()) {
            PidFile.State state = pidFile(n.id()).read();
            if (state instanceof PidFile.Up) {
                running.add(n.id());
            } else if (supervisorPidFile(n.id()).read() instanceof PidFile.Up supervisor) {
                // Down while its supervisor runs: being restarted by it. Waited for below, not started twice.
                restarting.add(n);
                restartingSupervisors.add(supervisor.process());
            } else {
                stranger(n.id(), state).ifPresent(strangers::add);
                down.add(n);
            }
        }
        if (placement.namespaces().isEmpty()) {
            // (A namespace's ports are its own: nothing of this one can take them.)
            for (ClusterSpec.NodeSpec n : down) {
                checkPortFree(n);
            }
        }
        Directories.createPrivate(dir.resolve("run"));
        Directories.createPrivate(dir.resolve("logs"));
        List<Process> started = new ArrayList<>();
        try {
            for (ClusterSpec.NodeSpec n : down) {
                started.add(launch(n, placement.launcher(spec.nodes().indexOf(n)), jvm, nodeArgs));
            }
            if (!down.isEmpty() || !restarting.isEmpty()) {
                List<ClusterSpec.NodeSpec> awaited = new ArrayList<>(down);
                awaited.addAll(restarting);
                List<ProcessHandle> processes = new ArrayList<>(started.stream().map(Process::toHandle).toList());
                processes.addAll(restartingSupervisors);
                awaitReady(awaited, processes);
            }
        } catch (Exception e) {
            started.forEach(LocalCluster::destroyWithNode);
            for (ClusterSpec.NodeSpec n : down) {
                pidFile(n.id()).delete();
                supervisorPidFile(n.id()).delete();
            }
            throw e;
        }
        return new Started(spec, down.stream().map(ClusterSpec.NodeSpec::id).toList(), running, strangers,
                restarting.stream().map(ClusterSpec.NodeSpec::id).toList());
    }

    /** Starts node {@code n} under its supervisor; the process returned is the supervisor's. */
    private Process launch(ClusterSpec.NodeSpec n, List<String> launcher, NodeJvm jvm, List<String> nodeArgs) throws IOException {
        List<String> args = new ArrayList<>(List.of("node", "--cluster", dir.toString(), "--id", n.id()));
        args.addAll(nodeArgs);
        return launch(n.id(), launcher, jvm, args, true);
    }

    /**
     * run/supervise.sh, written anew (this version's) by each start: a file, so that ps and the pid
     * file's checks see {@code sh .../run/supervise.sh <node> ...} rather than the whole script. It is
     * replaced by a rename, never rewritten in place: a shell reads its script as it goes.
     */
    private Path supervisorFile() throws IOException {
        Path file = dir.resolve("run").resolve("supervise.sh");
        Path tmp = file.resolveSibling("supervise.sh.tmp");
        Directories.writePrivate(tmp, SUPERVISOR);
        Files.move(tmp, file, java.nio.file.StandardCopyOption.ATOMIC_MOVE, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        return file;
    }

    /** A supervisor and the node it runs: the supervisor first, so that it does not start the node again. */
    private static void destroyWithNode(Process supervisor) {
        List<ProcessHandle> node = supervisor.descendants().toList();
        supervisor.destroyForcibly();
        node.forEach(ProcessHandle::destroyForcibly);
    }

    private static String supervisorScript() {
        try (var in = LocalCluster.class.getResourceAsStream("supervise.sh")) {
            if (in == null) {
                throw new IllegalStateException("supervise.sh is missing beside " + LocalCluster.class.getName());
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Starts {@code ooo <args>} as a background JVM logging to logs/<name>.log. It runs under umask
     * 077, so that what it writes past the engine's own owner-only files (a library's files, a JVM
     * crash report) is private too. Supervised (a node), the process returned is its supervisor's,
     * whose pid goes to run/<name>.supervisor.pid; the node writes run/<name>.pid once it serves.
     * Otherwise the process is the JVM's, its pid in run/<name>.pid.
     */
    private Process launch(String name, List<String> launcher, NodeJvm jvm, List<String> oooArgs, boolean supervised)
            throws IOException {
        List<String> cmd = new ArrayList<>(launcher);
        boolean shell = Files.isExecutable(SHELL);
        if (shell && supervised) {
            Files.deleteIfExists(endedFile(name)); // a run of a node that ended earlier is not this run's predecessor
            cmd.addAll(List.of(SHELL.toString(), supervisorFile().toString(), name, dir.toString()));
        } else if (shell) {
            // (ip netns exec and sh -c both exec what follows: the pid recorded is the JVM's.)
            cmd.addAll(List.of(SHELL.toString(), "-c", "umask 077 && exec \"$@\"", "sh"));
        }
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        // The same JVM flags as this process (module opens the engine needs), with the node's heap and collector.
        for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (!arg.startsWith("-Xmx") && !arg.startsWith("-Xms") && !arg.startsWith("-agentlib") && !arg.startsWith("-javaagent")
                    && !arg.matches("-XX:[+-]Use\\w+GC") && !arg.matches("-XX:[+-]ExitOnOutOfMemoryError") && !arg.startsWith("-XX:ThreadPriorityPolicy")) {
                cmd.add(arg);
            }
        }
        // Out of memory, a member ends (exit code 3) rather than go on with threads that died half way.
        cmd.add(EXIT_ON_OOM);
        // Statements' threads run at a lower priority than the threads that answer requests (status
        // probes, transactions); this flag lets that priority reach the kernel's scheduler.
        cmd.add(org.oooengine.core.threads.DaemonThreads.OS_PRIORITIES);
        cmd.add("-Xmx" + jvm.heap());
        // The whole heap from the start: a heap the collector grows and shrinks has the kernel fault in and
        // zero its pages again each time (a quarter of a node's CPU under TPC-C).
        cmd.add("-Xms" + jvm.heap());
        cmd.add(jvm.gc().flag);
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add("org.oooengine.cluster.cli.OooCli");
        cmd.addAll(oooArgs);
        if (rootAllowed) {
            cmd.add("--allow-root");
        }
        Path log = Directories.createPrivateFile(dir.resolve("logs").resolve(name + ".log"));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        pb.environment().putIfAbsent("OOO_LOG_LEVEL", "info");
        Process p = pb.start();
        (shell && supervised ? supervisorPidFile(name) : pidFile(name)).write(p.toHandle());
        return p;
    }

    /**
     * Starts the coordinator ({@code ooo server}, unauthenticated, as befits a local cluster) beside
     * the running nodes, waits until its port accepts connections and records its JDBC URL for
     * {@code ooo sql --cluster} and {@code status}. Returns that URL.
     */
    public String startCoordinator(String host, int port, String heap) throws Exception {
        Optional<ProcessHandle> running = runningProcess(COORDINATOR);
        if (running.isPresent()) {
            throw new ClusterException("the coordinator of " + dir + " is already running (pid " + running.get().pid() + ")");
        }
        Directories.createPrivate(dir.resolve("run"));
        Directories.createPrivate(dir.resolve("logs"));
        if (!portFree(host, port)) {
            throw new ClusterException("port " + port + " on " + host + " is in use by another process; pick another "
                    + "SQL port with --sql-port");
        }
        // Supervised as the nodes are: out of memory or killed, it is started again (it writes its own
        // pid file once it listens, as a node does once it serves).
        Process p = launch(COORDINATOR, List.of(), NodeJvm.of(heap), List.of("server", "--cluster", dir.toString(), "--host", host,
                "--port", String.valueOf(port)), true);
        try {
            awaitListening(p, new InetSocketAddress(host, port));
            // It writes its pid file just after it starts listening.
            long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
            while (!(pidFile(COORDINATOR).read() instanceof PidFile.Up) && p.isAlive() && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
        } catch (Exception e) {
            destroyWithNode(p);
            pidFile(COORDINATOR).delete();
            supervisorPidFile(COORDINATOR).delete();
            throw e;
        }
        String url = jdbcUrl(host, port);
        Directories.writePrivate(urlFile(), url + "\n");
        return url;
    }

    /** True while the coordinator this launcher started runs, or its supervisor is starting it again. */
    public boolean coordinatorRunning() {
        return runningProcess(COORDINATOR).isPresent() || supervisorPidFile(COORDINATOR).read() instanceof PidFile.Up;
    }

    /** The SQL port the coordinator last listened on, if one was started (to start it there again). */
    public Optional<Integer> lastSqlPort() {
        try {
            String url = Files.readString(urlFile()).strip();
            return Optional.of(java.net.URI.create(url.substring("jdbc:".length())).getPort()).filter(p -> p > 0);
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** The JDBC URL of the coordinator while it runs. */
    public Optional<String> coordinatorUrl() {
        if (runningProcess(COORDINATOR).isEmpty() || !Files.isRegularFile(urlFile())) {
            return Optional.empty();
        }
        try {
            return Optional.of(Files.readString(urlFile()).strip());
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** The URL of an endpoint that admits clients without a password (the Hive driver's noSasl). */
    public static String jdbcUrl(String host, int port) {
        return "jdbc:hive2://" + host + ":" + port + "/default;auth=noSasl";
    }

    private static boolean localAddress(String host) {
        try {
            InetAddress a = InetAddress.getByName(host);
            return a.isLoopbackAddress() || a.isAnyLocalAddress() || NetworkInterface.getByInetAddress(a) != null;
        } catch (IOException e) {
            return false;
        }
    }

    /** True when nothing listens on host:port (a port to offer, or to fall back from). */
    public static boolean portFree(String host, int port) {
        try (ServerSocket s = new ServerSocket()) {
            s.setReuseAddress(true);
            s.bind(new InetSocketAddress(host, port));
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private void awaitListening(Process p, InetSocketAddress address) throws Exception {
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        while (true) {
            if (!p.isAlive()) {
                throw new ClusterException("the coordinator exited while starting; the end of its log ("
                        + dir.resolve("logs").resolve(COORDINATOR + ".log") + "):\n" + tail(COORDINATOR, 15));
            }
            if (accepts(address)) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new ClusterException("the coordinator did not listen on " + address + " within "
                        + READY_TIMEOUT.toSeconds() + " s; see " + dir.resolve("logs").resolve(COORDINATOR + ".log"));
            }
            Thread.sleep(200);
        }
    }

    private static boolean accepts(InetSocketAddress address) {
        try (java.net.Socket s = new java.net.Socket()) {
            s.connect(address, 1000);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private void awaitReady(List<ClusterSpec.NodeSpec> nodes, List<ProcessHandle> processes) throws Exception {
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        while (true) {
            for (int i = 0; i < processes.size(); i++) {
                if (!processes.get(i).isAlive()) {
                    String id = nodes.get(i).id();
                    throw new ClusterException("node " + id + " exited while starting; the end of its log ("
                            + dir.resolve("logs").resolve(id + ".log") + "):\n" + tail(id, 15));
                }
            }
            try (ClusterSession s = ClusterSession.open(dir, "launcher", Duration.ofSeconds(2))) {
                // (A session opens with nodes down where partitions have copies: ask each awaited one.)
                for (ClusterSpec.NodeSpec n : nodes) {
                    s.peers().client(n.id());
                }
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

    /**
     * Stops the coordinator, then every node: SIGTERM, then SIGKILL after a grace period. The
     * coordinator goes first so that no query is left half answered. A pid file naming another
     * process than its member is removed, and that process left alone.
     */
    public Stopped stop() throws Exception {
        ClusterSpec spec = ClusterSpec.read(dir);
        List<String> members = new ArrayList<>(List.of(COORDINATOR));
        spec.nodes().forEach(n -> members.add(n.id()));
        Stopped stopped = stop(members);
        Files.deleteIfExists(urlFile());
        Files.deleteIfExists(dir.resolve("run").resolve("supervise.sh"));
        return stopped;
    }

    /**
     * Stops node {@code node} and starts it again under a new supervisor with its command changed
     * by {@code edit} (a benchmark that slows one node, say), then waits until the cluster answers.
     * The command edited is the running supervisor's ({@code sh supervise.sh <node> <dir> java ...}),
     * as Linux's /proc shows it.
     */
    public void restart(String node, UnaryOperator<List<String>> edit) throws Exception {
        ClusterSpec spec = ClusterSpec.read(dir);
        if (!(supervisorPidFile(node).read() instanceof PidFile.Up supervisor)) {
            throw new ClusterException("node " + node + " of " + dir + " runs under no supervisor: start it with "
                    + "'ooo cluster start' first");
        }
        // (ProcessHandle.Info leaves the arguments out of a command line as long as a node's.)
        Path cmdline = Path.of("/proc", String.valueOf(supervisor.process().pid()), "cmdline");
        if (!Files.isReadable(cmdline)) {
            throw new ClusterException("the command of node " + node + "'s supervisor cannot be read from " + cmdline);
        }
        List<String> cmd = List.of(Files.readString(cmdline, StandardCharsets.UTF_8).split("\0"));
        stop(List.of(node));
        Files.deleteIfExists(endedFile(node));
        Path log = Directories.createPrivateFile(dir.resolve("logs").resolve(node + ".log"));
        ProcessBuilder pb = new ProcessBuilder(edit.apply(cmd)).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        pb.environment().putIfAbsent("OOO_LOG_LEVEL", "info");
        Process p = pb.start();
        supervisorPidFile(node).write(p.toHandle());
        awaitReady(List.of(spec.node(node)), List.of(p.toHandle()));
    }

    /**
     * Stops these members (node ids or {@link #COORDINATOR}) as {@link #stop()} does, in this order.
     * A node's supervisor is told first (SIGTERM), so that it does not start the node again: it passes
     * the signal on to the node and ends with it.
     */
    public Stopped stop(List<String> members) throws Exception {
        List<String> stopped = new ArrayList<>();
        List<String> strangers = new ArrayList<>();
        for (String member : members) {
            Optional<ProcessHandle> supervisor = supervisorPidFile(member).read() instanceof PidFile.Up up
                    ? Optional.of(up.process()) : Optional.empty();
            supervisor.ifPresent(ProcessHandle::destroy);
            PidFile.State state = pidFile(member).read();
            if (state instanceof PidFile.Up up) {
                ProcessHandle p = up.process();
                p.destroy();
                awaitOrKill(p);
                stopped.add(member);
            } else {
                stranger(member, state).ifPresent(strangers::add);
                if (supervisor.isPresent()) {
                    stopped.add(member); // between two runs of the node: its supervisor was restarting it
                }
            }
            if (supervisor.isPresent()) {
                awaitOrKill(supervisor.get());
            }
            pidFile(member).delete();
            supervisorPidFile(member).delete();
            // (What a member that was killed left of its report of garbage collection, and its supervisor
            // of why it restarted it.)
            Files.deleteIfExists(dir.resolve("run").resolve(member + ".gc"));
            Files.deleteIfExists(endedFile(member));
        }
        return new Stopped(stopped, strangers);
    }

    private static void awaitOrKill(ProcessHandle p) throws Exception {
        try {
            p.onExit().get(STOP_TIMEOUT.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            p.destroyForcibly();
        }
    }

    /**
     * One sentence for the operator when the member's pid file names another process than the
     * member (its pid was given to that process after the member died).
     */
    public Optional<String> stranger(String member) {
        return stranger(member, pidFile(member).read());
    }

    private Optional<String> stranger(String member, PidFile.State state) {
        if (state instanceof PidFile.Stranger s) {
            return Optional.of(dir.relativize(pidFile(member).path()) + " named pid " + s.pid() + ", which is not "
                    + member + " (" + s.why() + "): left that process alone");
        }
        return Optional.empty();
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
                    + "cluster first: ooo cluster stop --cluster " + dir);
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
        Map<String, JsonNode> stats = statsOfEveryNode(spec);
        List<NodeStatus> out = new ArrayList<>();
        for (ClusterSpec.NodeSpec n : spec.nodes()) {
            Optional<ProcessHandle> p = runningProcess(n.id());
            JsonNode st = stats.get(n.id());
            Map<String, Long> rows = new LinkedHashMap<>();
            if (st != null && st.has("rows")) {
                st.get("rows").fields().forEachRemaining(e -> rows.put(e.getKey(), e.getValue().asLong()));
            }
            String state;
            Double gcShare = st != null && st.has("gcShare") ? st.get("gcShare").asDouble() : null;
            if (st != null) {
                state = st.path("loaded").asBoolean() ? "up" : "up, no data";
            } else if (p.isPresent()) {
                Optional<GcWatchdog.Report> gc = recentGcReport(n.id());
                gcShare = gc.map(GcWatchdog.Report::share).orElse(null);
                state = notAnswering(gc);
            } else {
                state = supervisorPidFile(n.id()).read() instanceof PidFile.Up ? "restarting" : "down";
            }
            out.add(new NodeStatus(n.id(), n.host() + ":" + n.port(), ClusterSpec.rackOf(n), p.map(ProcessHandle::pid).orElse(null), state,
                    st == null ? null : st.get("uptimeSeconds").asDouble(), rows, gcShare, previousEnd(n.id()).orElse(null),
                    st == null || !st.has("statementsRunning") ? null : st.get("statementsRunning").asInt(),
                    st == null || !st.has("statementsWaiting") ? null : st.get("statementsWaiting").asInt()));
        }
        return out;
    }

    /**
     * Why and when the run before a node's current one ended, as its supervisor wrote it when it
     * restarted the node; empty when the node was last started by {@code ooo cluster start}.
     */
    private Optional<String> previousEnd(String node) {
        try {
            return PreviousEnd.read(endedFile(node)).map(PreviousEnd::toString);
        } catch (IOException | RuntimeException e) {
            return Optional.of("(unreadable " + endedFile(node) + ": " + e.getMessage() + ")");
        }
    }

    private Path endedFile(String node) {
        return PreviousEnd.file(dir, node);
    }

    /** "not answering", with what the member's recent report says of garbage collection when that is much. */
    private static String notAnswering(Optional<GcWatchdog.Report> gc) {
        return gc.filter(r -> r.share() >= GC_WORTH_TELLING).map(r -> "not answering (spent " + r.describe() + ")")
                .orElse("not answering");
    }

    /** The member's own report of its share of garbage collection (run/<member>.gc), if it is recent. */
    private Optional<GcWatchdog.Report> recentGcReport(String member) {
        return GcWatchdog.Report.read(dir.resolve("run").resolve(member + ".gc"))
                .filter(r -> Duration.between(r.at(), java.time.Instant.now()).compareTo(GC_REPORT_FRESH) <= 0);
    }

    /** The coordinator, if one was started (and not stopped since). */
    public Optional<CoordinatorStatus> coordinatorStatus() {
        if (!Files.isRegularFile(urlFile())) {
            return Optional.empty();
        }
        String url;
        try {
            url = Files.readString(urlFile()).strip();
        } catch (IOException e) {
            return Optional.empty();
        }
        Optional<ProcessHandle> p = runningProcess(COORDINATOR);
        java.net.URI address = java.net.URI.create(url.substring("jdbc:".length()));
        String state = p.isEmpty() ? (supervisorPidFile(COORDINATOR).read() instanceof PidFile.Up ? "restarting" : "down")
                : accepts(new InetSocketAddress(address.getHost(), address.getPort())) ? "up"
                : notAnswering(recentGcReport(COORDINATOR));
        return Optional.of(new CoordinatorStatus(url, p.map(ProcessHandle::pid).orElse(null), state));
    }

    private Path urlFile() {
        return dir.resolve("run").resolve(COORDINATOR + ".url");
    }

    /**
     * Each answering node's statistics (what it answers PARTITION_STATS), asked of every node at
     * once on connections of their own: a node that is slow to answer or connect holds up none of
     * the others, and the whole takes at most {@link #STATUS_TIMEOUT} and a little.
     */
    private Map<String, JsonNode> statsOfEveryNode(ClusterSpec spec) {
        var connecting = java.util.concurrent.Executors.newCachedThreadPool(
                org.oooengine.core.threads.DaemonThreads.named("ooo-status"));
        Map<String, java.util.concurrent.CompletableFuture<JsonNode>> answers = new LinkedHashMap<>();
        try (var peers = new org.oooengine.core.cluster.Peers("status", spec, ClusterSpec.readSecret(dir), Runnable::run,
                STATUS_TIMEOUT)) {
            for (ClusterSpec.NodeSpec n : spec.nodes()) {
                answers.put(n.id(), java.util.concurrent.CompletableFuture.supplyAsync(() -> peers.client(n.id()), connecting)
                        .thenCompose(c -> c.call(org.oooengine.core.net.OpCode.PARTITION_STATS, new byte[0], STATUS_TIMEOUT))
                        .thenApply(frame -> {
                            try {
                                return STATUS_JSON.readTree(frame.payload());
                            } catch (IOException e) {
                                throw new java.io.UncheckedIOException(e);
                            }
                        }));
            }
            try {
                java.util.concurrent.CompletableFuture.allOf(answers.values().toArray(java.util.concurrent.CompletableFuture[]::new))
                        .get(STATUS_TIMEOUT.toMillis() + 500, java.util.concurrent.TimeUnit.MILLISECONDS);
            } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
                // a node that did not answer is told apart below
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            Map<String, JsonNode> out = new LinkedHashMap<>();
            answers.forEach((node, answer) -> {
                if (answer.isDone() && !answer.isCompletedExceptionally()) {
                    out.put(node, answer.join());
                }
            });
            return out;
        } finally {
            connecting.shutdownNow();
        }
    }

    /** The member's process while it runs; nothing for a pid file naming another process. */
    private Optional<ProcessHandle> runningProcess(String member) {
        return pidFile(member).read() instanceof PidFile.Up up ? Optional.of(up.process()) : Optional.empty();
    }

    private PidFile pidFile(String member) {
        return new PidFile(dir, member);
    }

    private PidFile supervisorPidFile(String node) {
        return PidFile.supervisor(dir, node);
    }

    private static void checkPortFree(ClusterSpec.NodeSpec n) {
        if (!localAddress(n.host())) {
            throw new ClusterException("node " + n.id() + "'s address " + n.host() + " is not one of this machine's; "
                    + "a node in a network namespace of its own starts with --netns");
        }
        if (!portFree(n.host(), n.port())) {
            throw new ClusterException("port " + n.port() + " of node " + n.id() + " on " + n.host()
                    + " is in use by another process; pick other ports with --base-port");
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
