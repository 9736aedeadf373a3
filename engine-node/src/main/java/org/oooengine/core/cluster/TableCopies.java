package org.oooengine.core.cluster;

import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * How many nodes keep each partition of a table, as the names the nodes store tell: a load or
 * CREATE TABLE may keep a table on fewer or more nodes than the cluster's replication, and nothing
 * but the data records it, so the number cannot go stale beside it. A table's copies are the
 * fewest nodes per partition that the names fit ({@link ClusterSpec#holders(String, int, int)}):
 * every node storing a partition is among its holders, and every holder that does not is a node
 * that stores nothing of the table at all (it lost its data, or has not been heard from yet),
 * never one that stores other partitions of it. Where none fits (a node lacks one copy beside
 * others it holds), the most nodes any partition is on.
 */
final class TableCopies {
    private TableCopies() {
    }

    /** Per table any of {@code stored} (node -> the names it stores) holds, its number of copies. */
    static Map<String, Integer> of(ClusterSpec spec, Map<String, ? extends Collection<String>> stored) {
        Map<String, Map<Integer, Set<String>>> storing = new HashMap<>();
        stored.forEach((node, names) -> {
            for (String name : names) {
                String table = ClusterSpec.tableOf(name);
                int partition = ClusterSpec.isReplicaName(name) ? ClusterSpec.partitionOf(name)
                        : spec.owners(table).indexOf(node);
                if (partition >= 0) {
                    storing.computeIfAbsent(table, t -> new HashMap<>()).computeIfAbsent(partition, p -> new HashSet<>())
                            .add(node);
                }
            }
        });
        Map<String, Integer> copies = new HashMap<>();
        storing.forEach((table, byPartition) -> {
            Set<String> some = new HashSet<>();
            byPartition.values().forEach(some::addAll);
            Set<String> none = new HashSet<>();
            spec.nodes().forEach(n -> none.add(n.id())); // a node not heard from yet may hold it too
            none.removeAll(some);
            copies.put(table, fitting(spec, table, byPartition, none));
        });
        return copies;
    }

    /** The fewest copies whose holders fit who stores each partition of {@code table}, {@code none} storing nothing of it. */
    private static int fitting(ClusterSpec spec, String table, Map<Integer, Set<String>> storing, Set<String> none) {
        int most = storing.values().stream().mapToInt(Set::size).max().orElse(0);
        int partitions = spec.owners(table).size();
        for (int n = Math.max(1, most); n <= partitions; n++) {
            if (fits(spec, table, n, storing, none)) {
                return n;
            }
        }
        return Math.max(1, most); // some node lacks a copy of a partition beside others it holds: the most held
    }

    private static boolean fits(ClusterSpec spec, String table, int copies, Map<Integer, Set<String>> storing,
                                Set<String> none) {
        for (int p = 0; p < spec.owners(table).size(); p++) {
            List<String> holders = spec.holders(table, p, copies);
            Set<String> at = storing.getOrDefault(p, Set.of());
            if (!holders.containsAll(at)) {
                return false;
            }
            for (String h : holders) {
                if (!at.contains(h) && !none.contains(h)) {
                    return false;
                }
            }
        }
        return true;
    }
}
