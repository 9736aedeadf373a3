package org.oooengine.cluster.cli;

import io.trino.tpch.TpchTable;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.oooengine.cluster.bench.tpcds.Answers;
import org.oooengine.cluster.bench.tpcds.TpcdsQueries;
import org.oooengine.cluster.bench.tpch.TpchDuckDb;
import org.oooengine.cluster.bench.tpch.TpchQueries;
import org.oooengine.cluster.launch.LocalCluster;
import org.oooengine.cluster.launch.NodeFaults;
import org.oooengine.core.cluster.ClusterSession;
import org.oooengine.core.cluster.ClusterSpec;
import org.oooengine.core.cluster.ExecutionMode;
import org.oooengine.core.cluster.NodeDaemon;
import org.oooengine.core.exec.JoinSpec;
import org.oooengine.core.tpch.JoinQueries;
import org.oooengine.core.tpch.TpchLoader;
import org.oooengine.core.tpch.TpchSchema;
import org.oooengine.core.types.DataType;
import org.oooengine.core.types.Schema;
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
 * nodes or more, each first undisturbed (the median of its runs), then again with a node killed
 * (SIGKILL) part way through (the median of those runs): whether the answer is DuckDB's (or the
 * undisturbed one), and how much longer it took. Each query starts with the node restarted under a
 * fresh supervisor (which gives up after five restarts in a row); after each kill the supervisor
 * starts it again and the next run waits until it is up. Warm-up runs, not counted, follow each
 * start.
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
            description = "TPC-H query numbers; 'none' for none (default: ${DEFAULT-VALUE})")
    List<String> queries;

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
            description = "kill the node this far into the query's fastest undisturbed time (default: ${DEFAULT-VALUE}); "
                    + "sooner, halving it, where a run ends before")
    double at;

    @Option(names = "--repeat", defaultValue = "3", paramLabel = "N",
            description = "undisturbed runs per query, of which the median counts (default: ${DEFAULT-VALUE})")
    int repeat;

    @Option(names = "--warmups", defaultValue = "2", paramLabel = "N",
            description = "runs not counted after the victim starts, before the undisturbed runs and after each kill "
                    + "(default: ${DEFAULT-VALUE})")
    int warmups;

    @Option(names = "--kills", defaultValue = "3", paramLabel = "N",
            description = "runs per query with the node killed, of which the median counts; the node is up again "
                    + "before each (default: ${DEFAULT-VALUE})")
    int kills;

    @Option(names = "--duckdb", description = "compare every answer with DuckDB's on the same rows (TPC-H at the "
            + "cluster's scale factor, generated into DuckDB in memory first: about a minute at SF 1) rather than with "
            + "the undisturbed run's")
    boolean duckdb;

    @Option(names = "--json", description = "print one JSON object instead of a table")
    boolean json;

    /**
     * One query: its undisturbed median and its median time with the node killed, in seconds, with
     * every killed run's time; the rows are the same (as the oracle's) only if every run's are, else
     * {@code difference} tells the first that differs.
     */
    record Run(String query, double undisturbedSeconds, double failoverSeconds, double ratio, boolean sameRows,
               String difference, String error, List<Double> failoverRuns) {
    }

    /** A query to run, and the rows it should return (null: those of its first undisturbed run). */
    private record Work(String name, Supplier<List<Object[]>> run, List<Object[]> expected, boolean ordered) {
    }

    @Override
    public Integer call() throws Exception {
        ClusterSpec clusterSpec = CopiedClusters.read(spec, cluster, "a killed node's rows would be gone");
        String victim = CopiedClusters.node(spec, clusterSpec, node, clusterSpec.nodes().size() - 1);
        if (repeat < 1 || kills < 1 || warmups < 0 || at <= 0 || at >= 1) {
            throw new ParameterException(spec.commandLine(),
                    "--repeat and --kills must be at least 1, --warmups at least 0 and --at within (0, 1)");
        }
        List<Integer> numbers = new ArrayList<>();
        for (String q : queries) {
            if (!q.equalsIgnoreCase("none")) {
                try {
                    numbers.add(Integer.parseInt(q.trim()));
                } catch (NumberFormatException e) {
                    throw new ParameterException(spec.commandLine(), "--queries: not a query number: " + q);
                }
            }
        }
        try {
            numbers.forEach(TpchQueries::check);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), "--queries: " + e.getMessage());
        }
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
        List<Run> runs = new ArrayList<>();
        try (ClusterSqlEngine engine = ClusterSqlEngine.open(cluster, NodeDaemon.DEFAULT_TIMEOUT, Map.of());
             SqlSession sql = engine.openSession(System.getProperty("user.name", "ooo"), "default", Map.of());
             TpchDuckDb oracle = duckdb ? TpchDuckDb.inMemory(TpchQueries.scaleFactor(sql), progress(err)) : null) {
            for (int q : numbers) {
                String text = TpchQueries.text(q);
                runs.add(undisturbedThenKilled(new Work(TpchQueries.name(q), () -> rows(sql, text),
                        oracle == null ? null : oracle.rows(TpcdsQueries.forDuckDb(text)), TpcdsQueries.ordered(text)),
                        victim, local, err));
            }
            if (!shapes.isEmpty()) {
                try (ClusterSession session = ClusterSession.open(cluster, "coordinator", NodeDaemon.DEFAULT_TIMEOUT)) {
                    for (JoinQueries.Shape shape : shapes) {
                        JoinQueries.Query q = session.query(shape, selectivity);
                        runs.add(undisturbedThenKilled(new Work(q.name(), () -> joined(session, q.spec()),
                                oracle == null ? null : oracle.lines(JoinQueries.sql(q.spec(), BenchFailoverCommand::schema)),
                                false), victim, local, err));
                    }
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
            report.put("kills", kills);
            report.put("warmups", warmups);
            report.put("oracle", duckdb ? "duckdb" : "undisturbed");
            report.put("queries", runs);
            out.println(Json.line(report));
        } else {
            out.printf("%-6s %14s %14s %7s %s%n", "query", "undisturbed s", "killed s", "ratio", "answer");
            runs.forEach(r -> out.printf("%-6s %14.3f %14.3f %7.2f %s%n", r.query(), r.undisturbedSeconds(),
                    r.failoverSeconds(), r.ratio(), r.error() != null ? r.error() : r.sameRows() ? "same" : "DIFFERENT: " + r.difference()));
        }
        out.flush();
        return runs.stream().allMatch(r -> r.sameRows() && r.error() == null) ? 0 : 1;
    }

    /** {@code work}'s undisturbed median over --repeat runs, then --kills runs with the node killed part way through. */
    private Run undisturbedThenKilled(Work work, String victim, LocalCluster local, PrintWriter err) throws Exception {
        // its supervisor gives up on a node it restarted five times in ten minutes, earlier queries' kills counted
        new NodeFaults(local).restart(victim);
        List<Object[]> expected = work.expected() != null ? work.expected() : work.run().get();
        warmUp(work);
        double[] times = new double[repeat];
        String difference = null;
        for (int i = 0; i < repeat; i++) {
            long t0 = System.nanoTime();
            List<Object[]> rows = work.run().get();
            times[i] = (System.nanoTime() - t0) / 1e9;
            difference = difference != null ? difference : Answers.difference(rows, expected, work.ordered());
        }
        Arrays.sort(times);
        double undisturbed = times[repeat / 2];
        List<Run> killed = new ArrayList<>();
        for (int i = 0; i < kills; i++) {
            Run run = null;
            // a run faster than the fastest undisturbed one may end before the kill: kill sooner then
            for (double delay = times[0] * at; run == null; delay /= 2) {
                run = killedMidway(work, undisturbed, delay, expected, victim, local);
                if (run == null && delay < 0.01) {
                    throw new IllegalStateException(work.name() + " ended before " + victim + " could be killed: "
                            + "raise --at's share or the scale factor");
                }
            }
            err.println(progress(run));
            err.flush();
            new NodeFaults(local).awaitUp(victim);
            warmUp(work);
            killed.add(run);
        }
        if (difference == null) {
            difference = killed.stream().map(Run::difference).filter(d -> d != null).findFirst().orElse(null);
        } else {
            difference = "undisturbed: " + difference;
        }
        List<Double> seconds = killed.stream().map(Run::failoverSeconds).toList();
        double median = seconds.stream().sorted().toList().get(kills / 2);
        String error = killed.stream().map(Run::error).filter(e -> e != null).findFirst().orElse(null);
        return new Run(work.name(), undisturbed, median, median / undisturbed, difference == null && error == null,
                difference, error, seconds);
    }

    /** --warmups runs not counted: a victim just started, its JVM not yet warm, would make the runs without it look fast. */
    private void warmUp(Work work) {
        for (int i = 0; i < warmups; i++) {
            work.run().get();
        }
    }

    /** A run with the node killed {@code delay} seconds in; null when it ended before that. */
    private Run killedMidway(Work work, double undisturbed, double delay, List<Object[]> expected, String victim,
                             LocalCluster local) throws Exception {
        String name = work.name();
        long t0 = System.nanoTime();
        CompletableFuture<List<Object[]>> running = CompletableFuture.supplyAsync(work.run());
        Thread.sleep((long) (delay * 1000));
        if (running.isDone()) {
            running.join();
            return null;
        }
        new NodeFaults(local).kill(victim);
        try {
            List<Object[]> answer = running.get(30 + (long) (undisturbed * 20), TimeUnit.SECONDS);
            double seconds = (System.nanoTime() - t0) / 1e9;
            String difference = Answers.difference(answer, expected, work.ordered());
            return new Run(name, undisturbed, seconds, seconds / undisturbed, difference == null, difference, null,
                    List.of(seconds));
        } catch (java.util.concurrent.ExecutionException e) {
            double seconds = (System.nanoTime() - t0) / 1e9;
            return new Run(name, undisturbed, seconds, seconds / undisturbed, false, null, e.getCause().getMessage(),
                    List.of(seconds));
        }
    }

    /** An index join's rows, each rendered as one string of its columns' text joined by '|', as {@link TpchDuckDb#lines} renders DuckDB's. */
    private List<Object[]> joined(ClusterSession session, JoinSpec join) {
        List<DataType> types = join.output().stream().map(c -> {
            Schema schema = schema(join.tableOf(c.substring(0, c.indexOf('.'))));
            return schema.type(schema.indexOf(c.substring(c.indexOf('.') + 1)));
        }).toList();
        List<Object[]> rows = Collections.synchronizedList(new ArrayList<>());
        session.join(join, ExecutionMode.OOO, IN_FLIGHT, row -> {
            StringJoiner line = new StringJoiner("|");
            for (int i = 0; i < row.length; i++) {
                line.add(types.get(i).format(row[i]));
            }
            rows.add(new Object[] {line.toString()});
        });
        return rows;
    }

    /** The columns of TPC-H table {@code table}. */
    private static Schema schema(String table) {
        return TpchSchema.definition(TpchTable.getTable(table)).schema();
    }

    /** The query's rows as the SQL session returns them. */
    private static List<Object[]> rows(SqlSession sql, String text) {
        List<Object[]> rows = new ArrayList<>();
        sql.execute(text, new Cancellation()).rows().forEachRemaining(rows::add);
        return rows;
    }

    /** Progress of DuckDB's load on {@code err}: a line per table at most every 5 s. */
    static TpchLoader.Progress progress(PrintWriter err) {
        long[] last = {0};
        return (table, done, expected) -> {
            if (done == expected || System.nanoTime() - last[0] > 5_000_000_000L) {
                last[0] = System.nanoTime();
                err.printf("%s: %,d of %,d rows%n", table, done, expected);
                err.flush();
            }
        };
    }

    private static String progress(Run r) {
        return String.format("%s: %.3f s undisturbed, %.3f s with the node killed (%.2fx), %s", r.query(),
                r.undisturbedSeconds(), r.failoverSeconds(), r.ratio(),
                r.error() != null ? "failed: " + r.error() : r.sameRows() ? "the same rows" : "DIFFERENT rows: " + r.difference());
    }
}
