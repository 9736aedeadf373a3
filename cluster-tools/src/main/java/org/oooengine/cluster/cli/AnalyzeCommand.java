package org.oooengine.cluster.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.ArrayList;
import java.util.List;
import org.oooengine.core.store.TreeReport;
import java.util.concurrent.Callable;
import org.oooengine.core.cluster.ClusterSession;
import org.oooengine.core.stats.ColumnStatistics;
import org.oooengine.core.stats.StatisticsCollector;
import org.oooengine.core.stats.TableStatistics;
import org.oooengine.core.store.Store;
import org.oooengine.core.store.StoreOptions;
import org.oooengine.optimizer.stats.ClusterStatistics;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code ooo analyze}: collect table statistics anew and show them. */
@Command(name = "analyze", mixinStandardHelpOptions = true,
        description = {"Collect the statistics the optimizer plans with, anew, and print them: rows, bytes, and per "
                + "column distinct values (HyperLogLog), NULLs, min, max and an equi-depth histogram on indexed columns.",
                "Statistics are also collected at load. On a cluster every node scans its partitions at once and "
                        + "the coordinator merges them per table."})
final class AnalyzeCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = {"--store", "--dir"}, paramLabel = "<store-dir>", description = "a single-node store")
    Path store;

    @Option(names = "--cluster", paramLabel = "<cluster-dir>", description = "a running, loaded cluster (or --store)")
    Path cluster;

    @Option(names = "--table", paramLabel = "<table>", description = "show only this table")
    String table;

    @Option(names = "--json", description = "print one JSON object per table (without the sketches)")
    boolean json;

    @Override
    public Integer call() {
        Map<String, TableStatistics> tables = new LinkedHashMap<>();
        List<TreeReport> trees = new ArrayList<>();
        collect(tables, trees);
        if (table != null && !tables.containsKey(table)) {
            throw new ParameterException(spec.commandLine(), "no table '" + table + "'; tables: " + tables.keySet());
        }
        PrintWriter out = spec.commandLine().getOut();
        tables.values().stream().filter(t -> table == null || t.table().equals(table)).forEach(t -> {
            List<TreeReport> own = trees.stream().filter(r -> r.table().equals(t.table())).toList();
            if (json) {
                Map<String, Object> m = withoutSketches(t);
                m.put("trees", own.stream().map(AnalyzeCommand::treeJson).toList());
                out.println(Json.line(m));
            } else {
                print(out, t);
                out.printf("  B+trees:%n");
                own.forEach(r -> out.printf("    %s: %s%n", r.tree(), r.describe(TreeReport.DETERIORATED)));
            }
        });
        return 0;
    }

    /** The tables' statistics, collected anew, and how their B+trees have deteriorated. */
    private void collect(Map<String, TableStatistics> tables, List<TreeReport> trees) {
        if ((this.store == null) == (cluster == null)) {
            throw new ParameterException(spec.commandLine(), "give exactly one of --store and --cluster");
        }
        if (this.store != null) {
            try (Store store = Store.open(this.store, StoreOptions.defaults().withDirectIo(false))) {
                tables.putAll(StatisticsCollector.collect(store).tables());
                store.tables().values().forEach(t -> trees.addAll(TreeReport.of(t, TreeReport.RANGES)));
            }
            return;
        }
        try (ClusterSession session = ClusterSession.open(cluster, "analyze", Duration.ofSeconds(30))) {
            tables.putAll(ClusterStatistics.collect(session, true));
            trees.addAll(TreeReport.summed(session.treeHealth(Optional.ofNullable(table), true).values()));
        }
    }

    private static Map<String, Object> treeJson(TreeReport r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("tree", r.tree());
        m.put("leaves", r.leaves());
        m.put("fresh_leaves", r.freshLeaves());
        m.put("entries", r.entries());
        m.put("fill", r.fill());
        m.put("deterioration", r.deterioration());
        m.put("deteriorated_ranges", r.deterioratedRanges(TreeReport.DETERIORATED));
        m.put("ranges", r.ranges().size());
        return m;
    }

    private static void print(PrintWriter out, TableStatistics t) {
        out.printf(Locale.ROOT, "%s: %,d rows, %s%n", t.table(), t.rows(), org.oooengine.cluster.bench.Format.mebibytes(t.bytes()));
        out.printf(Locale.ROOT, "  %-18s %12s %8s  %-22s %-22s %s%n", "column", "distinct", "nulls", "min", "max", "histogram");
        for (ColumnStatistics c : t.columns()) {
            out.printf(Locale.ROOT, "  %-18s %,12.0f %,8d  %-22s %-22s %s%n", c.column(), c.distinctValues(), c.nulls(),
                    clip(c.min()), clip(c.max()), c.histogram().isEmpty() ? "" : c.histogram().size() + " buckets");
        }
    }

    private static String clip(String value) {
        return value == null ? "-" : value.length() <= 22 ? value : value.substring(0, 19) + "...";
    }

    private static Map<String, Object> withoutSketches(TableStatistics t) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("table", t.table());
        m.put("rows", t.rows());
        m.put("bytes", t.bytes());
        m.put("columns", t.columns().stream().map(c -> {
            Map<String, Object> cm = new LinkedHashMap<>();
            cm.put("column", c.column());
            cm.put("distinct", Math.round(c.distinctValues()));
            cm.put("nulls", c.nulls());
            cm.put("min", c.min());
            cm.put("max", c.max());
            cm.put("histogram", c.histogram());
            return cm;
        }).toList());
        return m;
    }
}
