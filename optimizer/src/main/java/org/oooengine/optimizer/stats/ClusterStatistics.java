package org.oooengine.optimizer.stats;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.oooengine.core.cluster.ClusterSession;
import org.oooengine.core.stats.StatisticsCollector;
import org.oooengine.core.stats.StoreStatistics;
import org.oooengine.core.stats.TableStatistics;
import org.oooengine.core.store.StoreManifest;
import org.oooengine.core.types.DataType;

/** The statistics of a cluster's tables: every node's partition statistics, merged per table. */
public final class ClusterStatistics {
    private ClusterStatistics() {
    }

    /** Per table, merged over the nodes; {@code analyze} has every node collect its partitions' anew first. */
    public static Map<String, TableStatistics> collect(ClusterSession session, boolean analyze) {
        Map<String, StoreStatistics> byNode = session.statistics(analyze);
        return merge(session.wholeManifest(), byNode);
    }

    /**
     * Per table of {@code manifest}, the partitions' statistics of every node merged; a table some
     * node kept no statistics of is left out (its layout changed since they were collected).
     */
    public static Map<String, TableStatistics> merge(StoreManifest manifest, Map<String, StoreStatistics> byNode) {
        Map<String, TableStatistics> out = new LinkedHashMap<>();
        for (StoreManifest.TableMeta t : manifest.tables()) {
            List<TableStatistics> partitions = new ArrayList<>();
            byNode.values().stream().map(s -> s.tables().get(t.name())).forEach(partitions::add);
            if (partitions.contains(null)) {
                continue;
            }
            List<DataType> types = t.columns().stream().map(c -> DataType.parse(c.type())).toList();
            out.put(t.name(), TableStatisticsMerger.merge(partitions, types, StatisticsCollector.DEFAULT_BUCKETS));
        }
        return out;
    }
}
