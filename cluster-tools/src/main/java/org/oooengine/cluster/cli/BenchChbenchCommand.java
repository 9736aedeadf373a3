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
import org.oooengine.cluster.bench.chbench.ChNodeSettings;
import org.oooengine.cluster.bench.chbench.ChPhase;
import org.oooengine.cluster.bench.chbench.ChQueries;
import org.oooengine.core.cluster.HtapConfig;
import org.oooengine.core.cluster.NodeDaemon;
import org.oooengine.core.htap.CoreRoles;
import org.oooengine.core.htap.HtalPolicy;
import org.oooengine.hive.engine.ClusterSqlEngine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
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
    @Spec
    CommandSpec spec;

    @Option(names = "--cluster", required = true, paramLabel = "<dir>", description = "the running cluster's directory")
    Path cluster;

    @Option(names = "--warehouses", defaultValue = "2", paramLabel = "W", description = "warehouses (default: ${DEFAULT-VALUE})")
    int warehouses;

    @Option(names = "--oltp-clients", defaultValue = "8", paramLabel = "N",
            description = "TPC-C terminals at an OLTP share of 100%; a phase runs its share of them, rounded up "
                    + "(default: ${DEFAULT-VALUE})")
    int oltpClients;

    @Option(names = "--olap-clients", defaultValue = "2", paramLabel = "M",
            description = "query clients at an OLAP share of 100%, each running the queries in turn "
                    + "(default: ${DEFAULT-VALUE})")
    int olapClients;

    @Option(names = "--mode", defaultValue = "copies", paramLabel = "copies|unified|static|htal|no-shipping",
            description = "copies: the queries read the nodes' analytical copies, kept in step by log shipping, the "
                    + "nodes' core roles unbounded; unified: the transactional tables in each query's transaction; "
                    + "static: the copies with fixed role slots (--slots), switching every --switch-every (the seed's "
                    + "static baseline); htal: the copies with HTAL's balancer moving the slots; no-shipping: copies "
                    + "never fed (default: ${DEFAULT-VALUE})")
    String mode;

    @Option(names = "--slots", defaultValue = "oltp=3,olap=3,log-shipping=1,dispatch=1", paramLabel = "ROLE=N,...",
            description = "each node's core-role slots to start with, for static, htal and no-shipping: the seed's "
                    + "96-core split scaled to 8 (default: ${DEFAULT-VALUE})")
    String slots;

    @Option(names = "--cores-per-node", paramLabel = "N",
            description = "the cores each node's roles share out, each role its slots' share (default: this "
                    + "machine's cores over the cluster's nodes, as when they all run here)")
    Double coresPerNode;

    @Option(names = "--switch-every", defaultValue = "30s", paramLabel = "DURATION", converter = Units.InSeconds.class,
            description = "how often static switches the copies: the seed's 120 s in 180 s phases, scaled to 45 s "
                    + "phases (default: ${DEFAULT-VALUE})")
    double switchEvery;

    @Option(names = "--htal", defaultValue = "", paramLabel = "NAME=VALUE,...",
            description = "HTAL's thresholds alpha, beta, gamma, delta, epsilon, zeta; those not given keep the seed's "
                    + "2, 0.85, 0.6, 8, 0.8, 0.1")
    String htal;

    @Option(names = "--balance-every", defaultValue = "1s", paramLabel = "DURATION", converter = Units.InSeconds.class,
            description = "how often HTAL's balancer decides on each node (default: ${DEFAULT-VALUE})")
    double balanceEvery;

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
        Map<CoreRoles.Role, Integer> roleSlots;
        HtalPolicy.Parameters thresholds;
        try {
            chosen = ChBench.Mode.named(mode);
            roleSlots = ChNodeSettings.slots(slots);
            thresholds = ChNodeSettings.parameters(htal);
            new CoreRoles(roleSlots); // every role at least one slot
            if (coresPerNode != null && coresPerNode <= 0) {
                throw new IllegalArgumentException("--cores-per-node must be positive, not " + coresPerNode);
            }
            if (switchEvery <= 0 || balanceEvery <= 0) {
                throw new IllegalArgumentException("--switch-every and --balance-every must be positive");
            }
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        Map<String, Object> r;
        try (ClusterSqlEngine engine = ClusterSqlEngine.open(cluster, NodeDaemon.DEFAULT_TIMEOUT, Map.of());
             org.oooengine.core.cluster.ClusterSession session = org.oooengine.core.cluster.ClusterSession.open(cluster,
                     "chbench", NodeDaemon.DEFAULT_TIMEOUT);
             Progress progress = Progress.of(spec)) {
            double cores = coresPerNode != null ? coresPerNode
                    : Runtime.getRuntime().availableProcessors() / (double) session.peers().spec().nodes().size();
            HtapConfig nodes = new HtapConfig(HtapConfig.Mode.COPIES, roleSlots, cores,
                    Duration.ofMillis((long) (switchEvery * 1000)), thresholds, Duration.ofMillis((long) (balanceEvery * 1000)));
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
