package org.oooengine.hive.engine;

import java.util.OptionalLong;
import org.oooengine.core.cluster.ClusterException;
import org.oooengine.core.cluster.ClusterSession;
import org.oooengine.hive.catalog.TableInfo;
import org.oooengine.hive.files.FileTableReader;
import org.oooengine.hive.sql.plan.TableLayouts;

/** The cluster's tables as the catalog's last round of the nodes' manifests described them. */
final class ClusterTableLayouts implements TableLayouts {
    private final ClusterSession cluster;

    ClusterTableLayouts(ClusterSession cluster) {
        this.cluster = cluster;
    }

    @Override
    public OptionalLong rows(TableInfo table) {
        if (FileTableReader.holds(table)) {
            return OptionalLong.empty();
        }
        try {
            return cluster.tables().table(table.storage()).map(t -> OptionalLong.of(t.meta().rows())).orElse(OptionalLong.empty());
        } catch (ClusterException layoutsDiffer) {
            return OptionalLong.empty(); // the scan names the problem
        }
    }

    @Override
    public boolean partitionedAlike(TableInfo a, TableInfo b) {
        return rows(a).isPresent() && rows(b).isPresent() && !a.primaryKey().isEmpty() && !b.primaryKey().isEmpty()
                && cluster.spec().owners(a.storage()).equals(cluster.spec().owners(b.storage()));
    }
}
