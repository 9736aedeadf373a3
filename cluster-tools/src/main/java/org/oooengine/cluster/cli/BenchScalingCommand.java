package org.oooengine.cluster.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.oooengine.cluster.bench.ScalingPlot;
import org.oooengine.optimizer.cost.Calibration;
import org.oooengine.optimizer.cost.TableFacts;
import org.oooengine.optimizer.plan.JoinMethod;
import org.oooengine.optimizer.scaling.ScaledCalibration;
import org.oooengine.optimizer.scaling.WeakScalingModel;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code ooo bench scaling}: the weak-scaling model's predictions from a calibration, 1 to 128 nodes. */
@Command(name = "scaling", mixinStandardHelpOptions = true,
        description = {"Predict weak scaling — the same data on every node, 1 to N nodes — of seed 004's joins (OL, PL, "
                + "Q3', Q8') and TPC-H Q1 and Q3 from what 'ooo calibrate --cluster' measured, with the optimizer's "
                + "cost model plus what grows with the node count (see docs/benchmarks/scaling.md). Prints seconds "
                + "and scalability T(1)/T(N) per query and node count."})
final class BenchScalingCommand implements Callable<Integer> {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Spec
    CommandSpec spec;

    @Option(names = "--calibration", required = true, split = ",", paramLabel = "<file or cluster-dir>",
            description = "calibration.json or a calibrated cluster's directory; the first is the model's. More of "
                    + "them, of clusters of other sizes, give the per-node growth of dispatch and job start-ups, and "
                    + "a remote request's cost when the first is of one node (which has none to measure)")
    List<Path> calibrations;

    @Option(names = "--statistics", paramLabel = "<cluster-dir>",
            description = "a TPC-H cluster (running or not) whose nodes' statistics give the tables' sizes "
                    + "(default: the first --calibration that is a cluster directory)")
    Path statistics;

    @Option(names = "--nodes", split = ",", defaultValue = "1,2,4,8,16,32,64,128", paramLabel = "N",
            description = "node counts (default: ${DEFAULT-VALUE})")
    List<Integer> nodes;

    @Option(names = "--sf-per-node", paramLabel = "S", description = "TPC-H scale factor per node (default: 1000, "
            + "about 1 TB per node as seed 004)")
    Double sfPerNode;

    @Option(names = "--rows-per-node", paramLabel = "N", description = "lineitem rows per node instead of --sf-per-node")
    Long rowsPerNode;

    @Option(names = "--selectivity", defaultValue = "0.0001", paramLabel = "<fraction>",
            description = "selectivity of the joins (default: ${DEFAULT-VALUE}, seed 004's scalability figure)")
    double selectivity;

    @Option(names = {"--mode", "--methods"}, defaultValue = "auto", paramLabel = "auto|ooo|inorder|psmj",
            description = "join methods the plans may use: auto (the optimizer's choice), ooo or inorder (index "
                    + "joins only), psmj (sort-merge only, as Hadoop) (default: ${DEFAULT-VALUE})")
    String methods;

    @Option(names = "--local", description = "all nodes on this one host, sharing its cores and device (to compare "
            + "with local clusters); default: one node per host")
    boolean local;

    @Option(names = "--tpch-base", paramLabel = "<json>",
            description = "'ooo bench tpch --json' of Q1 and Q3 on one node: their per-node time (the cost model has "
                    + "no formula for the SQL engine's scans) and the node's CPU time, which nodes sharing a host "
                    + "compete for (--local); without it, Q1 and Q3 are left out")
    Path tpchBase;

    @Option(names = "--tpch-base-sf", paramLabel = "S", description = "scale factor of the --tpch-base run "
            + "(default: that of --statistics)")
    Double tpchBaseSf;

    @Option(names = "--node-cv", defaultValue = "0.05", paramLabel = "CV",
            description = "coefficient of variation of the nodes' times (stragglers) (default: ${DEFAULT-VALUE})")
    double nodeCv;

    @Option(names = "--link-gbps", defaultValue = "10", paramLabel = "G",
            description = "each host's network link in Gbit/s (default: ${DEFAULT-VALUE}, seed 004's 10 GbE)")
    double linkGbps;

    @Option(names = "--results-on-nodes", description = "joins write their rows on the nodes (as seed 004's Hive "
            + "jobs) instead of streaming them to the coordinator (as 'ooo bench join')")
    boolean resultsOnNodes;

    @Option(names = "--row-rate", defaultValue = "0", paramLabel = "R",
            description = "rows per second the coordinator gathers and a node receives in a broadcast or shuffle "
                    + "(default: the calibration's best single-row request rate on one connection)")
    double rowRate;

    @Option(names = "--growth", defaultValue = "network", paramLabel = "network|fit",
            description = "per-node growth of dispatch and job start-ups: network (one request and answer per node at the "
                    + "calibrated request rate, start-ups flat) or fit (slopes over the calibrations' node counts; on "
                    + "one host they include its contention) (default: ${DEFAULT-VALUE})")
    String growth;

    @Option(names = "--json", description = "print one JSON object per query and node count")
    boolean json;

    @Option(names = "--plot", paramLabel = "<file.svg|file.png>", description = "plot scalability against nodes")
    Path plot;

    @Option(names = "--measured", paramLabel = "<validation.json>",
            description = "the validation.json of scaling-validate.sh: its measured scalability at this --selectivity "
                    + "(and of TPC-H) drawn in --plot beside the prediction")
    Path measured;

    @Override
    public Integer call() {
        validate();
        PrintWriter out = spec.commandLine().getOut();
        List<Calibration> cals = calibrations.stream().map(this::readCalibration).toList();
        Calibration base = withRequestCost(cals);
        Path statsDir = statistics != null ? statistics
                : calibrations.stream().filter(Files::isDirectory).findFirst().orElseThrow(() ->
                        new ParameterException(spec.commandLine(), "--statistics: give a TPC-H cluster directory"));
        Map<String, TableFacts> facts = TableFacts.ofStores(storeDirs(statsDir));
        double measuredSf = scaleFactor(statsDir);
        double perNode = sfPerNode != null ? sfPerNode
                : rowsPerNode != null ? rowsPerNode / (facts.get("lineitem").rows() / measuredSf) : 1000;
        ScaledCalibration.Growth slopes = switch (growth) {
            case "fit" -> ScaledCalibration.Growth.fit(cals);
            case "network" -> ScaledCalibration.Growth.fromNetwork(base);
            default -> throw new ParameterException(spec.commandLine(), "--growth must be network or fit, got '" + growth + "'");
        };
        spec.commandLine().getErr().printf(Locale.ROOT, "per-node growth: dispatch %.3g s, job start-up %.3g s, PSMJ stage %.3g s%n",
                slopes.dispatchPerNode(), slopes.jobStartupPerNode(), slopes.stageStartupPerNode());
        WeakScalingModel model = new WeakScalingModel(base, slopes, facts, measuredSf, perNode,
                new WeakScalingModel.Settings(nodeCv, linkGbps * 1e9 / 8, !resultsOnNodes, rowRate));
        Map<String, Map<Integer, Double>> scalability = new LinkedHashMap<>();
        List<WeakScalingModel.Point> all = new ArrayList<>();
        for (String q : WeakScalingModel.JOIN_QUERIES) {
            all.addAll(series(q, n -> model.join(q, selectivity, n, local ? 1 : n, allowed()), scalability));
        }
        if (tpchBase != null) {
            double baseSf = tpchBaseSf != null ? tpchBaseSf : measuredSf;
            Map<Integer, WeakScalingModel.OneNodeRun> measured = tpchRuns(tpchBase, baseSf);
            for (int q : WeakScalingModel.SQL_QUERIES) {
                WeakScalingModel.OneNodeRun run = measured.get(q);
                if (run == null) {
                    throw new ParameterException(spec.commandLine(), "--tpch-base: no time of Q" + q + " in " + tpchBase);
                }
                all.addAll(series("TPC-H Q" + q, n -> model.sql(q, run, n, local ? 1 : n), scalability));
            }
        }
        if (json) {
            for (WeakScalingModel.Point p : all) {
                Map<String, Object> row = new LinkedHashMap<>();
                row.put("query", p.query());
                row.put("nodes", p.nodes());
                row.put("hosts", p.hosts());
                row.put("sf_per_node", perNode);
                row.put("selectivity", p.query().startsWith("TPC-H") ? null : selectivity);
                row.put("seconds", p.seconds());
                row.put("scalability", scalability.get(p.query()).get(p.nodes()) / 100);
                row.put("fixed_seconds", p.fixed());
                row.put("node_work_seconds", p.nodeWork());
                row.put("straggler_seconds", p.stragglers());
                row.put("exchange_seconds", p.exchange());
                row.put("fan_in_seconds", p.fanIn());
                row.put("rows", p.rows());
                row.put("plan", p.plan());
                out.println(Json.line(row));
            }
        } else {
            out.print(table(all, scalability, perNode));
        }
        if (plot != null) {
            ScalingPlot.write(scalability, measured == null ? Map.of() : measuredScalability(measured), !local,
                    String.format(Locale.ROOT, "Weak scaling, TPC-H SF %s per node%s%s", Fmt.sf(perNode),
                            local ? ", nodes on one host" : "", measured == null ? ""
                                    : String.format(Locale.ROOT, ", %s%%: lines model, diamonds measured", selectivity * 100)),
                    plot);
        }
        out.flush();
        return 0;
    }

    private void validate() {
        if (nodes.isEmpty() || nodes.stream().anyMatch(n -> n < 1 || n > 4096)) {
            throw new ParameterException(spec.commandLine(), "--nodes must be between 1 and 4096, got " + nodes);
        }
        if (sfPerNode != null && rowsPerNode != null) {
            throw new ParameterException(spec.commandLine(), "give --sf-per-node or --rows-per-node, not both");
        }
        if ((sfPerNode != null && !(sfPerNode > 0)) || (rowsPerNode != null && rowsPerNode < 1)) {
            throw new ParameterException(spec.commandLine(), "the data per node must be positive");
        }
        if (rowRate < 0 || nodeCv < 0 || !(linkGbps > 0)) {
            throw new ParameterException(spec.commandLine(), "--row-rate and --node-cv cannot be negative, --link-gbps must be positive");
        }
        if (!(selectivity > 0 && selectivity <= 1)) {
            throw new ParameterException(spec.commandLine(), "--selectivity must be in (0, 1], got " + selectivity);
        }
        allowed();
    }

    Set<JoinMethod> allowed() {
        return switch (methods.toLowerCase(Locale.ROOT)) {
            case "auto" -> EnumSet.of(JoinMethod.OOO_PNLJ, JoinMethod.PSMJ);
            case "ooo" -> EnumSet.of(JoinMethod.OOO_PNLJ);
            case "inorder" -> EnumSet.of(JoinMethod.INORDER_PNLJ);
            case "psmj" -> EnumSet.of(JoinMethod.PSMJ);
            default -> throw new ParameterException(spec.commandLine(),
                    "--mode must be auto, ooo, inorder or psmj, got '" + methods + "'");
        };
    }

    private List<WeakScalingModel.Point> series(String name, java.util.function.IntFunction<WeakScalingModel.Point> at,
                                                Map<String, Map<Integer, Double>> scalability) {
        WeakScalingModel.Point one = at.apply(1);
        List<WeakScalingModel.Point> points = new ArrayList<>();
        Map<Integer, Double> s = new LinkedHashMap<>();
        for (int n : nodes.stream().sorted().distinct().toList()) {
            WeakScalingModel.Point p = n == 1 ? one : at.apply(n);
            points.add(p);
            s.put(n, 100 * one.seconds() / p.seconds());
        }
        scalability.put(name, s);
        return points;
    }

    private String table(List<WeakScalingModel.Point> all, Map<String, Map<Integer, Double>> scalability, double perNode) {
        StringBuilder b = new StringBuilder(String.format(Locale.ROOT,
                "Weak scaling at TPC-H SF %s per node, selectivity %s, %s; seconds (scalability T(1)/T(N))%n",
                Fmt.sf(perNode), selectivity, local ? "all nodes on one host" : "one node per host"));
        List<Integer> ns = nodes.stream().sorted().distinct().toList();
        b.append(String.format(Locale.ROOT, "%-10s", "query"));
        ns.forEach(n -> b.append(String.format(Locale.ROOT, " %17s", n + " nodes")));
        b.append(System.lineSeparator());
        for (String q : scalability.keySet()) {
            b.append(String.format(Locale.ROOT, "%-10s", q));
            for (int n : ns) {
                WeakScalingModel.Point p = all.stream().filter(x -> x.query().equals(q) && x.nodes() == n).findFirst().orElseThrow();
                b.append(String.format(Locale.ROOT, " %9.4g (%4.0f%%)", p.seconds(), scalability.get(q).get(n)));
            }
            b.append(System.lineSeparator());
        }
        return b.toString();
    }

    private Calibration readCalibration(Path p) {
        Path f = Files.isDirectory(p) ? Calibration.file(p) : p;
        if (!Files.exists(f)) {
            throw new ParameterException(spec.commandLine(), "--calibration: no " + f + "; run 'ooo calibrate --cluster DIR'");
        }
        try {
            return JSON.readValue(f.toFile(), Calibration.class);
        } catch (IOException e) {
            throw new ParameterException(spec.commandLine(), "--calibration: cannot read " + f + ": " + e.getMessage());
        }
    }

    /**
     * The first calibration; if it is of one node, which sends no remote request, with a remote
     * request's cost from the smallest of the others that has more nodes.
     */
    private static Calibration withRequestCost(List<Calibration> cals) {
        Calibration base = cals.get(0);
        if (base.nodes() > 1) {
            return base;
        }
        return cals.stream().filter(c -> c.nodes() > 1).min(java.util.Comparator.comparingInt(Calibration::nodes))
                .map(other -> {
                    double hostsRatio = ScaledCalibration.hosts(base) / (double) ScaledCalibration.hosts(other);
                    Map<Integer, Double> request = new java.util.TreeMap<>();
                    other.indexJoin().requestMicros().forEach((k, v) -> request.put(k, v / hostsRatio));
                    Calibration.IndexJoin ij = base.indexJoin();
                    return new Calibration(base.measuredAt(), base.nodes(), base.pageSize(), base.bufferPoolPages(),
                            base.disk(), base.network(), new Calibration.IndexJoin(ij.dispatchSeconds(),
                            ij.coldReadsPerSecond(), request, ij.warmRowMicros(), ij.readCpuMicros(), ij.coldCoresBusy()),
                            base.mapReduce());
                }).orElse(base);
    }

    private static List<Path> storeDirs(Path cluster) {
        try (Stream<Path> nodes = Files.list(cluster.resolve("nodes"))) {
            List<Path> out = nodes.map(n -> n.resolve("store")).filter(Files::isDirectory).sorted().toList();
            if (out.isEmpty()) {
                throw new IllegalStateException("no node stores under " + cluster.resolve("nodes"));
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list the nodes of " + cluster + ": " + e.getMessage(), e);
        }
    }

    private static double scaleFactor(Path cluster) {
        try {
            JsonNode m = JSON.readTree(storeDirs(cluster).get(0).resolve("store.json").toFile());
            JsonNode sf = m.path("source").path("scaleFactor");
            if (!sf.isNumber()) {
                throw new IllegalStateException(cluster + " holds no TPC-H data (no scale factor in its manifest)");
            }
            return sf.asDouble();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Median seconds by TPC-H query number from 'ooo bench tpch --json'. */
    /** Measured scalability in percent by node count, per query, of a validation.json at this selectivity (TPC-H at any). */
    private Map<String, Map<Integer, Double>> measuredScalability(Path file) {
        try {
            Map<String, Map<Integer, Double>> out = new LinkedHashMap<>();
            for (JsonNode r : JSON.readTree(file.toFile()).path("rows")) {
                JsonNode sel = r.path("selectivity");
                boolean here = sel.isNull() || sel.isMissingNode() || Math.abs(sel.asDouble() - selectivity) < 1e-12;
                if (here && r.has("measured_scalability")) {
                    Map<Integer, Double> points = out.computeIfAbsent(r.path("query").asText(), q -> new java.util.TreeMap<>());
                    points.put(1, 100.0);
                    points.put(r.path("nodes").asInt(), 100 * r.path("measured_scalability").asDouble());
                }
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    /** Each query's median time of an {@code ooo bench tpch --json} report, with its nodes' CPU time when it has one. */
    static Map<Integer, WeakScalingModel.OneNodeRun> tpchRuns(Path file, double scaleFactor) {
        try {
            JsonNode r = JSON.readTree(file.toFile());
            Map<Integer, WeakScalingModel.OneNodeRun> out = new LinkedHashMap<>();
            for (JsonNode q : r.path("queries")) {
                String name = q.path("query").asText().replaceAll("[^0-9]", "");
                JsonNode median = q.has("median_s") ? q.get("median_s") : q.path("medianS");
                if (!name.isEmpty() && median.isNumber() && median.asDouble() > 0) {
                    out.put(Integer.parseInt(name), new WeakScalingModel.OneNodeRun(median.asDouble(),
                            q.path("node_cpu_s").asDouble(0), r.path("node_cores").asInt(0), scaleFactor));
                }
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    private static final class Fmt {
        static String sf(double sf) {
            return sf == Math.rint(sf) ? String.valueOf((long) sf) : String.valueOf(sf);
        }
    }
}
