package org.oooengine.cluster.cli;

import java.nio.file.Path;
import org.oooengine.cluster.bench.BenchSettings;
import org.oooengine.cluster.bench.ClusterJoinBench;
import org.oooengine.cluster.bench.JoinBench;
import org.oooengine.cluster.bench.JoinRunner;
import org.oooengine.core.store.StoreOptions;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/** The options {@code bench join} and {@code bench sweep} share. */
final class BenchOptions {
    @Option(names = {"--store", "--dir"}, paramLabel = "<store-dir>", description = "single-node store directory (create one with 'ooo load tpch')")
    Path dir;

    @Option(names = "--cluster", paramLabel = "<cluster-dir>",
            description = "run on the running cluster of this directory instead (see 'ooo cluster start')")
    Path cluster;

    @Option(names = "--query", required = true, paramLabel = "OL|PL|Q3|Q8",
            description = "OL: orders join lineitem on orderkey; PL: part join lineitem on partkey; "
                    + "Q3: customer join orders join lineitem; Q8: part, lineitem, orders, customer, nation, region, "
                    + "supplier and nation again (Q3 and Q8 with --cluster)")
    QueryName query;

    @Option(names = "--cold", description = "measure the disk: direct I/O and a small buffer pool ("
            + BenchSettings.COLD_BUFFER_POOL_MB + " MiB unless --buffer-pool), emptied before every timed run; "
            + "either way one untimed run comes first, so the code is compiled")
    boolean cold;

    @Option(names = {"--in-flight", "--inflight"}, defaultValue = "" + BenchSettings.DEFAULT_INFLIGHT, paramLabel = "N",
            description = "tasks (and so I/Os) in flight in ooo mode (default: ${DEFAULT-VALUE})")
    int inflight;

    @Option(names = {"--buffer-pool", "--buffer-pool-mb"}, paramLabel = "SIZE", converter = Units.MiB.class,
            description = "buffer pool size, whole MiB; a plain number is MiB (default: " + BenchSettings.COLD_BUFFER_POOL_MB
                    + "m with --cold, " + (StoreOptions.DEFAULT_BUFFER_POOL_BYTES >> 20) + "m without)")
    Long bufferPool;

    @Option(names = "--repeat", defaultValue = "1", paramLabel = "R", description = "timed runs per measurement, "
            + "five times as many for runs under 0.2 s on a cluster; tables show the median (default: ${DEFAULT-VALUE})")
    int repeat;

    /** The single-node store or the cluster the options name. */
    JoinRunner open(CommandSpec spec) {
        if ((dir == null) == (cluster == null)) {
            throw new ParameterException(spec.commandLine(), "give exactly one of --store and --cluster");
        }
        BenchSettings settings = settings(spec);
        return cluster != null ? new ClusterJoinBench(cluster, settings) : new JoinBench(dir, settings);
    }

    BenchSettings settings(CommandSpec spec) {
        try {
            return new BenchSettings(cold, inflight, bufferPool == null ? null : (int) Math.min(Integer.MAX_VALUE, bufferPool >> 20),
                    repeat);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
    }
}
