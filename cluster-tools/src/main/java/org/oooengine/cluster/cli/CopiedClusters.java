package org.oooengine.cluster.cli;

import java.nio.file.Path;
import org.oooengine.core.cluster.ClusterSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/** What the benchmarks of copies of partitions (failover, hedge) check of their cluster before they connect. */
final class CopiedClusters {
    private CopiedClusters() {
    }

    /**
     * The cluster in {@code dir}, refused as a usage error unless it keeps each partition on two
     * nodes or more; {@code withOne} says what one copy would leave the benchmark.
     */
    static ClusterSpec read(CommandSpec command, Path dir, String withOne) {
        ClusterSpec spec = ClusterSpec.read(dir);
        if (spec.replication() < 2) {
            throw new ParameterException(command.commandLine(), "the cluster in " + dir + " keeps each partition on one "
                    + "node: " + withOne + "; make one with 'ooo cluster start --replication 2'");
        }
        return spec;
    }

    /** {@code given}, or else the cluster's node at {@code defaultIndex}; a name the cluster lacks is a usage error. */
    static String node(CommandSpec command, ClusterSpec spec, String given, int defaultIndex) {
        String id = given != null ? given : spec.nodes().get(Math.min(defaultIndex, spec.nodes().size() - 1)).id();
        if (spec.nodes().stream().noneMatch(n -> n.id().equals(id))) {
            throw new ParameterException(command.commandLine(), "--node " + id + " is not a node of the cluster");
        }
        return id;
    }
}
