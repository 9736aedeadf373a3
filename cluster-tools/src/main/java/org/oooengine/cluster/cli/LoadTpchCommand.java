package org.oooengine.cluster.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.oooengine.core.storage.PageFormat;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code ooo load tpch}: generates TPC-H straight into a store. */
@Command(name = "tpch", mixinStandardHelpOptions = true,
        description = {"Generate TPC-H into a store directory, with progress on stderr.",
                "A directory that is not empty is refused unless --replace is given.",
                "With --cluster, each table is hash-partitioned by its primary key over the running cluster's nodes; "
                        + "the nodes replace their data when the load commits."})
final class LoadTpchCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--sf", required = true, paramLabel = "<scale>", description = "TPC-H scale factor (1 is about 1 GB of raw data)")
    double scaleFactor;

    @Option(names = {"--store", "--dir"}, paramLabel = "<store-dir>", description = "directory to create a single-node store in")
    Path dir;

    @Option(names = "--cluster", paramLabel = "<cluster-dir>",
            description = "load into the running cluster of this directory instead: rows are hash-partitioned over its nodes")
    Path cluster;

    @Option(names = "--page-size", defaultValue = "8k", paramLabel = "SIZE", converter = Units.Bytes.class,
            description = "page size, e.g. 8k; a plain number is bytes (default: ${DEFAULT-VALUE})")
    long pageSize;

    @Option(names = "--fill-factor", defaultValue = "1.0", paramLabel = "<fraction>",
            description = "how full bulk-loaded pages are, in (0.1, 1] (default: ${DEFAULT-VALUE})")
    double fillFactor;

    @Option(names = "--replace", description = "delete whatever the directory holds first")
    boolean replace;

    @Option(names = "--replication", paramLabel = "N", description = "with --cluster: " + LoadCopies.DESCRIPTION)
    Integer replication;

    @Override
    public Integer call() throws Exception {
        // Checked before loading: the loader only notices after --replace has emptied the directory.
        try {
            PageFormat.checkPageSize((int) Math.min(Integer.MAX_VALUE, pageSize));
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        if (!(fillFactor > 0.1 && fillFactor <= 1.0)) {
            throw new ParameterException(spec.commandLine(), "--fill-factor must be in (0.1, 1], got " + fillFactor);
        }
        if ((dir == null) == (cluster == null)) {
            throw new ParameterException(spec.commandLine(), "give exactly one of --store and --cluster");
        }
        if (replication != null && cluster == null) {
            throw new ParameterException(spec.commandLine(), "--replication is for a load into a cluster (--cluster)");
        }
        if (cluster != null) {
            TpchLoad.runOnCluster(spec.commandLine(), scaleFactor, cluster, (int) pageSize, fillFactor,
                    LoadCopies.of(spec.commandLine(), cluster, replication));
        } else {
            TpchLoad.run(spec.commandLine(), scaleFactor, dir, (int) pageSize, fillFactor, replace);
        }
        return 0;
    }
}
