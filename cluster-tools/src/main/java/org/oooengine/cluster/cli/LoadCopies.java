package org.oooengine.cluster.cli;

import java.nio.file.Path;
import org.oooengine.core.cluster.ClusterLoader;
import org.oooengine.core.cluster.ClusterSpec;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

/**
 * {@code --replication} of the loads into a cluster: on how many nodes the loaded tables keep each
 * partition, the cluster's number unless another is asked for: 1 for a table the operator would
 * rather reload than keep twice, more for a small table every node should read nearby; a number
 * the cluster cannot keep is a usage error.
 */
final class LoadCopies {
    static final String DESCRIPTION = "keep each partition of the loaded tables on N nodes, from 1 to the number "
            + "of nodes (default: the cluster's replication)";

    private LoadCopies() {
    }

    /** The copies to load with into the cluster of {@code clusterDir}; {@code asked} null: the cluster's. */
    static int of(CommandLine cmd, Path clusterDir, Integer asked) {
        if (!ClusterSpec.exists(clusterDir)) {
            return 1; // the load names the missing cluster
        }
        ClusterSpec spec = ClusterSpec.read(clusterDir);
        if (asked == null) {
            return spec.replication();
        }
        String refused = ClusterLoader.copiesAllowed(spec, asked);
        if (refused != null) {
            throw new ParameterException(cmd, "--replication " + asked + ": " + refused);
        }
        return asked;
    }
}
