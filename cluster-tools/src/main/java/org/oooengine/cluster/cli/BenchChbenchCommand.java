package org.oooengine.cluster.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.oooengine.cluster.bench.chbench.ChBench;
import org.oooengine.cluster.bench.chbench.ChPhase;
import org.oooengine.cluster.bench.chbench.ChQueries;
import org.oooengine.core.cluster.HtapConfig;
import org.oooengine.core.cluster.NodeDaemon;
import org.oooengine.hive.engine.ClusterSqlEngine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code ooo bench chbench}: CH-benCHmark, TPC-C and analytical queries over the same rows at once. */
@Command(name = "chbench", mixinStandardHelpOptions = true,
        description = {"Run CH-benCHmark on a running cluster: TPC-C terminals (as 'bench tpcc') and query clients "
                + "running CH-benCHmark's queries through SQL over the same rows at once, in phases of different "
                + "OLTP:OLAP shares. Prints throughput (tps), queries per hour (qph), the analytical copies' freshness "
                + "and lag, and the abort rate, per phase and over the run.",
                "TPC-C is loaded first when the cluster does not hold the warehouses; its tables are entered in SQL "
                        + "as database ch (with item, supplier, nation and region)."})
final class BenchChbenchCommand implements Callable<Integer> {
    /** Static's switching period: the seed's 120 s in 180 s phases, scaled to 45 s ones. */
    private static final Duration SWITCH_EVERY = Duration.ofSeconds(30);

    @Spec
    CommandSpec spec;

    @Option(names = "--cluster", required = true, paramLabel = "<dir>", description = "the running cluster's directory")
    Path cluster;

    @Option(names = "--warehouses", defaultValue = "2", paramLabel = "W", description = "warehouses (default: ${DEFAULT-VALUE})")
    int warehouses;

    @Option(names = "--oltp-clients", defaultValue = "8", paramLabel = "N",
            description = "TPC-C terminals at an OLTP share of 100%%; a phase runs its share of them, rounded up "
                    + "(default: ${DEFAULT-VALUE})")
    int oltpClients;

    @Option(names = "--olap-clients", defaultValue = "2", paramLabel = "M",
            description = "query clients at an OLAP share of 100%%, each running the queries in turn "
                    + "(default: ${DEFAULT-VALUE})")
    int olapClients;

    @Option(names = "--mode", defaultValue = "copies", paramLabel = "copies|unified|static|htal|no-shipping",
            description = "copies: the queries read the nodes' analytical copies, kept in step by log shipping, the "
                    + "nodes' core roles unbounded; unified: the transactional tables in each query's transaction; "
                    + "static: the copies with fixed role slots (--slots), switching every --switch-every (the seed's "
                    + "static baseline); htal: the copies with HTAL's balancer moving the slots; no-shipping: copies "
                    + "never fed (default: ${DEFAULT-VALUE})")
    String mode;

    @Mixin
    HtapModeOptions nodeModes;

    @Option(names = "--phases", defaultValue = "50:50,70:30,30:70", paramLabel = "OLTP:OLAP,...",
            description = "the phases' OLTP:OLAP shares in percent (default: ${DEFAULT-VALUE})")
    String phases;

    @Option(names = "--phase-seconds", defaultValue = "60s", paramLabel = "DURATION", converter = Units.InSeconds.class,
            description = "each phase's length; a plain number is seconds (default: ${DEFAULT-VALUE})")
    double phaseSeconds;

    @Option(names = "--warmup", defaultValue = "5s", paramLabel = "DURATION", converter = Units.InSeconds.class,
            description = "TPC-C alone before the phases, not counted (default: ${DEFAULT-VALUE})")
    double warmup;

    @Option(names = "--queries", defaultValue = "seed", paramLabel = "seed|all|N,...",
            description = "the queries the clients run: seed (Q1, Q6, Q19, as the seed's figures), all 22, or a list "
                    + "(default: ${DEFAULT-VALUE})")
    String queries;

    @Option(names = "--query-timeout", defaultValue = "300s", paramLabel = "DURATION", converter = Units.InSeconds.class,
            description = "a query running longer is cancelled and counted as failed (default: ${DEFAULT-VALUE})")
    double queryTimeout;

    @Option(names = "--reload", description = "drop and load TPC-C anew when the cluster holds another warehouse count")
    boolean reload;

    @Option(names = "--series", paramLabel = "<file>", description = "also write the per-second time series there as JSON")
    Path seriesFile;

    @Option(names = "--json", description = "print one JSON object")
    boolean json;

    @Override
    public Integer call() throws Exception {
        ChBench.Mode chosen;
        try {
            chosen = ChBench.Mode.named(mode);
            // unified reads no copies; copies leaves the roles unbounded and switches every second
            List<String> unused = chosen == ChBench.Mode.UNIFIED ? HtapModeOptions.FLAGS
                    : chosen == ChBench.Mode.COPIES ? HtapModeOptions.ROLE_FLAGS : List.of();
            HtapModeOptions.given(spec.commandLine(), unused).ifPresent(flag -> {
                throw new IllegalArgumentException(flag + " sets the nodes' HTAP mode, which --mode " + mode
                        + " does not use");
            });
            nodeModes.config(HtapConfig.Mode.COPIES, SWITCH_EVERY); // checks the flags before connecting
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        Map<String, Object> r;
        try (ClusterSqlEngine engine = ClusterSqlEngine.open(cluster, NodeDaemon.DEFAULT_TIMEOUT, Map.of());
             org.oooengine.core.cluster.ClusterSession session = org.oooengine.core.cluster.ClusterSession.open(cluster,
                     "chbench", NodeDaemon.DEFAULT_TIMEOUT);
             Progress progress = Progress.of(spec)) {
            HtapConfig nodes = nodeModes.config(HtapConfig.Mode.COPIES, SWITCH_EVERY);
            ChBench.Options options = new ChBench.Options(warehouses, oltpClients, olapClients, chosen,
                    ChPhase.parse(phases), phaseSeconds, warmup, ChQueries.parse(queries),
                    Duration.ofMillis((long) (queryTimeout * 1000)), reload, nodes);
            r = new ChBench(session.peers(), engine, options, progress::note).run();
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        Object series = r.remove("series");
        if (seriesFile != null) {
            writeSeries(series);
        }
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            out.println(Json.line(r));
        } else {
            r.forEach((k, v) -> {
                if (v instanceof List<?> list && k.equals("phases")) {
                    list.forEach(p -> out.printf("%-20s %s%n", "phase", p));
                } else {
                    out.printf("%-20s %s%n", k, v);
                }
            });
        }
        out.flush();
        return Boolean.TRUE.equals(r.get("consistency_ok")) ? ExitCodes.OK : ExitCodes.FAILURE;
    }

    private void writeSeries(Object series) throws IOException {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("mode", mode);
        doc.put("series", series);
        Files.writeString(seriesFile, Json.line(doc) + System.lineSeparator());
    }
}
