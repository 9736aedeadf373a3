package org.oooengine.optimizer.snapshot;

import java.util.Map;
import java.util.Optional;
import org.oooengine.core.cluster.ClusterManifest;
import org.oooengine.core.cluster.ClusterSpec;
import org.oooengine.optimizer.cost.Calibration;
import org.oooengine.optimizer.cost.TableFacts;

/**
 * Everything planning knows of the cluster, taken at one moment: which node owns what
 * ({@code spec}), the tables as the nodes' manifests list them ({@code manifest}, naming the
 * nodes that did not answer), the statistics of the tables every node kept them for
 * ({@code facts}, by table; unmodifiable, and the same map while they do not change) and the cluster's calibration, if it has one. Planning and EXPLAIN
 * read only this: they ask the nodes nothing.
 */
public record ClusterSnapshot(ClusterSpec spec, ClusterManifest manifest, Map<String, TableFacts> facts,
                              Optional<Calibration> calibration) {

    /** The statistics of table {@code name} (as the nodes store it), when every node kept them. */
    public Optional<TableFacts> facts(String name) {
        return Optional.ofNullable(facts.get(name));
    }
}
