package org.oooengine.cluster.cli;

import java.nio.file.Path;
import org.oooengine.core.cluster.ClusterSpec;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

/**
 * {@code --replication} of the loads into a cluster: on how many nodes the loaded tables keep each
 * partition, the cluster's number unless one is asked for (a table the operator can reload rather
 * than lose a node's disk over); any other number is a usage error.
 */
final class LoadCopies {
    static final String DESCRIPTION = "keep each partition of the loaded tables on N nodes: 1, or the cluster's "
            + "replication (the default)";

    private LoadCopies() {
    }

    /** The copies to load with into the cluster of {@code clusterDir}; {@code asked} null: the cluster's. */
    static int of(CommandLine cmd, Path clusterDir, Integer asked) {
        int cluster = ClusterSpec.exists(clusterDir) ? ClusterSpec.read(clusterDir).replication() : 1;
        if (asked == null) {
            return cluster;
        }
        if (asked != 1 && asked != cluster) {
            throw new ParameterException(cmd, "--replication " + asked + ": the cluster in " + clusterDir + " keeps "
                    + cluster + " copies of each partition; a load may keep " + (cluster == 1 ? "1" : "1 or " + cluster));
        }
        return asked;
    }
}
