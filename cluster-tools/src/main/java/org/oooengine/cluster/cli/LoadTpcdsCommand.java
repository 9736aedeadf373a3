package org.oooengine.cluster.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.oooengine.core.storage.PageFormat;
import org.oooengine.core.tpcds.TpcdsGenerator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code ooo load tpcds}: generates the 24 TPC-DS tables straight into a running cluster. */
@Command(name = "tpcds", mixinStandardHelpOptions = true,
        description = {"Generate the 24 TPC-DS tables (io.trino.tpcds, the Java port of dsdgen) into the running "
                + "cluster of --cluster, with progress on stderr.",
                "Each table is hash-partitioned by its primary key over the nodes (a dimension's surrogate key; "
                        + "(order or ticket number, item) of sales and returns; (date, item, warehouse) of inventory); "
                        + "no secondary indexes (the engine indexes no NULL keys). The load replaces these 24 tables on every node "
                        + "or on none when it commits, and keeps the nodes' other tables."})
final class LoadTpcdsCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--sf", required = true, paramLabel = "<scale>",
            description = "TPC-DS scale factor (1 is about 1 GB of raw data; at least " + TpcdsGenerator.MIN_SCALE_FACTOR + ")")
    double scaleFactor;

    @Option(names = "--cluster", required = true, paramLabel = "<cluster-dir>", description = "the running cluster to load")
    Path cluster;

    @Option(names = "--page-size", defaultValue = "8k", paramLabel = "SIZE", converter = Units.Bytes.class,
            description = "page size, e.g. 8k; a plain number is bytes (default: ${DEFAULT-VALUE})")
    long pageSize;

    @Option(names = "--fill-factor", defaultValue = "1.0", paramLabel = "<fraction>",
            description = "how full bulk-loaded pages are, in (0.1, 1] (default: ${DEFAULT-VALUE})")
    double fillFactor;

    @Option(names = "--replication", paramLabel = "N", description = LoadCopies.DESCRIPTION)
    Integer replication;

    @Override
    public Integer call() throws Exception {
        try {
            PageFormat.checkPageSize((int) Math.min(Integer.MAX_VALUE, pageSize));
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        if (!(fillFactor > 0.1 && fillFactor <= 1.0)) {
            throw new ParameterException(spec.commandLine(), "--fill-factor must be in (0.1, 1], got " + fillFactor);
        }
        if (!(scaleFactor >= TpcdsGenerator.MIN_SCALE_FACTOR)) {
            throw new ParameterException(spec.commandLine(), "--sf must be at least " + TpcdsGenerator.MIN_SCALE_FACTOR
                    + ", got " + scaleFactor);
        }
        int copies = LoadCopies.of(spec.commandLine(), cluster, replication);
        TpcdsLoad.runOnCluster(spec.commandLine(), new TpcdsGenerator(scaleFactor), cluster, (int) pageSize, fillFactor,
                copies);
        return ExitCodes.OK;
    }
}
