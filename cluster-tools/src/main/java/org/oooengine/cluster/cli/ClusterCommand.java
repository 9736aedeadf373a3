package org.oooengine.cluster.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.time.Duration;
import java.util.concurrent.Callable;
import org.oooengine.cluster.launch.LocalCluster;
import org.oooengine.core.cluster.ClusterException;
import org.oooengine.core.cluster.ClusterSpec;
import org.oooengine.core.net.FreePorts;
import org.oooengine.core.net.WireCompression;
import org.oooengine.core.units.Durations;
import org.oooengine.core.units.Sizes;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code ooo cluster start|stop|status|htap|rebalance|route}: the local multi-node cluster on this machine. */
@Command(name = "cluster", mixinStandardHelpOptions = true,
        description = "Start, stop and inspect a local cluster: node daemons as separate processes on loopback.",
        subcommands = {ClusterCommand.Start.class, ClusterCommand.Stop.class, ClusterCommand.Status.class,
                ClusterHtapCommand.class, ClusterRebalanceCommand.class, ClusterCommand.Route.class})
final class ClusterCommand {

    /** A local cluster's SQL endpoint admits clients without a password, so it listens on loopback only. */
    static final String SQL_HOST = "127.0.0.1";

    @Command(name = "start", mixinStandardHelpOptions = true,
            description = {"Start N node daemons (creating cluster.json and a secret on first start) and wait until all answer, "
                    + "then the coordinator: the SQL endpoint (ooo server) for ooo sql, beeline and JDBC clients.",
                    "On a cluster that partly runs, start the members that are down (say, a node that crashed) and "
                            + "leave the running ones alone; a cluster whose every member runs is refused.",
                    "Logs go to <cluster-dir>/logs/<node>.log and logs/coordinator.log. Refuses to run as root "
                            + "unless given --allow-root."})
    static final class Start implements Callable<Integer> {
        @Spec
        picocli.CommandLine.Model.CommandSpec spec;

        @Mixin
        RootCheck root;

        @Option(names = "--nodes", paramLabel = "N",
                description = "number of nodes of a new cluster (default: " + LocalCluster.DEFAULT_NODES
                        + "); an existing cluster keeps its own")
        Integer nodes;

        @Option(names = "--replication", paramLabel = "N",
                description = "a new cluster keeps each table partition on N nodes, its owner and N - 1 others (on other "
                        + "racks where it has several), which serve it while the owner is down (default: 2 on 3 nodes "
                        + "or more, else 1); an existing cluster keeps its own")
        Integer replication;

        @Option(names = {"--cluster", "--dir"}, required = true, paramLabel = "<cluster-dir>", description = "cluster directory")
        Path dir;

        @Option(names = "--wire-compression", paramLabel = "none|lz4", converter = WireCompressionConverter.class,
                description = "how the members compress the frames they send one another: lz4 compresses those of 4 KiB "
                        + "or more (chunks of rows) where that saves an eighth, which pays where members are a slow "
                        + "network apart; recorded in cluster.json for every later start, and taken by each member as "
                        + "it starts (default: as the cluster records, none for a new one)")
        WireCompression wireCompression;

        @Option(names = "--base-port", defaultValue = "" + LocalCluster.DEFAULT_BASE_PORT, paramLabel = "P",
                description = "port of the first node; the others follow (default: ${DEFAULT-VALUE})")
        int basePort;

        @Option(names = "--hosts", split = ",", paramLabel = "ADDRESS",
                description = "a new cluster's nodes at these addresses, one node each (n1 at the first), all at "
                        + "--base-port; default: on 127.0.0.1 at consecutive ports")
        List<String> hosts = new ArrayList<>();

        @Option(names = "--netns", split = ",", paramLabel = "NAMESPACE",
                description = "run each node in a Linux network namespace of its own (n1 in the first), one that holds "
                        + "its --hosts address, such as deploy/netns-hosts.sh up --network-only makes; needs root and "
                        + "'ip netns'; give them on every start")
        List<String> netns = new ArrayList<>();

        @Option(names = "--node-heap", defaultValue = "1g", paramLabel = "SIZE", converter = Units.MiB.class,
                description = "heap of each node JVM, e.g. 768m or 2g; a plain number is MiB (default: ${DEFAULT-VALUE})")
        long heap;

        @Option(names = "--node-gc", defaultValue = "g1", paramLabel = "GC",
                description = "garbage collector of each node JVM: g1 (short pauses) or parallel (more throughput for "
                        + "transactional work such as TPC-C, longer pauses) (default: ${DEFAULT-VALUE})")
        LocalCluster.Gc nodeGc;

        @Option(names = {"--buffer-pool", "--buffer-pool-mb"}, defaultValue = "64m", paramLabel = "SIZE", converter = Units.MiB.class,
                description = "buffer pool of each node; a plain number is MiB (default: ${DEFAULT-VALUE})")
        long bufferPool;

        @Option(names = "--buffered-io", description = "nodes read through the OS page cache instead of direct I/O")
        boolean bufferedIo;

        @Option(names = {"--node-query-max-memory", "--node-query-max-memory-mb"}, defaultValue = "0", paramLabel = "SIZE",
                converter = Units.MiB.class,
                description = "the most memory each node grants one query's operators, whatever a session sets; a plain "
                        + "number is MiB (0, the default: half the node's heap)")
        long nodeQueryMaxMemory;

        @Option(names = {"--node-spill-max", "--node-spill-max-mb"}, defaultValue = "0", paramLabel = "SIZE",
                converter = Units.MiB.class,
                description = "the most disk the spill files of all of a node's queries may take together; a plain "
                        + "number is MiB (0, the default: half the space free on its data directory's file system when "
                        + "it starts)")
        long nodeSpillMax;

        @Option(names = {"--node-statements-memory", "--node-statements-memory-mb"}, defaultValue = "0", paramLabel = "SIZE",
                converter = Units.MiB.class,
                description = "what the statements running on each node may hold together; a plain number is MiB (0, "
                        + "the default: 60%% of its heap)")
        long nodeStatementsMemory;

        @Option(names = "--node-file-cache", defaultValue = "0", paramLabel = "SIZE", converter = Units.MiB.class,
                description = "the most disk each node keeps the columns of files' splits it read in, transcoded for "
                        + "reading again; a plain number is MiB (0, the default: a tenth of the space free on its data "
                        + "directory's file system when it starts)")
        long nodeFileCache;

        @Option(names = "--no-node-file-cache", description = "nodes keep nothing of the files they read: each scan "
                + "decodes them again")
        boolean noNodeFileCache;

        @Option(names = "--node-max-statements", defaultValue = "0", paramLabel = "N",
                description = "statements each node runs at once; more wait their turn (0, the default: "
                        + org.oooengine.core.cluster.NodeService.Caps.DEFAULT_MAX_STATEMENTS + ")")
        int nodeMaxStatements;

        @Option(names = "--sql-port", paramLabel = "P",
                description = "port of the SQL endpoint on 127.0.0.1, 0 for none (default: the port of a coordinator that "
                        + "went down without 'ooo cluster stop', else " + LocalCluster.DEFAULT_SQL_PORT
                        + ", or a free port when that one is taken)")
        Integer sqlPort;

        // The coordinator holds the inputs of its hash joins and sorts in memory (SF 1's lineitem
        // alone is six million rows).
        @Option(names = "--sql-heap", defaultValue = "4g", paramLabel = "SIZE", converter = Units.MiB.class,
                description = "heap of the coordinator JVM, which joins and aggregates query results; a plain number is "
                        + "MiB (default: ${DEFAULT-VALUE})")
        long sqlHeap;

        @Option(names = {"--answer-delay", "--answer-delay-us"}, defaultValue = "0", paramLabel = "DURATION",
                converter = Units.Micros.class,
                description = "every node holds each answer back this long, e.g. 200us: an emulated network round trip "
                        + "between the processes of this one machine; a plain number is microseconds (default: ${DEFAULT-VALUE})")
        Duration answerDelay;

        @Option(names = {"--handshake-timeout", "--handshake-timeout-ms"}, defaultValue = NodeCommand.HANDSHAKE_DEFAULT,
                paramLabel = "DURATION", converter = Units.Millis.class,
                description = "every node closes a connection that has not proved the cluster secret within this time; "
                        + "a plain number is milliseconds (default: ${DEFAULT-VALUE})")
        Duration handshakeTimeout;

        @Override
        public Integer call() throws Exception {
            if (noNodeFileCache && nodeFileCache > 0) {
                throw new ParameterException(spec.commandLine(),
                        "--node-file-cache and --no-node-file-cache contradict each other: give one");
            }
            root.check("ooo cluster start", "a cluster");
            if (nodes != null && nodes < 1) {
                throw new ParameterException(spec.commandLine(), "--nodes must be at least 1, got " + nodes);
            }
            if (nodes != null && !hosts.isEmpty() && nodes != hosts.size()) {
                throw new ParameterException(spec.commandLine(), "--nodes " + nodes + " but " + hosts.size()
                        + " --hosts addresses: one node per address");
            }
            if (!netns.isEmpty() && hosts.isEmpty() && !ClusterSpec.exists(dir)) {
                throw new ParameterException(spec.commandLine(), "--netns needs --hosts: the namespaces' addresses");
            }
            int count = nodes != null ? nodes : hosts.isEmpty() ? LocalCluster.DEFAULT_NODES : hosts.size();
            if (replication != null && (replication < 1 || replication > count)) {
                throw new ParameterException(spec.commandLine(), "--replication " + replication + " needs between 1 and "
                        + count + " (the nodes)");
            }
            if (replication != null && ClusterSpec.exists(dir) && ClusterSpec.read(dir).replication() != replication) {
                throw new ParameterException(spec.commandLine(), "--replication " + replication + ": the cluster in " + dir
                        + " keeps each partition on " + ClusterSpec.read(dir).replication() + " node(s); it is set when a cluster is made");
            }
            LocalCluster.Placement placement;
            try {
                placement = new LocalCluster.Placement(basePort, hosts, netns,
                        replication != null ? replication : LocalCluster.defaultReplication(count), wireCompression);
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), "--hosts, --netns: " + e.getMessage());
            }
            if (basePort < 1 || basePort + count - 1 > 65535) {
                throw new ParameterException(spec.commandLine(), "--base-port " + basePort + " leaves no room for "
                        + count + " node ports in 1..65535");
            }
            if (bufferPool < Sizes.MIB) {
                throw new ParameterException(spec.commandLine(), "--buffer-pool must be at least 1m, got " + Sizes.format(bufferPool));
            }
            if (heap < 16 * Sizes.MIB || sqlHeap < 16 * Sizes.MIB) {
                throw new ParameterException(spec.commandLine(), "--node-heap and --sql-heap must be at least 16m, got "
                        + Sizes.format(heap) + " and " + Sizes.format(sqlHeap));
            }
            if (sqlPort != null && (sqlPort < 0 || sqlPort > 65535)) {
                throw new ParameterException(spec.commandLine(), "--sql-port must be in 0..65535, got " + sqlPort);
            }
            LocalCluster c = new LocalCluster(dir, root.allowed());
            if (sqlPort != null && sqlPort > 0 && !c.coordinatorRunning() && !LocalCluster.portFree(SQL_HOST, sqlPort)) {
                // Found out before any node starts, rather than after.
                throw new IllegalArgumentException("--sql-port " + sqlPort + " on " + SQL_HOST
                        + " is in use by another process; pick another");
            }
            if (handshakeTimeout.toMillis() < 1) {
                throw new ParameterException(spec.commandLine(), "--handshake-timeout must be at least 1ms, got "
                        + Durations.format(handshakeTimeout));
            }
            List<String> args = new ArrayList<>(List.of("--buffer-pool", Sizes.format(bufferPool),
                    "--answer-delay", Durations.format(answerDelay),
                    "--handshake-timeout", Durations.format(handshakeTimeout)));
            if (bufferedIo) {
                args.add("--buffered-io");
            }
            if (nodeQueryMaxMemory > 0) {
                args.addAll(List.of("--query-max-memory", Sizes.format(nodeQueryMaxMemory)));
            }
            if (nodeSpillMax > 0) {
                args.addAll(List.of("--spill-max", Sizes.format(nodeSpillMax)));
            }
            if (nodeMaxStatements < 0) {
                throw new ParameterException(spec.commandLine(), "--node-max-statements must be 0 (the default) or more");
            }
            if (nodeStatementsMemory > 0) {
                args.addAll(List.of("--statements-memory", Sizes.format(nodeStatementsMemory)));
            }
            if (nodeMaxStatements > 0) {
                args.addAll(List.of("--max-statements", String.valueOf(nodeMaxStatements)));
            }
            if (noNodeFileCache) {
                args.add("--no-file-cache");
            } else if (nodeFileCache > 0) {
                args.addAll(List.of("--file-cache", Sizes.format(nodeFileCache)));
            }
            boolean withCoordinator = sqlPort == null || sqlPort > 0;
            LocalCluster.Started started;
            try (Progress progress = Progress.of(spec)) {
                // Nodes answer after a few seconds each, started side by side; the coordinator follows.
                progress.start("starting the nodes", 0, null);
                started = c.start(nodes == null ? 0 : nodes, placement, new LocalCluster.NodeJvm(Units.jvmSize(heap), nodeGc), args);
            }
            ClusterSpec s = started.spec();
            PrintWriter out = spec.commandLine().getOut();
            PrintWriter err = spec.commandLine().getErr();
            started.strangers().forEach(note -> err.println("note: " + note));
            if (!started.restarted().isEmpty()) {
                out.printf("cluster %s: %s restarted by %s supervisor%n", c.dir(), String.join(", ", started.restarted()),
                        started.restarted().size() == 1 ? "its" : "their");
            }
            if (started.started().isEmpty() && started.restarted().isEmpty() && (!withCoordinator || c.coordinatorRunning())) {
                throw new ClusterException("the cluster in " + c.dir() + " is already running (every node"
                        + (withCoordinator ? " and the coordinator" : "") + "); stop it first with: ooo cluster stop --cluster "
                        + c.dir());
            }
            if (started.running().isEmpty() && started.restarted().isEmpty()) {
                out.printf("cluster %s: %d nodes up (%s)%n", c.dir(), s.nodes().size(), addresses(s, started.started()));
            } else {
                List<String> parts = new ArrayList<>();
                if (!started.started().isEmpty()) {
                    parts.add("started " + addresses(s, started.started()));
                }
                if (!started.running().isEmpty()) {
                    parts.add(String.join(", ", started.running()) + " running already");
                }
                if (!parts.isEmpty()) {
                    out.printf("cluster %s: %s%n", c.dir(), String.join("; ", parts));
                }
            }
            out.flush();
            String url = null;
            if (withCoordinator && c.coordinatorRunning()) {
                out.printf("coordinator running already: %s%n", c.coordinatorUrl().orElse("(no URL recorded)"));
            } else if (withCoordinator) {
                c.stranger(LocalCluster.COORDINATOR).ifPresent(note -> err.println("note: " + note));
                url = startCoordinator(c, started.started());
                out.printf("coordinator up: %s (no password: anyone on this machine can connect)%n", url);
            }
            if (started.running().isEmpty() && started.restarted().isEmpty()) {
                out.printf("load data with: ooo load tpch --sf 1 --cluster %s%n", c.dir());
                if (url != null) {
                    out.printf("query it with: ooo sql --cluster %s%n", c.dir());
                }
            }
            return 0;
        }

        private static String addresses(ClusterSpec s, List<String> ids) {
            return String.join(", ", s.nodes().stream().filter(n -> ids.contains(n.id()))
                    .map(n -> n.id() + " " + n.host() + ":" + n.port()).toList());
        }

        /**
         * Starts the SQL endpoint, where it listened before if it did; if that fails, the nodes this
         * command started go down again, so a start is all or nothing.
         */
        private String startCoordinator(LocalCluster c, List<String> nodesStarted) throws Exception {
            PrintWriter err = spec.commandLine().getErr();
            int port = sqlPort != null ? sqlPort : c.lastSqlPort().orElse(LocalCluster.DEFAULT_SQL_PORT);
            if (sqlPort == null && !LocalCluster.portFree(SQL_HOST, port)) {
                // Another cluster (or server) has it: this one still gets SQL, on a port of its own.
                int taken = port;
                port = FreePorts.consecutive(1);
                err.printf("note: port %d is taken; the SQL endpoint listens on %d instead%n", taken, port);
            }
            try (Progress progress = Progress.of(spec)) {
                progress.note("starting the coordinator (SQL endpoint)...");
                progress.start("starting the coordinator", 0, null);
                return c.startCoordinator(SQL_HOST, port, Units.jvmSize(sqlHeap));
            } catch (Exception e) {
                c.stop(nodesStarted);
                throw e;
            }
        }
    }

    @Command(name = "stop", mixinStandardHelpOptions = true,
            description = {"Stop the coordinator and every node of the cluster (SIGTERM, then SIGKILL after 10 s), "
                    + "those 'ooo node' started by hand too.",
                    "A pid file that names another process than its member (one that got the pid after the member died) "
                            + "is removed and that process left alone."})
    static final class Stop implements Callable<Integer> {
        @Spec
        picocli.CommandLine.Model.CommandSpec spec;

        @Option(names = {"--cluster", "--dir"}, required = true, paramLabel = "<cluster-dir>", description = "cluster directory")
        Path dir;

        @Override
        public Integer call() throws Exception {
            LocalCluster.Stopped stopped = new LocalCluster(dir).stop();
            stopped.strangers().forEach(note -> spec.commandLine().getErr().println("note: " + note));
            spec.commandLine().getOut().println(stopped.stopped().isEmpty() ? "no node was running"
                    : "stopped " + String.join(", ", stopped.stopped()));
            return 0;
        }
    }

    @Command(name = "status", mixinStandardHelpOptions = true,
            description = "Show each node's process, health, partitions and uptime, and the coordinator's JDBC URL.")
    static final class Status implements Callable<Integer> {
        @Spec
        picocli.CommandLine.Model.CommandSpec spec;

        @Option(names = {"--cluster", "--dir"}, required = true, paramLabel = "<cluster-dir>", description = "cluster directory")
        Path dir;

        @Option(names = "--json", description = "print one JSON object per node")
        boolean json;

        @Option(names = "--node", paramLabel = "<id>",
                description = "only this node: exit status 0 when it answers (a health probe, e.g. after a restart)")
        String node;

        @Option(names = "--heartbeats", paramLabel = "SECONDS", arity = "0..1", fallbackValue = "2",
                description = "also send heartbeats for SECONDS (default 2) and show each node as the coordinator's "
                        + "failure detector sees it: UP, SLOW (its median round trip over 4x a typical node's and over "
                        + "5 ms: its partitions are read on their copies) or DOWN (silent for 3 s)")
        Double heartbeats;

        @Override
        public Integer call() {
            if (heartbeats != null && !(heartbeats >= 1 && heartbeats <= 60)) {
                throw new ParameterException(spec.commandLine(), "--heartbeats takes 1 to 60 seconds, got " + heartbeats);
            }
            List<LocalCluster.NodeStatus> status = new LocalCluster(dir).status();
            PrintWriter out = spec.commandLine().getOut();
            if (heartbeats != null) {
                heartbeats(out, dir, heartbeats, json || node != null);
            }
            if (node != null) {
                status = status.stream().filter(s -> s.node().equals(node)).toList();
                if (status.isEmpty()) {
                    throw new picocli.CommandLine.ParameterException(spec.commandLine(), "no node '" + node + "' in " + dir);
                }
            }
            if (json || node != null) {
                status.forEach(s -> out.println(Json.line(s)));
                return status.stream().allMatch(s -> s.state().startsWith("up")) ? 0 : 1;
            }
            int copies = ClusterSpec.read(dir).replication();
            if (copies > 1) {
                out.printf("each partition on %d nodes: its owner's, and copies named <table>/partition-<p>%n", copies);
            }
            out.printf("%-6s %-16s %-14s %-8s %-14s %10s %7s  %s%n", "node", "address", "rack", "pid", "state", "uptime",
                    "work", "partition rows");
            for (LocalCluster.NodeStatus s : status) {
                out.printf(Locale.ROOT, "%-6s %-16s %-14s %-8s %-14s %10s %7s  %s%n", s.node(), s.address(), s.rack(),
                        s.pid() == null ? "-" : s.pid(), s.state(),
                        s.uptimeSeconds() == null ? "-" : String.format(Locale.ROOT, "%.0f s", s.uptimeSeconds()),
                        s.workRunning() == null ? "-" : s.workRunning() + "+" + s.workWaiting(),
                        s.rows().isEmpty() ? "-" : s.rows().toString());
                if (s.restartedAfter() != null) {
                    out.printf("       restarted by its supervisor after: %s%n", s.restartedAfter());
                }
            }
            if (copies > 1 && status.stream().allMatch(s -> s.state().startsWith("up"))) {
                lackingCopies(out, dir);
            }
            // The JSON lines stay one per node; the coordinator shows in the table only.
            var coordinator = new LocalCluster(dir).coordinatorStatus();
            coordinator.ifPresent(c -> out.printf("%ncoordinator (SQL): %s, pid %s, %s%n", c.state(),
                    c.pid() == null ? "-" : c.pid(), c.url()));
            boolean coordinatorUp = coordinator.map(c -> c.state().equals("up")).orElse(true);
            return coordinatorUp && status.stream().allMatch(s -> s.state().startsWith("up")) ? 0 : 1;
        }
    }

    /**
     * Each node as heartbeats sent for the asked seconds find it ({@link
     * org.oooengine.core.cluster.NodeHealth}, the coordinator's failure detector): printed before the
     * table, or as one JSON line {@code {"heartbeats": [...]}} before the nodes' lines.
     */
    private static void heartbeats(PrintWriter out, Path dir, double seconds, boolean json) {
        try (org.oooengine.core.cluster.ClusterSession session = org.oooengine.core.cluster.ClusterSession.open(dir,
                "status", java.time.Duration.ofSeconds(5))) {
            org.oooengine.core.cluster.NodeHealth health = session.serving().health().orElseThrow();
            Thread.sleep((long) (seconds * 1000));
            List<org.oooengine.core.cluster.NodeHealth.Node> nodes = health.nodes();
            if (json) {
                out.println(Json.line(java.util.Map.of("heartbeats", nodes)));
                return;
            }
            out.printf(Locale.ROOT, "heartbeats over %.0f s (state, median round trip, last answer):%n", seconds);
            for (org.oooengine.core.cluster.NodeHealth.Node n : nodes) {
                out.printf(Locale.ROOT, "  %-6s %-5s %12s %14s%n", n.node(), n.state(),
                        n.medianRoundTripMicros() < 0 ? "-" : n.medianRoundTripMicros() + " us",
                        n.lastAnswerMillisAgo() < 0 ? "never" : n.lastAnswerMillisAgo() + " ms ago");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            out.printf("the heartbeats could not be sent: %s%n", e.getMessage());
        }
    }

    /** The nodes that lack partitions they should hold (restarted empty), and the partitions no node up holds. */
    private static void lackingCopies(PrintWriter out, Path dir) {
        try (org.oooengine.core.cluster.ClusterSession session = org.oooengine.core.cluster.ClusterSession.open(dir,
                "status", java.time.Duration.ofSeconds(5))) {
            org.oooengine.core.cluster.ReplicaRepair.Plan plan =
                    new org.oooengine.core.cluster.ReplicaRepair(session.peers(), 0).plan();
            java.util.Map<String, Long> lacking = new java.util.TreeMap<>(plan.copies().stream().collect(
                    java.util.stream.Collectors.groupingBy(org.oooengine.core.cluster.ReplicaRepair.Copy::to,
                            java.util.stream.Collectors.counting())));
            lacking.forEach((node, n) -> out.printf("%s lacks %d partition copies it should hold and serves nothing until "
                    + "they are back: ooo cluster rebalance --cluster %s%n", node, n, dir));
            plan.lost().forEach(l -> out.printf("partition %d of %s is on none of %s that answers%n", l.partition(),
                    l.table(), l.holders()));
            if (!plan.otherCopies().isEmpty()) {
                out.printf("tables on another number of nodes than the cluster's: %s%n", plan.otherCopies().entrySet()
                        .stream().map(e -> e.getKey() + " " + e.getValue()).collect(java.util.stream.Collectors.joining(", ")));
            }
        } catch (RuntimeException e) {
            out.printf("which partitions each node holds could not be read: %s%n", e.getMessage());
        }
    }

    @Command(name = "route", mixinStandardHelpOptions = true,
            description = {"Make members dial each node through a proxy listening at the node's port plus an offset "
                    + "(see net-delay.sh), or directly again. The cluster must be stopped: nodes read routes at start.",
                    "Prints one line per node: id, listen address, dial address."})
    static final class Route implements Callable<Integer> {
        @Spec
        picocli.CommandLine.Model.CommandSpec spec;

        @Option(names = {"--cluster", "--dir"}, required = true, paramLabel = "<cluster-dir>", description = "cluster directory")
        Path dir;

        @picocli.CommandLine.ArgGroup(exclusive = true, multiplicity = "1")
        Target target;

        static final class Target {
            @Option(names = "--via-port-offset", paramLabel = "K", description = "dial node port + K on the node's host")
            Integer offset;

            @Option(names = "--direct", description = "dial each node at its own port")
            boolean direct;
        }

        @Override
        public Integer call() {
            int offset = target.direct ? 0 : target.offset;
            if (!target.direct && offset == 0) {
                throw new ParameterException(spec.commandLine(), "--via-port-offset must not be 0 (use --direct)");
            }
            ClusterSpec s;
            try {
                s = new LocalCluster(dir).route(offset);
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), e.getMessage());
            }
            PrintWriter out = spec.commandLine().getOut();
            for (ClusterSpec.NodeSpec n : s.nodes()) {
                var dial = n.dialAddress();
                out.printf("%s %s:%d %s:%d%n", n.id(), n.host(), n.port(), dial.getHostString(), dial.getPort());
            }
            return 0;
        }
    }

    /** {@code --wire-compression}: none or lz4, in any case; another word is a usage error naming both. */
    static final class WireCompressionConverter implements picocli.CommandLine.ITypeConverter<WireCompression> {
        @Override
        public WireCompression convert(String value) {
            try {
                return WireCompression.of(value);
            } catch (IllegalArgumentException e) {
                throw new picocli.CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }
}
