package org.oooengine.cluster.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.oooengine.cluster.launch.LocalCluster;
import org.oooengine.core.cluster.ClusterSession;
import org.oooengine.core.cluster.ClusterSpec;
import org.oooengine.core.cluster.ExecutionMode;
import org.oooengine.core.cluster.FragmentStats;
import org.oooengine.core.cluster.NodeDaemon;
import org.oooengine.core.exec.CountingSink;
import org.oooengine.core.tpch.JoinQueries;
import org.oooengine.core.units.Durations;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * An index join on a cluster that keeps each partition on two nodes or more, with and without
 * hedged requests, first with every node answering as fast as it can, then with one node's
 * answers held back so that they take {@code --slowdown} times as long as a typical node's. The
 * slowed node is started again with an answer delay ({@code ooo node --answer-delay}) and, at the
 * end, without one.
 */
@Command(name = "hedge", mixinStandardHelpOptions = true,
        description = "time a selective index join with one node slowed, with and without hedged requests")
final class BenchHedgeCommand implements Callable<Integer> {
    /** Untimed runs of each case first: enough to bring a small join's pages into the buffer pools. */
    private static final int WARM_UP_RUNS = 3;
    /** Time for the coordinator's heartbeats to hear every node a few times (and tell a slow one) first. */
    private static final long HEARD_MILLIS = 2_000;

    @Spec
    CommandSpec spec;

    @Option(names = "--cluster", required = true, paramLabel = "<cluster-dir>",
            description = "a running local cluster made with 'ooo cluster start --replication 2' and loaded with 'ooo load tpch'")
    Path cluster;

    @Option(names = "--query", defaultValue = "PL", paramLabel = "OL|PL|Q3|Q8", description = "the join (default: ${DEFAULT-VALUE})")
    String query;

    @Option(names = "--selectivity", defaultValue = "0.001", paramLabel = "<fraction>",
            description = "share of the outer table's rows in the join's range (default: ${DEFAULT-VALUE})")
    double selectivity;

    @Option(names = "--node", paramLabel = "<id>", description = "the node to slow (default: the cluster's second)")
    String node;

    @Option(names = "--slowdown", defaultValue = "3", paramLabel = "F",
            description = "how many times as long the slowed node takes to answer (default: ${DEFAULT-VALUE})")
    double slowdown;

    @Option(names = "--repeat", defaultValue = "5", paramLabel = "N",
            description = "timed runs per case, of which the median counts (default: ${DEFAULT-VALUE})")
    int repeat;

    @Option(names = "--in-flight", defaultValue = "128", paramLabel = "N",
            description = "tasks in flight per node (default: ${DEFAULT-VALUE})")
    int inflight;

    @Option(names = "--json", description = "print one JSON object instead of a table")
    boolean json;

    /** The median answer time of a typical peer, as the nodes saw them in the last run (microseconds). */
    private long lastPeerMedian = -1;

    /** One case's median time, rows and requests (all nodes' fragments, summed over the timed runs). */
    record Case(String nodes, boolean hedging, double seconds, long rows, long checksum, long requests, long hedged) {
        double hedgedShare() {
            return requests == 0 ? 0 : (double) hedged / requests;
        }
    }

    @Override
    public Integer call() throws Exception {
        ClusterSpec clusterSpec = CopiedClusters.read(spec, cluster, "there is no other holder to ask");
        String slow = CopiedClusters.node(spec, clusterSpec, node, 1);
        if (repeat < 1 || slowdown <= 1 || inflight < 1 || selectivity <= 0 || selectivity > 1) {
            throw new ParameterException(spec.commandLine(), "--repeat and --in-flight must be at least 1, --slowdown "
                    + "above 1 and --selectivity within (0, 1]");
        }
        JoinQueries.Shape shape;
        try {
            shape = JoinQueries.shape(query);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), "--query: " + e.getMessage());
        }
        PrintWriter err = spec.commandLine().getErr();
        LocalCluster local = new LocalCluster(cluster, true);
        List<Case> cases = new ArrayList<>();
        long peerMedianMicros;
        try (ClusterSession session = ClusterSession.open(cluster, "coordinator", NodeDaemon.DEFAULT_TIMEOUT)) {
            JoinQueries.Query q = session.query(shape, selectivity);
            cases.addAll(measure(session, q, "all as fast", err));
            peerMedianMicros = lastPeerMedian;
        }
        if (peerMedianMicros <= 0) {
            throw new IllegalStateException("the nodes reported no answer times of their peers: the join sent too few "
                    + "requests to know them; raise --selectivity");
        }
        Duration delay = Duration.ofNanos((long) ((slowdown - 1) * peerMedianMicros * 1000));
        err.printf("slowing %s: answers held back %s (a typical peer answers in %d us)%n", slow, Durations.format(delay),
                peerMedianMicros);
        err.flush();
        local.restart(slow, cmd -> withAnswerDelay(cmd, delay));
        try (ClusterSession session = ClusterSession.open(cluster, "coordinator", NodeDaemon.DEFAULT_TIMEOUT)) {
            JoinQueries.Query q = session.query(shape, selectivity);
            String label = slow + " slowed " + slowdown + "x";
            cases.addAll(measure(session, q, label, err));
        } finally {
            local.restart(slow, cmd -> withAnswerDelay(cmd, Duration.ZERO));
        }
        boolean same = cases.stream().allMatch(c -> c.rows() == cases.get(0).rows() && c.checksum() == cases.get(0).checksum());
        report(clusterSpec, slow, delay, cases, same);
        return same ? 0 : 1;
    }

    /**
     * The join with hedging and without, their runs taking turns (so that a drift of the machine
     * falls on both alike) after {@value #WARM_UP_RUNS} warm-up runs of each.
     */
    private List<Case> measure(ClusterSession session, JoinQueries.Query q, String nodes, PrintWriter err) {
        List<Case> pair = new ArrayList<>();
        session.serving().health(); // the heartbeats start
        try {
            Thread.sleep(HEARD_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
        session.serving().health().ifPresent(h -> err.println("nodes as the heartbeats tell: " + h.nodes().stream()
                .map(n -> n.node() + " " + n.state() + " " + n.medianRoundTripMicros() + " us").toList()));
        Runs on = new Runs();
        Runs off = new Runs();
        for (int i = -WARM_UP_RUNS; i < repeat; i++) { // the first: caches, compiled code, answer times
            on.run(session, q, true, i >= 0);
            off.run(session, q, false, i >= 0);
        }
        for (Runs r : List.of(on, off)) {
            Case c = r.result(nodes);
            pair.add(c);
            err.printf("%s, hedging %s: %.3f s (median of %d), %,d rows, %,d requests, %,d hedged%n", nodes,
                    c.hedging() ? "on" : "off", c.seconds(), repeat, c.rows(), c.requests(), c.hedged());
        }
        err.flush();
        return pair;
    }

    /** The timed runs of one case. */
    private final class Runs {
        private final List<Double> times = new ArrayList<>();
        private boolean hedging;
        private long requests;
        private long hedged;
        private CountingSink last;

        void run(ClusterSession session, JoinQueries.Query q, boolean hedge, boolean timed) {
            session.hedgedRequests(hedge);
            hedging = hedge;
            CountingSink sink = new CountingSink();
            ClusterSession.JoinRun run = session.join(q.spec(), ExecutionMode.OOO, inflight, sink);
            if (!timed) {
                return;
            }
            last = sink;
            times.add(run.seconds());
            requests += run.fragments().stream().mapToLong(FragmentStats::remoteRequests).sum();
            hedged += run.fragments().stream().mapToLong(FragmentStats::hedgedRequests).sum();
            long[] medians = run.fragments().stream().mapToLong(FragmentStats::peerMedianMicros).filter(m -> m > 0)
                    .sorted().toArray();
            if (medians.length > 0) {
                lastPeerMedian = medians[medians.length / 2];
            }
        }

        Case result(String nodes) {
            List<Double> sorted = times.stream().sorted().toList();
            return new Case(nodes, hedging, sorted.get(sorted.size() / 2), last.rows(), last.checksum(), requests, hedged);
        }
    }

    /** The supervisor's command with the node's answer delay set to {@code delay}. */
    static List<String> withAnswerDelay(List<String> cmd, Duration delay) {
        List<String> edited = new ArrayList<>(cmd);
        String value = (delay.toNanos() / 1000) + "us";
        int at = edited.indexOf("--answer-delay");
        if (at >= 0 && at + 1 < edited.size()) {
            edited.set(at + 1, value);
        } else {
            edited.addAll(List.of("--answer-delay", value));
        }
        return edited;
    }

    private void report(ClusterSpec clusterSpec, String slow, Duration delay, List<Case> cases, boolean same) {
        Case fast = cases.get(0);
        Case fastPlain = cases.get(1);
        Case slowHedged = cases.get(2);
        Case slowPlain = cases.get(3);
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            Map<String, Object> report = new LinkedHashMap<>();
            report.put("cluster", cluster.toAbsolutePath().normalize().toString());
            report.put("nodes", clusterSpec.nodes().size());
            report.put("replication", clusterSpec.replication());
            report.put("query", query);
            report.put("selectivity", selectivity);
            report.put("slowed", slow);
            report.put("slowdown", slowdown);
            report.put("answer_delay_us", delay.toNanos() / 1000);
            report.put("repeat", repeat);
            report.put("slow_over_fast_hedged", slowHedged.seconds() / fast.seconds());
            report.put("slow_over_fast_unhedged", slowPlain.seconds() / fastPlain.seconds());
            report.put("extra_requests_no_slow_node", fast.hedgedShare());
            report.put("same_rows", same);
            report.put("cases", cases);
            out.println(Json.line(report));
        } else {
            out.printf("%-22s %8s %10s %12s %10s %8s%n", "nodes", "hedging", "median s", "requests", "hedged", "share");
            cases.forEach(c -> out.printf("%-22s %8s %10.3f %,12d %,10d %7.1f%%%n", c.nodes(), c.hedging() ? "on" : "off",
                    c.seconds(), c.requests(), c.hedged(), 100 * c.hedgedShare()));
            out.printf("slowed node over none: %.2fx with hedging, %.2fx without; answers %s%n",
                    slowHedged.seconds() / fast.seconds(), slowPlain.seconds() / fastPlain.seconds(),
                    same ? "the same in every case" : "DIFFER");
        }
        out.flush();
    }
}
