package org.oooengine.cluster.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.oooengine.cluster.bench.tpch.TpchQueries;
import org.oooengine.core.cluster.NodeDaemon;
import org.oooengine.hive.engine.ClusterSqlEngine;
import org.oooengine.hive.engine.EstimatedRows;
import org.oooengine.hive.sql.Cancellation;
import org.oooengine.hive.sql.SqlSession;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code ooo bench estimates}: how close EXPLAIN's row estimates come to the rows each operator of the TPC-H queries makes. */
@Command(name = "estimates", mixinStandardHelpOptions = true,
        description = {"Run EXPLAIN ANALYZE of TPC-H queries (docs/queries/tpch) on a running, loaded cluster, as its "
                + "coordinator does, in this process, and compare each operator's estimated rows with the rows it made.",
                "Reports per query the operators estimated within --factor of their rows, the share over all queries "
                        + "and the operators off by more, the farthest first. One progress line per query goes to stderr."})
final class BenchEstimatesCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--cluster", required = true, paramLabel = "<cluster-dir>",
            description = "a running cluster loaded with 'ooo load tpch --cluster'")
    Path cluster;

    @Option(names = "--queries", split = ",", paramLabel = "<n>", description = "query numbers, e.g. 1,3,18 (default: all 22)")
    List<Integer> queries;

    @Option(names = "--factor", defaultValue = "2", paramLabel = "X",
            description = "how far an estimate may lie from the rows, either way (default: ${DEFAULT-VALUE})")
    double factor;

    @Option(names = "--json", description = "print one JSON object instead of a table")
    boolean json;

    @Override
    public Integer call() {
        if (!(factor >= 1)) {
            throw new ParameterException(spec.commandLine(), "--factor must be at least 1, got " + factor);
        }
        List<Integer> chosen;
        try {
            chosen = TpchQueries.chosen(queries);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), "--queries: " + e.getMessage());
        }
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Map<String, List<EstimatedRows>> byQuery = new LinkedHashMap<>();
        try (ClusterSqlEngine engine = ClusterSqlEngine.open(cluster, NodeDaemon.DEFAULT_TIMEOUT, Map.of());
             SqlSession sql = engine.openSession(System.getProperty("user.name", "ooo"), "default", Map.of())) {
            for (int q : chosen) {
                List<String> lines = new ArrayList<>();
                sql.execute("EXPLAIN ANALYZE " + TpchQueries.text(q), new Cancellation()).rows()
                        .forEachRemaining(r -> lines.add((String) r[0]));
                List<EstimatedRows> operators = EstimatedRows.of(lines);
                byQuery.put(TpchQueries.name(q), operators);
                err.printf(Locale.ROOT, "%s: %d of %d operators within %sx%n", TpchQueries.name(q),
                        operators.stream().filter(o -> o.within(factor)).count(), operators.size(), factor(factor));
                err.flush();
            }
        }
        List<EstimatedRows> all = byQuery.values().stream().flatMap(List::stream).toList();
        double share = EstimatedRows.shareWithin(all, factor);
        if (json) {
            Map<String, Object> report = new LinkedHashMap<>();
            report.put("cluster", cluster.toAbsolutePath().normalize().toString());
            report.put("factor", factor);
            report.put("operators", all.size());
            report.put("share_within", share);
            report.put("queries", byQuery);
            out.println(Json.line(report));
        } else {
            out.printf(Locale.ROOT, "%d of %d operators estimated within %sx of their rows (%.0f%%)%n",
                    all.stream().filter(o -> o.within(factor)).count(), all.size(), factor(factor), 100 * share);
            List<Map.Entry<String, EstimatedRows>> worst = new ArrayList<>();
            byQuery.forEach((q, ops) -> ops.stream().filter(o -> !o.within(factor)).forEach(o -> worst.add(Map.entry(q, o))));
            worst.sort(Comparator.comparingDouble((Map.Entry<String, EstimatedRows> e) -> e.getValue().ratio()).reversed());
            for (Map.Entry<String, EstimatedRows> e : worst) {
                EstimatedRows o = e.getValue();
                out.printf(Locale.ROOT, "  %s %6.1fx  est %,d  actual %,d  %s%n", e.getKey(), o.ratio(), o.estimated(),
                        o.actual(), o.operator().length() > 120 ? o.operator().substring(0, 117) + "..." : o.operator());
            }
        }
        out.flush();
        return 0;
    }

    private static String factor(double f) {
        return f == Math.rint(f) ? Long.toString((long) f) : Double.toString(f);
    }
}
