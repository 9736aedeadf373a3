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
import org.oooengine.core.tpch.TpchSchema;
import org.oooengine.core.types.Column;
import org.oooengine.core.types.Schema;
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
 * files — measured on a running cluster. TPC-H lineitem is written as text files once; each
 * scheduling pattern then scans them, balanced and with a skewed assignment, every node decoding
 * one column and keeping no row, and the nodes report their busy time.
 */
@Command(name = "scan", mixinStandardHelpOptions = true,
        description = {"Scan TPC-H lineitem held in text files on a running cluster under each way the nodes share "
                + "splits out (ooo.files.scheduling: 1 local, 2 stealing, 3 shared), balanced and with --skew, and "
                + "report the time taken and each node's busy and idle seconds (median of --rounds after one untimed "
                + "round). The files are written once under --data. Progress goes to stderr."})
final class BenchScanCommand implements Callable<Integer> {
    private static final List<String> PATTERNS = List.of("local", "stealing", "shared");

    @Spec
    CommandSpec spec;

    @Option(names = "--cluster", required = true, paramLabel = "<cluster-dir>", description = "a running cluster")
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

    @Option(names = "--rounds", defaultValue = "3", paramLabel = "R", description = "timed rounds each (default: ${DEFAULT-VALUE})")
    int rounds;

    @Option(names = "--json", description = "print one JSON object per run instead of a table")
    boolean json;

    @Override
    public Integer call() throws IOException {
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
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Path dir = data != null ? data : cluster.resolve("bench-scan").resolve(String.format(Locale.ROOT, "sf%s", scaleFactor));
        TableInfo table = lineitemFiles(dir, err);
        Configuration conf = new Configuration();
        conf.setLong("mapreduce.input.fileinputformat.split.maxsize", splitBytes);
        FileTableReader reader = new FileTableReader(conf, t -> PartitionDirectories.parts(t, conf), FileAccess.ANY);
        BitSet firstColumn = new BitSet();
        firstColumn.set(0);
        // every row decoded and tested, none kept: the nodes' time is the scan's
        ScanPipeline scan = new ScanPipeline(table.storage(), table.columns().size(), firstColumn,
                List.of(new PipelineStep.Filter(new Expr.IsNull(new Expr.Column(0, SqlType.BIGINT), false))));
        List<Map<String, Object>> runs = new ArrayList<>();
        try (ClusterSession session = ClusterSession.open(cluster, "bench", NodeDaemon.DEFAULT_TIMEOUT)) {
            for (String pattern : chosen) {
                for (String withSkew : skew.isBlank() ? List.of("") : List.of("", skew)) {
                    ClusterTableReader nodes = new ClusterTableReader(session, ClusterTableReader.Reads.NONE,
                            Optional.of(reader), SplitScheduling.of(pattern, withSkew).cached(false)); // the files, each round
                    List<Long> walls = new ArrayList<>();
                    List<TableReader.NodeFigures> figures = new ArrayList<>();
                    for (int r = 0; r <= rounds; r++) {
                        long t0 = System.nanoTime();
                        TableReader.NodeFigures f = nodes.pipeline(table, scan, List.of(), QueryLimits.DEFAULTS,
                                new Cancellation(), row -> { });
                        if (r > 0) {
                            walls.add(System.nanoTime() - t0);
                            figures.add(f);
                        }
                    }
                    Map<String, Object> run = run(pattern, withSkew, walls, figures);
                    runs.add(run);
                    err.printf(Locale.ROOT, "%s%s: %.3f s%n", pattern, withSkew.isBlank() ? "" : " skew " + withSkew,
                            run.get("seconds"));
                    err.flush();
                }
            }
        }
        print(out, runs);
        return 0;
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
            if (((String) run.get("skew")).isBlank()) {
                balanced.put((String) run.get("pattern"), (Double) run.get("seconds"));
            } else {
                run.put("vs_balanced", (Double) run.get("seconds") / balanced.get((String) run.get("pattern")));
            }
        }
        for (Map<String, Object> run : runs) {
            if (json) {
                out.println(Json.line(run));
                continue;
            }
            out.printf(Locale.ROOT, "%-9s %-10s %8.3f s%s%n", run.get("pattern"), ((String) run.get("skew")).isBlank() ? "balanced"
                    : "skew " + run.get("skew"), run.get("seconds"), run.containsKey("vs_balanced")
                    ? String.format(Locale.ROOT, "  %.2fx balanced", (Double) run.get("vs_balanced")) : "");
            @SuppressWarnings("unchecked")
            Map<String, Map<String, Object>> nodes = (Map<String, Map<String, Object>>) run.get("nodes");
            nodes.forEach((node, f) -> out.printf(Locale.ROOT, "    %-6s busy %7.3f s  idle %7.3f s  %,12d rows%n", node,
                    f.get("busy_seconds"), f.get("idle_seconds"), f.get("rows")));
        }
        out.flush();
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
