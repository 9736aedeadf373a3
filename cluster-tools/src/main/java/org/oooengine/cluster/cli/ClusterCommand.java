package org.oooengine.cluster.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.oooengine.cluster.launch.LocalCluster;
import org.oooengine.core.cluster.ClusterException;
import org.oooengine.core.cluster.ClusterSpec;
import org.oooengine.core.net.FreePorts;
import org.oooengine.core.net.NodeServer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code ooo cluster start|stop|status|route}: the local multi-node cluster on this machine. */
@Command(name = "cluster", mixinStandardHelpOptions = true,
        description = "Start, stop and inspect a local cluster: node daemons as separate processes on loopback.",
        subcommands = {ClusterCommand.Start.class, ClusterCommand.Stop.class, ClusterCommand.Status.class,
                ClusterCommand.Route.class})
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

        @Option(names = "--dir", required = true, paramLabel = "<cluster-dir>", description = "cluster directory")
        Path dir;

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

        @Option(names = "--node-heap", defaultValue = "1g", paramLabel = "SIZE", description = "heap of each node JVM (default: ${DEFAULT-VALUE})")
        String heap;

        @Option(names = "--node-gc", defaultValue = "g1", paramLabel = "GC",
                description = "garbage collector of each node JVM: g1 (short pauses) or parallel (more throughput for "
                        + "transactional work such as TPC-C, longer pauses) (default: ${DEFAULT-VALUE})")
        LocalCluster.Gc nodeGc;

        @Option(names = "--buffer-pool-mb", defaultValue = "64", paramLabel = "M", description = "buffer pool of each node in MiB (default: ${DEFAULT-VALUE})")
        int bufferPoolMb;

        @Option(names = "--buffered-io", description = "nodes read through the OS page cache instead of direct I/O")
        boolean bufferedIo;

        @Option(names = "--node-query-max-memory-mb", defaultValue = "0", paramLabel = "M",
                description = "the most memory each node grants one query's operators, whatever a session sets (0, the "
                        + "default: half the node's heap)")
        long nodeQueryMaxMemoryMb;

        @Option(names = "--node-spill-max-mb", defaultValue = "0", paramLabel = "M",
                description = "the most disk the spill files of all of a node's queries may take together (0, the "
                        + "default: half the space free on its data directory's file system when it starts)")
        long nodeSpillMaxMb;

        @Option(names = "--node-statements-memory-mb", defaultValue = "0", paramLabel = "M",
                description = "what the statements running on each node may hold together (0, the default: 60%% of its "
                        + "heap)")
        long nodeStatementsMemoryMb;

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
        @Option(names = "--sql-heap", defaultValue = "4g", paramLabel = "SIZE",
                description = "heap of the coordinator JVM, which joins and aggregates query results (default: ${DEFAULT-VALUE})")
        String sqlHeap;

        @Option(names = "--answer-delay-us", defaultValue = "0", paramLabel = "D",
                description = "every node holds each answer back D microseconds: an emulated network round trip "
                        + "between the processes of this one machine (default: ${DEFAULT-VALUE})")
        long answerDelayUs;

        @Option(names = "--handshake-timeout-ms", defaultValue = "" + NodeServer.HANDSHAKE_DEADLINE_MS, paramLabel = "T",
                description = "every node closes a connection that has not proved the cluster secret within T ms "
                        + "(default: ${DEFAULT-VALUE})")
        long handshakeTimeoutMs;

        @Override
        public Integer call() throws Exception {
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
            LocalCluster.Placement placement;
            try {
                placement = new LocalCluster.Placement(basePort, hosts, netns);
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), "--hosts, --netns: " + e.getMessage());
            }
            int count = nodes != null ? nodes : hosts.isEmpty() ? LocalCluster.DEFAULT_NODES : hosts.size();
            if (basePort < 1 || basePort + count - 1 > 65535) {
                throw new ParameterException(spec.commandLine(), "--base-port " + basePort + " leaves no room for "
                        + count + " node ports in 1..65535");
            }
            if (bufferPoolMb < 1) {
                throw new ParameterException(spec.commandLine(), "--buffer-pool-mb must be at least 1, got " + bufferPoolMb);
            }
            if (!heap.matches("\\d+[kKmMgG]?")) {
                throw new ParameterException(spec.commandLine(), "--node-heap must be a JVM size such as 512m or 2g, got '"
                        + heap + "'");
            }
            if (!sqlHeap.matches("\\d+[kKmMgG]?")) {
                throw new ParameterException(spec.commandLine(), "--sql-heap must be a JVM size such as 512m or 2g, got '"
                        + sqlHeap + "'");
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
            if (answerDelayUs < 0) {
                throw new ParameterException(spec.commandLine(), "--answer-delay-us must be 0 or more, got " + answerDelayUs);
            }
            if (handshakeTimeoutMs < 1) {
                throw new ParameterException(spec.commandLine(), "--handshake-timeout-ms must be at least 1, got "
                        + handshakeTimeoutMs);
            }
            List<String> args = new ArrayList<>(List.of("--buffer-pool-mb", String.valueOf(bufferPoolMb),
                    "--answer-delay-us", String.valueOf(answerDelayUs),
                    "--handshake-timeout-ms", String.valueOf(handshakeTimeoutMs)));
            if (bufferedIo) {
                args.add("--buffered-io");
            }
            if (nodeQueryMaxMemoryMb < 0 || nodeSpillMaxMb < 0) {
                throw new ParameterException(spec.commandLine(),
                        "--node-query-max-memory-mb and --node-spill-max-mb must be 0 (the default) or a number of MiB");
            }
            if (nodeQueryMaxMemoryMb > 0) {
                args.addAll(List.of("--query-max-memory-mb", String.valueOf(nodeQueryMaxMemoryMb)));
            }
            if (nodeSpillMaxMb > 0) {
                args.addAll(List.of("--spill-max-mb", String.valueOf(nodeSpillMaxMb)));
            }
            if (nodeStatementsMemoryMb < 0 || nodeMaxStatements < 0) {
                throw new ParameterException(spec.commandLine(),
                        "--node-statements-memory-mb and --node-max-statements must be 0 (the default) or more");
            }
            if (nodeStatementsMemoryMb > 0) {
                args.addAll(List.of("--statements-memory-mb", String.valueOf(nodeStatementsMemoryMb)));
            }
            if (nodeMaxStatements > 0) {
                args.addAll(List.of("--max-statements", String.valueOf(nodeMaxStatements)));
            }
            boolean withCoordinator = sqlPort == null || sqlPort > 0;
            LocalCluster.Started started = c.start(nodes == null ? 0 : nodes, placement, new LocalCluster.NodeJvm(heap, nodeGc), args);
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
                        + (withCoordinator ? " and the coordinator" : "") + "); stop it first with: ooo cluster stop --dir "
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
            err.println("starting the coordinator (SQL endpoint)...");
            err.flush();
            try {
                return c.startCoordinator(SQL_HOST, port, sqlHeap);
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

        @Option(names = "--dir", required = true, paramLabel = "<cluster-dir>", description = "cluster directory")
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

        @Option(names = "--dir", required = true, paramLabel = "<cluster-dir>", description = "cluster directory")
        Path dir;

        @Option(names = "--json", description = "print one JSON object per node")
        boolean json;

        @Option(names = "--node", paramLabel = "<id>",
                description = "only this node: exit status 0 when it answers (a health probe, e.g. after a restart)")
        String node;

        @Override
        public Integer call() {
            List<LocalCluster.NodeStatus> status = new LocalCluster(dir).status();
            PrintWriter out = spec.commandLine().getOut();
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
            out.printf("%-6s %-16s %-14s %-8s %-14s %10s  %s%n", "node", "address", "rack", "pid", "state", "uptime",
                    "partition rows");
            for (LocalCluster.NodeStatus s : status) {
                out.printf(Locale.ROOT, "%-6s %-16s %-14s %-8s %-14s %10s  %s%n", s.node(), s.address(), s.rack(),
                        s.pid() == null ? "-" : s.pid(), s.state(),
                        s.uptimeSeconds() == null ? "-" : String.format(Locale.ROOT, "%.0f s", s.uptimeSeconds()),
                        s.rows().isEmpty() ? "-" : s.rows().toString());
                if (s.restartedAfter() != null) {
                    out.printf("       restarted by its supervisor after: %s%n", s.restartedAfter());
                }
            }
            // The JSON lines stay one per node; the coordinator shows in the table only.
            var coordinator = new LocalCluster(dir).coordinatorStatus();
            coordinator.ifPresent(c -> out.printf("%ncoordinator (SQL): %s, pid %s, %s%n", c.state(),
                    c.pid() == null ? "-" : c.pid(), c.url()));
            boolean coordinatorUp = coordinator.map(c -> c.state().equals("up")).orElse(true);
            return coordinatorUp && status.stream().allMatch(s -> s.state().startsWith("up")) ? 0 : 1;
        }
    }

    @Command(name = "route", mixinStandardHelpOptions = true,
            description = {"Make members dial each node through a proxy listening at the node's port plus an offset "
                    + "(see net-delay.sh), or directly again. The cluster must be stopped: nodes read routes at start.",
                    "Prints one line per node: id, listen address, dial address."})
    static final class Route implements Callable<Integer> {
        @Spec
        picocli.CommandLine.Model.CommandSpec spec;

        @Option(names = "--dir", required = true, paramLabel = "<cluster-dir>", description = "cluster directory")
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
}
