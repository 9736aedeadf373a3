package org.oooengine.cluster.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.oooengine.cluster.bench.tpch.TpchQueries;
import org.oooengine.cluster.launch.LocalCluster;
import org.oooengine.cluster.launch.NodeFaults;
import org.oooengine.core.cluster.ClusterSession;
import org.oooengine.core.cluster.ClusterSpec;
import org.oooengine.core.cluster.ExecutionMode;
import org.oooengine.core.cluster.NodeDaemon;
import org.oooengine.core.exec.CountingSink;
import org.oooengine.core.tpch.JoinQueries;
import org.oooengine.hive.engine.ClusterSqlEngine;
import org.oooengine.hive.sql.Cancellation;
import org.oooengine.hive.sql.SqlSession;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * TPC-H queries and the out-of-order index joins on a cluster that keeps each partition on two
 * nodes or more, each first undisturbed
 * (the median of its runs), then once more with a node killed (SIGKILL) part way through: whether
 * the answer is the undisturbed one, and how much longer it took. The node's supervisor starts it
 * again; the next query waits until it is up.
 */
@Command(name = "failover", mixinStandardHelpOptions = true,
        description = "time TPC-H queries and index joins with a node killed in the middle of each, against their time "
                + "undisturbed")
final class BenchFailoverCommand implements Callable<Integer> {
    /** The index joins' tasks in flight per node, as ooo bench join's default. */
    private static final int IN_FLIGHT = 128;

    @Spec
    CommandSpec spec;

    @Option(names = "--cluster", required = true, paramLabel = "<cluster-dir>",
            description = "a running local cluster made with 'ooo cluster start --replication 2' and loaded with 'ooo load tpch'")
    Path cluster;

    @Option(names = "--queries", split = ",", paramLabel = "<n>", defaultValue = "1,3,9,18,21",
            description = "query numbers (default: ${DEFAULT-VALUE})")
    List<Integer> queries;

    @Option(names = "--joins", split = ",", paramLabel = "<join>", defaultValue = "OL,PL,Q3,Q8",
            description = "out-of-order index joins (OL, PL, Q3, Q8) to time as well, at --selectivity; 'none' for "
                    + "none (default: ${DEFAULT-VALUE})")
    List<String> joins;

    @Option(names = "--selectivity", defaultValue = "0.01", paramLabel = "<fraction>",
            description = "the index joins' share of their outer table's rows (default: ${DEFAULT-VALUE})")
    double selectivity;

    @Option(names = "--node", paramLabel = "<id>", description = "the node to kill (default: the cluster's last)")
    String node;

    @Option(names = "--at", defaultValue = "0.33", paramLabel = "F",
            description = "kill the node this far into the query's undisturbed time (default: ${DEFAULT-VALUE})")
    double at;

    @Option(names = "--repeat", defaultValue = "3", paramLabel = "N",
            description = "undisturbed runs per query, of which the median counts (default: ${DEFAULT-VALUE})")
    int repeat;

    @Option(names = "--json", description = "print one JSON object instead of a table")
    boolean json;

    /** One query: its undisturbed median and its time with the node killed, in seconds. */
    record Run(String query, double undisturbedSeconds, double failoverSeconds, double ratio, boolean sameRows, String error) {
    }

    @Override
    public Integer call() throws Exception {
        ClusterSpec clusterSpec = CopiedClusters.read(spec, cluster, "a killed node's rows would be gone");
        String victim = CopiedClusters.node(spec, clusterSpec, node, clusterSpec.nodes().size() - 1);
        if (repeat < 1 || at <= 0 || at >= 1) {
            throw new ParameterException(spec.commandLine(), "--repeat must be at least 1 and --at within (0, 1)");
        }
        queries.forEach(TpchQueries::check);
        List<JoinQueries.Shape> shapes = new ArrayList<>();
        for (String j : joins) {
            if (!j.equalsIgnoreCase("none")) {
                try {
                    shapes.add(JoinQueries.shape(j));
                } catch (IllegalArgumentException e) {
                    throw new ParameterException(spec.commandLine(), "--joins: " + e.getMessage());
                }
            }
        }
        if (selectivity <= 0 || selectivity > 1) {
            throw new ParameterException(spec.commandLine(), "--selectivity must be within (0, 1]");
        }
        PrintWriter err = spec.commandLine().getErr();
        LocalCluster local = new LocalCluster(cluster, true);
        // its supervisor gives up on a node it restarted five times in ten minutes, kills of earlier runs counted
        new NodeFaults(local).restart(victim);
        List<Run> runs = new ArrayList<>();
        try (ClusterSqlEngine engine = ClusterSqlEngine.open(cluster, NodeDaemon.DEFAULT_TIMEOUT, Map.of());
             SqlSession sql = engine.openSession(System.getProperty("user.name", "ooo"), "default", Map.of())) {
            for (int q : queries) {
                String text = TpchQueries.text(q);
                runs.add(undisturbedThenKilled(TpchQueries.name(q), () -> rows(sql, text), victim, local, err));
            }
        }
        if (!shapes.isEmpty()) {
            try (ClusterSession session = ClusterSession.open(cluster, "coordinator", NodeDaemon.DEFAULT_TIMEOUT)) {
                for (JoinQueries.Shape shape : shapes) {
                    JoinQueries.Query q = session.query(shape, selectivity);
                    runs.add(undisturbedThenKilled(q.name(), () -> joined(session, q), victim, local, err));
                }
            }
        }
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            Map<String, Object> report = new LinkedHashMap<>();
            report.put("cluster", cluster.toAbsolutePath().normalize().toString());
            report.put("nodes", clusterSpec.nodes().size());
            report.put("replication", clusterSpec.replication());
            report.put("killed", victim);
            report.put("at", at);
            report.put("repeat", repeat);
            report.put("queries", runs);
            out.println(Json.line(report));
        } else {
            out.printf("%-6s %14s %14s %7s %s%n", "query", "undisturbed s", "node killed s", "ratio", "answer");
            runs.forEach(r -> out.printf("%-6s %14.3f %14.3f %7.2f %s%n", r.query(), r.undisturbedSeconds(),
                    r.failoverSeconds(), r.ratio(), r.error() != null ? r.error() : r.sameRows() ? "same" : "DIFFERENT"));
        }
        out.flush();
        return runs.stream().allMatch(r -> r.sameRows() && r.error() == null) ? 0 : 1;
    }

    /** {@code work}'s undisturbed median over --repeat runs, then a run with the node killed part way through. */
    private Run undisturbedThenKilled(String name, Supplier<List<String>> work, String victim, LocalCluster local,
                                      PrintWriter err) throws Exception {
        double[] times = new double[repeat];
        List<String> rows = null;
        for (int i = 0; i < repeat; i++) {
            long t0 = System.nanoTime();
            rows = work.get();
            times[i] = (System.nanoTime() - t0) / 1e9;
        }
        Arrays.sort(times);
        Run run = killedMidway(work, name, times[repeat / 2], rows, victim, local);
        err.println(progress(run));
        err.flush();
        new NodeFaults(local).awaitUp(victim);
        return run;
    }

    private Run killedMidway(Supplier<List<String>> work, String name, double undisturbed, List<String> expected,
                             String victim, LocalCluster local) throws Exception {
        long t0 = System.nanoTime();
        CompletableFuture<List<String>> running = CompletableFuture.supplyAsync(work);
        Thread.sleep((long) (undisturbed * at * 1000));
        if (running.isDone()) {
            throw new IllegalStateException(name + " ended before " + victim + " could be killed: raise --at's share "
                    + "or the scale factor");
        }
        new NodeFaults(local).kill(victim);
        try {
            List<String> answer = running.get(30 + (long) (undisturbed * 20), TimeUnit.SECONDS);
            double seconds = (System.nanoTime() - t0) / 1e9;
            return new Run(name, undisturbed, seconds, seconds / undisturbed, answer.equals(expected), null);
        } catch (java.util.concurrent.ExecutionException e) {
            double seconds = (System.nanoTime() - t0) / 1e9;
            return new Run(name, undisturbed, seconds, seconds / undisturbed, false, e.getCause().getMessage());
        }
    }

    /** An index join's answer as its row count and checksum (order-independent). */
    private List<String> joined(ClusterSession session, JoinQueries.Query q) {
        CountingSink sink = new CountingSink();
        session.join(q.spec(), ExecutionMode.OOO, IN_FLIGHT, sink);
        return List.of(sink.rows() + " rows, checksum " + sink.checksum());
    }

    /** The query's rows, rendered and sorted: answers compared as sets of rows in any order. */
    private static List<String> rows(SqlSession sql, String text) {
        List<String> rows = new ArrayList<>();
        sql.execute(text, new Cancellation()).rows().forEachRemaining(r -> rows.add(Arrays.toString(r)));
        rows.sort(null);
        return rows;
    }

    private static String progress(Run r) {
        return String.format("%s: %.3f s undisturbed, %.3f s with the node killed (%.2fx), %s", r.query(),
                r.undisturbedSeconds(), r.failoverSeconds(), r.ratio(),
                r.error() != null ? "failed: " + r.error() : r.sameRows() ? "the same rows" : "DIFFERENT rows");
    }
}
