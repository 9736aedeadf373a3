package org.oooengine.cluster.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.oooengine.cluster.bench.FetchBench;
import org.oooengine.cluster.bench.FetchPlot;
import org.oooengine.core.cluster.ClusterSession;
import org.oooengine.core.cluster.NodeDaemon;
import org.oooengine.core.net.NodeClient;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code ooo bench fetch}: requests/s and latency against requests in flight over one connection. */
@Command(name = "fetch", mixinStandardHelpOptions = true,
        description = {"Remote-fetch micro-benchmark: keep N single-row fetches by primary key in flight to one node "
                + "over one connection, for each N, and report requests/s and latency percentiles.",
                "The rows are a random sample of the node's keys, warmed into its buffer pool: this measures the "
                        + "network path, not the disk. Progress goes to stderr, the result to stdout."})
final class BenchFetchCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--cluster", required = true, paramLabel = "<cluster-dir>", description = "a running, loaded cluster")
    Path cluster;

    @Option(names = "--node", paramLabel = "<id>", description = "node to fetch from (default: the first)")
    String node;

    @Option(names = "--table", defaultValue = "orders", paramLabel = "<table>", description = "table whose rows are fetched (default: ${DEFAULT-VALUE})")
    String table;

    @Option(names = "--in-flight", split = ",", defaultValue = "1,2,4,8,16,32,64,128,256,512,1024", paramLabel = "<counts>",
            description = "comma-separated requests in flight (default: ${DEFAULT-VALUE})")
    List<Integer> inFlight;

    @Option(names = {"--duration", "--seconds"}, defaultValue = "3s", paramLabel = "DURATION", converter = Units.InSeconds.class,
            description = "measured time per count, after a warm-up of a quarter of that, at most 1 s; a plain number is "
                    + "seconds (default: ${DEFAULT-VALUE})")
    double seconds;

    @Option(names = "--keys", defaultValue = "" + FetchBench.DEFAULT_KEYS, paramLabel = "N",
            description = "keys sampled from the node (default: ${DEFAULT-VALUE})")
    int keys;

    @Option(names = "--json", description = "print the result as one JSON object")
    boolean json;

    @Option(names = "--plot", paramLabel = "<file.png>", description = "write requests/s and p50/p99 latency against requests in flight")
    Path plot;

    @Override
    public Integer call() throws InterruptedException {
        for (int n : inFlight) {
            if (n < 1 || n > NodeClient.MAX_OUTSTANDING) {
                throw new ParameterException(spec.commandLine(), "--in-flight counts must be within 1.."
                        + NodeClient.MAX_OUTSTANDING + ", got " + n);
            }
        }
        if (seconds <= 0 || keys < 1) {
            throw new ParameterException(spec.commandLine(), "--duration and --keys must be positive");
        }
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        try (ClusterSession s = ClusterSession.open(cluster, "bench", NodeDaemon.DEFAULT_TIMEOUT)) {
            String target = node != null ? s.spec().node(node).id() : s.spec().nodes().get(0).id();
            FetchBench bench = new FetchBench(s, target, table, keys);
            // The table streams to stdout level by level; with --json, progress goes to stderr instead.
            PrintWriter progress = json ? err : out;
            progress.printf("fetching %s rows from %s at %s (%,d keys)%n", table, target, bench.dial(), keys);
            progress.printf("%9s %12s %10s %10s %10s %10s %12s%n", "in flight", "requests/s", "p50 µs", "p90 µs",
                    "p99 µs", "p99.9 µs", "req/frame");
            FetchBench.Result r = bench.run(inFlight.stream().mapToInt(Integer::intValue).toArray(), seconds, l -> {
                progress.println(line(l));
                progress.flush();
            });
            if (json) {
                out.println(Json.line(r));
            }
            if (plot != null) {
                FetchPlot.write(r, "single-row fetches from " + r.node() + " over one connection", plot);
            }
        }
        out.flush();
        return 0;
    }

    private static String line(FetchBench.Level l) {
        return String.format(Locale.ROOT, "%9d %,12.0f %10.0f %10.0f %10.0f %10.0f %12.1f", l.inFlight(),
                l.requestsPerSecond(), l.p50Us(), l.p90Us(), l.p99Us(), l.p999Us(), l.requestsPerFrame());
    }
}
