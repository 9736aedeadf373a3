package org.oooengine.cluster.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;
import org.oooengine.cluster.bench.tpcc.TpccBench;
import org.oooengine.core.cluster.ClusterSession;
import org.oooengine.core.cluster.NodeDaemon;
import org.oooengine.core.tpcc.TpccCluster;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code ooo bench tpcc}: TPC-C on a running cluster's transactional tables. */
@Command(name = "tpcc", mixinStandardHelpOptions = true,
        description = {"Run TPC-C on the transactional tables of a running cluster and print tpmC, throughput, abort "
                + "rate and latency percentiles, then whether the consistency conditions 1-4 hold.",
                "Warehouses are placed in ranges over the nodes; each transaction goes to its home warehouse's node, "
                        + "which runs it as a stored procedure (remote warehouses at the standard rates, by two-phase "
                        + "commit). The warehouses are loaded first when the cluster does not hold them."})
final class BenchTpccCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--cluster", required = true, paramLabel = "<dir>", description = "the running cluster's directory")
    Path cluster;

    @Option(names = "--warehouses", defaultValue = "4", paramLabel = "W", description = "warehouses (default: ${DEFAULT-VALUE})")
    int warehouses;

    @Option(names = "--clients", defaultValue = "8", paramLabel = "N",
            description = "terminals, without think time (default: ${DEFAULT-VALUE})")
    int clients;

    @Option(names = {"--duration", "--seconds"}, defaultValue = "30s", paramLabel = "DURATION", converter = Units.InSeconds.class,
            description = "measured time, after the warm-up; a plain number is seconds (default: ${DEFAULT-VALUE})")
    double seconds;

    @Option(names = "--warmup", paramLabel = "DURATION", converter = Units.InSeconds.class,
            description = "how long the terminals run before the measured time, not counted; a plain number is seconds "
                    + "(default: a quarter of --duration, at most 5s; more on a freshly started cluster, whose code is "
                    + "not compiled yet)")
    Double warmup;

    @Option(names = "--engine", defaultValue = "ooo", paramLabel = "ooo|rocksdb-pessimistic",
            description = "what keeps the rows on the nodes: the transactional tables (TicToc, a WAL per worker) or "
                    + "RocksDB's TransactionDB (lock-based, its WAL synced as ours), routed alike (default: ${DEFAULT-VALUE})")
    String engine;

    @Option(names = "--reload", description = "drop and load TPC-C anew when the cluster holds another warehouse count")
    boolean reload;

    @Option(names = "--check", description = "only check the consistency conditions of the TPC-C the cluster holds")
    boolean check;

    @Option(names = "--json", description = "print one JSON object")
    boolean json;

    @Override
    public Integer call() throws Exception {
        if (warehouses < 1 || clients < 1 || seconds <= 0) {
            throw new ParameterException(spec.commandLine(), "--warehouses, --clients and --duration must be positive");
        }
        if (warmup != null && !(warmup >= 0 && warmup <= 3600)) {
            throw new ParameterException(spec.commandLine(), "--warmup must be from 0 to 1h");
        }
        double warmUp = warmup != null ? warmup : TpccBench.defaultWarmUp(seconds);
        TpccCluster.Engine kind;
        try {
            kind = TpccCluster.Engine.named(engine);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), "--engine: " + e.getMessage());
        }
        Map<String, Object> r;
        try (ClusterSession session = ClusterSession.open(cluster, "tpcc", NodeDaemon.DEFAULT_TIMEOUT);
             Progress progress = Progress.of(spec)) {
            r = check ? TpccBench.check(session.peers(), kind, warehouses)
                    : TpccBench.run(session.peers(), kind, warehouses, clients, warmUp, seconds, reload, line -> {
                        if (line.startsWith("checking")) {
                            progress.done();
                        }
                        progress.note(line);
                        if (line.startsWith(TpccBench.RUNNING)) {
                            progress.startTimed("TPC-C", Duration.ofMillis((long) ((warmUp + seconds) * 1000)));
                        }
                    });
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            out.println(Json.line(r));
        } else {
            r.forEach((k, v) -> out.printf("%-20s %s%n", k, v));
        }
        out.flush();
        return Boolean.TRUE.equals(r.get("consistency_ok")) ? 0 : 1;
    }
}
