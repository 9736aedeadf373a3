package org.oooengine.cluster.cli;

import io.trino.tpch.TpchColumn;
import io.trino.tpch.TpchTable;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import org.apache.hadoop.conf.Configuration;
import org.oooengine.core.cluster.ClusterSession;
import org.oooengine.core.cluster.NodeDaemon;
import org.oooengine.core.cluster.QueryLimits;
import org.oooengine.core.fragment.PartitionPipeline;
import org.oooengine.core.fragment.PipelineStep;
import org.oooengine.core.fragment.ScanPipeline;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.sql.expr.Expr;
import org.oooengine.core.sql.expr.ScalarFunction;
import org.oooengine.core.tpch.TpchSchema;
import org.oooengine.core.types.Column;
import org.oooengine.core.types.Schema;
import org.oooengine.cluster.bench.NodeCpus;
import org.oooengine.cluster.bench.ScanPlot;
import org.oooengine.hive.catalog.EmbeddedCatalog;
import org.oooengine.hive.engine.ClusterTableReader;
import org.oooengine.hive.files.FileAccess;
import org.oooengine.hive.files.FileLayout;
import org.oooengine.hive.files.FileTableReader;
import org.oooengine.hive.files.PartitionDirectories;
import org.oooengine.hive.files.SplitScheduling;
import org.oooengine.hive.sql.Cancellation;
import org.oooengine.hive.sql.exec.TableReader;
import org.oooengine.mapreduce.HiveText;
import org.oooengine.optimizer.catalog.ResultColumn;
import org.oooengine.optimizer.catalog.TableInfo;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code ooo bench scan}: seed 003's question — how the nodes of a cluster should share a scan of
 * files — measured on a running cluster. TPC-H lineitem is written as text files once (or a table
 * in files is named); each scheduling pattern then scans them, balanced, with a skewed assignment
 * and with a node slowed ({@link NodeCpus}), every node doing the chosen work per row over one
 * column and keeping no row, and the nodes report their busy time.
 */
@Command(name = "scan", mixinStandardHelpOptions = true,
        description = {"Scan TPC-H lineitem held in text files (or --table) on a running cluster under each way the "
                + "nodes share splits out (ooo.files.scheduling: 1 local, 2 stealing, 3 shared), balanced, with --skew "
                + "and with --slow, and report the time taken and each node's busy and idle seconds (median of --rounds "
                + "after one untimed round). The files are written once under --data. Progress goes to stderr."})
final class BenchScanCommand implements Callable<Integer> {
    private static final List<String> PATTERNS = List.of("local", "stealing", "shared");

    @Spec
    CommandSpec spec;

    @Option(names = "--cluster", paramLabel = "<cluster-dir>", description = "a running cluster (required unless --from-json)")
    Path cluster;

    @Option(names = "--data", paramLabel = "<dir>",
            description = "where the lineitem files are, written if missing (default: <cluster-dir>/bench-scan/sf<SF>)")
    Path data;

    @Option(names = {"--scale-factor", "--sf"}, defaultValue = "1", paramLabel = "SF",
            description = "TPC-H scale factor of the files (default: ${DEFAULT-VALUE})")
    double scaleFactor;

    @Option(names = "--files", defaultValue = "16", paramLabel = "N", description = "text files to write (default: ${DEFAULT-VALUE})")
    int files;

    @Option(names = "--split-bytes", defaultValue = "33554432", paramLabel = "BYTES",
            description = "the most bytes of a split (default: ${DEFAULT-VALUE})")
    long splitBytes;

    @Option(names = "--pattern", split = ",", paramLabel = "1|2|3",
            description = "patterns to run: 1 local, 2 stealing, 3 shared (default: all three)")
    List<Integer> patterns;

    @Option(names = "--skew", defaultValue = "", paramLabel = "node=factor",
            description = "also run with this node given factor times the bytes of each other (e.g. n1=2)")
    String skew;

    @Option(names = "--slow", defaultValue = "", paramLabel = "node=factor",
            description = "also run with this node's process slowed factor times: a CPU quota of 1/factor of a core "
                    + "(a control group; root), meaningful with --pin (e.g. n1=2)")
    String slow;

    @Option(names = "--pin", description = "pin each node's process to a core of its own, round robin over the "
            + "machine's cores (taskset), as when each node is a machine; given back after")
    boolean pin;

    @Option(names = "--cold", description = "empty the operating system's page cache before each round (root), so "
            + "that the files are read from the disk, as in seed 003")
    boolean cold;

    @Option(names = "--table", paramLabel = "<database.table>",
            description = "scan this table held in files, from the cluster's catalog, instead of writing lineitem")
    String tableName;

    @Option(names = "--cost", defaultValue = "decode", paramLabel = "decode|select1|select2|select3",
            description = "the work per row, over the first column c: decode (read it, keep nothing), or seed 003's "
                    + "select1 (c < A), select2 (POWER(c, 10) of the rows c < A), select3 (POWER(c, 10) < A^10); "
                    + "no row leaves the nodes (default: ${DEFAULT-VALUE})")
    String cost;

    @Option(names = "--threshold", paramLabel = "A",
            description = "A of --cost select1-3 (default for lineitem: half its largest order key; required with --table)")
    Double threshold;

    @Option(names = "--rounds", defaultValue = "3", paramLabel = "R", description = "timed rounds each (default: ${DEFAULT-VALUE})")
    int rounds;

    @Option(names = "--json", description = "print one JSON object per run instead of a table")
    boolean json;

    @Option(names = "--from-json", paramLabel = "<file>",
            description = "print (and --plot) the runs an earlier --json run printed into this file, scanning nothing")
    Path fromJson;

    @Option(names = "--plot", paramLabel = "<file.png>", description = "also draw each pattern's time and idle seconds, "
            + "balanced, skewed and slowed, as bars")
    Path plot;

    @Override
    public Integer call() throws IOException {
        if (fromJson != null) {
            if (cluster != null) {
                throw new ParameterException(spec.commandLine(), "--from-json prints saved runs and scans nothing: "
                        + "leave out --cluster");
            }
            return replay();
        }
        if (cluster == null) {
            throw new ParameterException(spec.commandLine(), "--cluster is required (or --from-json)");
        }
        if (rounds < 1 || files < 1 || !(scaleFactor > 0) || splitBytes < 1) {
            throw new ParameterException(spec.commandLine(), "--rounds, --files, --scale-factor and --split-bytes must be positive");
        }
        List<String> chosen = new ArrayList<>();
        for (int p : patterns == null ? List.of(1, 2, 3) : patterns) {
            if (p < 1 || p > 3) {
                throw new ParameterException(spec.commandLine(), "--pattern: " + p + " is not 1, 2 or 3");
            }
            chosen.add(PATTERNS.get(p - 1));
        }
        try {
            SplitScheduling.of("local", skew);
        } catch (RuntimeException e) {
            throw new ParameterException(spec.commandLine(), "--skew: " + e.getMessage());
        }
        Map<String, Double> slowed = slowed();
        if (!COSTS.contains(cost)) {
            throw new ParameterException(spec.commandLine(), "--cost: '" + cost + "' is not one of " + COSTS);
        }
        if (threshold != null && cost.equals("decode")) {
            throw new ParameterException(spec.commandLine(), "--threshold is A of --cost select1, select2 or select3");
        }
        if (tableName != null && !cost.equals("decode") && threshold == null) {
            throw new ParameterException(spec.commandLine(), "--cost " + cost + " over --table needs --threshold A");
        }
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        TableInfo table = tableName != null ? catalogTable() : lineitemFiles(data != null ? data
                : cluster.resolve("bench-scan").resolve(String.format(Locale.ROOT, "sf%s", scaleFactor)), err);
        SqlType first = table.columns().get(0).type();
        if (!cost.equals("decode") && !first.isNumeric()) {
            throw new ParameterException(spec.commandLine(), "--cost " + cost + ": the first column of " + table.name()
                    + " is " + first + ", not a number");
        }
        Configuration conf = new Configuration();
        conf.setLong("mapreduce.input.fileinputformat.split.maxsize", splitBytes);
        FileTableReader reader = new FileTableReader(conf, t -> PartitionDirectories.parts(t, conf), FileAccess.ANY);
        BitSet firstColumn = new BitSet();
        firstColumn.set(0);
        ScanPipeline scan = new ScanPipeline(table.storage(), table.columns().size(), firstColumn,
                steps(first, threshold != null ? threshold : 3_000_000.0 * scaleFactor));
        List<String> nodeIds = new ArrayList<>();
        List<Map<String, Object>> runs = new ArrayList<>();
        try (ClusterSession session = ClusterSession.open(cluster, "bench", NodeDaemon.DEFAULT_TIMEOUT)) {
            session.spec().nodes().forEach(n -> nodeIds.add(n.id()));
            try (NodeCpus pinned = cpus(nodeIds, pin, Map.of())) {
                for (String pattern : chosen) {
                    List<String[]> variants = new ArrayList<>();
                    variants.add(new String[] {"", ""});
                    if (!skew.isBlank()) {
                        variants.add(new String[] {skew, ""});
                    }
                    if (!slow.isBlank()) {
                        variants.add(new String[] {"", slow});
                    }
                    for (String[] v : variants) {
                        ClusterTableReader nodes = new ClusterTableReader(session, ClusterTableReader.Reads.NONE,
                                Optional.of(reader), SplitScheduling.of(pattern, v[0]).cached(false)); // the files, each round
                        Map<String, Object> run;
                        try (NodeCpus slowing = cpus(nodeIds, false, v[1].isBlank() ? Map.of() : slowed)) {
                            run = rounds(pattern, v[0], v[1], nodes, table, scan);
                        }
                        runs.add(run);
                        err.printf(Locale.ROOT, "%s%s%s: %.3f s%n", pattern, v[0].isBlank() ? "" : " skew " + v[0],
                                v[1].isBlank() ? "" : " slow " + v[1], run.get("seconds"));
                        err.flush();
                    }
                }
            }
        }
        print(out, runs);
        if (plot != null) {
            ScanPlot.write(runs, BenchScanCommand::label, plot);
            err.println("plot: " + plot);
        }
        return 0;
    }

    private static final List<String> COSTS = List.of("decode", "select1", "select2", "select3");

    /** --from-json: the runs of an earlier --json run, printed and plotted again. */
    private int replay() throws IOException {
        List<Map<String, Object>> runs = new ArrayList<>();
        com.fasterxml.jackson.databind.ObjectMapper mapper = new com.fasterxml.jackson.databind.ObjectMapper();
        for (String line : Files.readAllLines(fromJson)) {
            if (!line.isBlank()) {
                Map<String, Object> run = mapper.readValue(line, new com.fasterxml.jackson.core.type.TypeReference<
                        LinkedHashMap<String, Object>>() { });
                run.putIfAbsent("slow", "");
                run.remove("vs_balanced");
                runs.add(run);
            }
        }
        print(spec.commandLine().getOut(), runs);
        if (plot != null) {
            ScanPlot.write(runs, BenchScanCommand::label, plot);
            spec.commandLine().getErr().println("plot: " + plot);
        }
        return 0;
    }

    /** The nodes' CPUs set as --pin and --slow say; what cannot be done is a usage error. */
    private NodeCpus cpus(List<String> nodes, boolean pinned, Map<String, Double> slowing) {
        try {
            return NodeCpus.set(cluster, nodes, pinned, slowing);
        } catch (IllegalStateException | IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
    }

    /** One untimed round, then {@link #rounds} timed ones of {@code scan} as {@code nodes} share it out. */
    private Map<String, Object> rounds(String pattern, String withSkew, String withSlow, ClusterTableReader nodes,
                                       TableInfo table, ScanPipeline scan) {
        List<Long> walls = new ArrayList<>();
        List<TableReader.NodeFigures> figures = new ArrayList<>();
        for (int r = 0; r <= rounds; r++) {
            if (cold) {
                dropPageCache();
            }
            long t0 = System.nanoTime();
            TableReader.NodeFigures f = nodes.pipeline(table, scan, List.of(), QueryLimits.DEFAULTS, new Cancellation(),
                    row -> { });
            if (r > 0) {
                walls.add(System.nanoTime() - t0);
                figures.add(f);
            }
        }
        Map<String, Object> run = run(pattern, withSkew, walls, figures);
        run.put("slow", withSlow);
        run.put("cost", cost);
        run.put("pinned", pin);
        run.put("cold", cold);
        return run;
    }

    /** Writes dirty pages out and has the kernel drop its page cache: the next reads go to the disk. */
    private void dropPageCache() {
        try {
            new ProcessBuilder("sync").inheritIO().start().waitFor();
            Files.writeString(Path.of("/proc/sys/vm/drop_caches"), "3");
        } catch (IOException e) {
            throw new IllegalStateException("--cold: cannot drop the page cache (root is needed): " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("--cold: interrupted", e);
        }
    }

    /**
     * The steps of {@link #cost} over column 0 of type {@code type}, the last of which keeps no
     * row: the nodes' time is the scan's and the work per row.
     */
    private List<PipelineStep> steps(SqlType type, double a) {
        Expr c = new Expr.Column(0, type);
        Expr none = new Expr.IsNull(c, false); // the column is never null: nothing leaves
        Expr belowA = new Expr.Call(ScalarFunction.LT, List.of(c, new Expr.Literal(a, SqlType.DOUBLE)), SqlType.BOOLEAN);
        Expr power = new Expr.Call(ScalarFunction.POWER, List.of(c, new Expr.Literal(10.0, SqlType.DOUBLE)), SqlType.DOUBLE);
        return switch (cost) {
            case "select1" -> List.of(new PipelineStep.Filter(belowA), new PipelineStep.Filter(none));
            case "select2" -> List.of(new PipelineStep.Filter(belowA), new PipelineStep.Project(List.of(power)),
                    new PipelineStep.Filter(new Expr.IsNull(new Expr.Column(0, SqlType.DOUBLE), false)));
            case "select3" -> List.of(new PipelineStep.Filter(new Expr.Call(ScalarFunction.LT, List.of(power,
                    new Expr.Literal(Math.pow(a, 10), SqlType.DOUBLE)), SqlType.BOOLEAN)), new PipelineStep.Filter(none));
            default -> List.of(new PipelineStep.Filter(none));
        };
    }

    /** --slow as node and factor; empty when not given. */
    private Map<String, Double> slowed() {
        if (slow.isBlank()) {
            return Map.of();
        }
        String[] kv = slow.split("=", 2);
        try {
            double factor = Double.parseDouble(kv.length == 2 ? kv[1].strip() : "");
            if (!(factor >= 1)) {
                throw new NumberFormatException();
            }
            return Map.of(kv[0].strip(), factor);
        } catch (NumberFormatException e) {
            throw new ParameterException(spec.commandLine(), "--slow: '" + slow + "' is not node=factor with a factor of at least 1");
        }
    }

    /** The table --table names, from the cluster's catalog: one held in files. */
    private TableInfo catalogTable() {
        String[] name = tableName.contains(".") ? tableName.split("\\.", 2) : new String[] {"default", tableName};
        TableInfo t = new EmbeddedCatalog(cluster.resolve("catalog.json"), null).entry(name[0], name[1])
                .map(org.oooengine.hive.catalog.CatalogTable::info)
                .orElseThrow(() -> new ParameterException(spec.commandLine(), "--table: no table " + tableName
                        + " in " + cluster.resolve("catalog.json")));
        if (!FileTableReader.holds(t)) {
            throw new ParameterException(spec.commandLine(), "--table: " + tableName + " is not held in files");
        }
        return t;
    }

    /** One pattern's figures: the median round's time, and each node's busy seconds, rows and bytes in that round. */
    private static Map<String, Object> run(String pattern, String skew, List<Long> walls, List<TableReader.NodeFigures> figures) {
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < walls.size(); i++) {
            order.add(i);
        }
        order.sort((a, b) -> Long.compare(walls.get(a), walls.get(b)));
        int median = order.get(order.size() / 2);
        double seconds = walls.get(median) / 1e9;
        Map<String, Object> byNode = new TreeMap<>();
        for (Map.Entry<String, PartitionPipeline.Summary> e : figures.get(median).byNode().entrySet()) {
            PartitionPipeline.Summary s = e.getValue();
            Map<String, Object> node = new LinkedHashMap<>();
            node.put("busy_seconds", s.nanos() / 1e9);
            node.put("idle_seconds", Math.max(0, seconds - s.nanos() / 1e9));
            node.put("rows", s.rowsScanned());
            node.put("bytes_read", s.bytesRead());
            node.put("splits_read", s.splits().read());
            node.put("splits_taken", s.splits().taken()); // another node's: read remotely on a cluster of hosts
            node.put("seeks", s.splits().seeks());
            node.put("wait_seconds", s.splits().waitNanos() / 1e9); // on other nodes' answers handing out splits
            byNode.put(e.getKey(), node);
        }
        Map<String, Object> run = new LinkedHashMap<>();
        run.put("pattern", pattern);
        run.put("skew", skew);
        run.put("seconds", seconds);
        run.put("rounds_seconds", walls.stream().map(w -> w / 1e9).toList());
        run.put("nodes", byNode);
        return run;
    }

    private void print(PrintWriter out, List<Map<String, Object>> runs) {
        Map<String, Double> balanced = new LinkedHashMap<>();
        for (Map<String, Object> run : runs) {
            if (label(run).equals("balanced")) {
                balanced.put((String) run.get("pattern"), ((Number) run.get("seconds")).doubleValue());
            } else {
                run.put("vs_balanced", ((Number) run.get("seconds")).doubleValue() / balanced.get((String) run.get("pattern")));
            }
        }
        for (Map<String, Object> run : runs) {
            if (json) {
                out.println(Json.line(run));
                continue;
            }
            out.printf(Locale.ROOT, "%-9s %-10s %8.3f s%s%n", run.get("pattern"), label(run), run.get("seconds"),
                    run.containsKey("vs_balanced")
                    ? String.format(Locale.ROOT, "  %.2fx balanced", ((Number) run.get("vs_balanced")).doubleValue()) : "");
            @SuppressWarnings("unchecked")
            Map<String, Map<String, Object>> nodes = (Map<String, Map<String, Object>>) run.get("nodes");
            nodes.forEach((node, f) -> out.printf(Locale.ROOT, "    %-6s busy %7.3f s  idle %7.3f s  %,12d rows  "
                    + "%,5d splits, %,d taken, %,d seeks, waited %.3f s%n", node, f.get("busy_seconds"),
                    f.get("idle_seconds"), f.get("rows"), f.get("splits_read"), f.get("splits_taken"), f.get("seeks"),
                    f.get("wait_seconds")));
        }
        out.flush();
    }

    /** How a run's nodes were set: balanced, or the node given more splits or slowed. */
    private static String label(Map<String, Object> run) {
        return !((String) run.get("skew")).isBlank() ? "skew " + run.get("skew")
                : !((String) run.get("slow")).isBlank() ? "slow " + run.get("slow") : "balanced";
    }

    /** lineitem at the scale factor as text files in {@code dir}, written unless a finished set is there. */
    private TableInfo lineitemFiles(Path dir, PrintWriter err) throws IOException {
        Schema schema = TpchSchema.definition(TpchTable.LINE_ITEM).schema();
        if (!Files.exists(dir.resolve("_SUCCESS"))) {
            Files.createDirectories(dir);
            HiveText text = new HiveText(schema.columns().stream().map(Column::type).toList());
            List<TpchColumn<io.trino.tpch.LineItem>> columns = TpchTable.LINE_ITEM.getColumns();
            for (int part = 1; part <= files; part++) {
                Path file = dir.resolve(String.format(Locale.ROOT, "part-%05d", part));
                try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
                    for (io.trino.tpch.LineItem item : TpchTable.LINE_ITEM.createGenerator(scaleFactor, part, files)) {
                        w.write(text.format(TpchSchema.row(columns, item)));
                        w.newLine();
                    }
                }
                err.printf(Locale.ROOT, "wrote %s (%d of %d)%n", file, part, files);
                err.flush();
            }
            Files.createFile(dir.resolve("_SUCCESS"));
        }
        List<ResultColumn> columns = new ArrayList<>();
        for (Column c : schema.columns()) {
            columns.add(new ResultColumn(c.name(), SqlType.of(c.type())));
        }
        return new TableInfo("bench", "lineitem_files", columns, List.of(), "file:" + dir.toAbsolutePath().normalize(),
                FileLayout.TEXT.properties(), "");
    }
}
