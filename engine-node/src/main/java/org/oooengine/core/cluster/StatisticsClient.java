package org.oooengine.core.cluster;

import static org.oooengine.core.cluster.NodeCalls.await;
import static org.oooengine.core.cluster.NodeCalls.json;

import com.fasterxml.jackson.core.type.TypeReference;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import org.oooengine.core.net.Frame;
import org.oooengine.core.net.NodeClient;
import org.oooengine.core.net.OpCode;
import org.oooengine.core.net.RemoteException;
import org.oooengine.core.stats.StoreStatistics;
import org.oooengine.core.stats.TableStatistics;
import org.oooengine.core.storage.DiskProbe;
import org.oooengine.core.store.TreeReport;
import org.oooengine.core.wire.PayloadWriter;

/**
 * The coordinator's side of what the nodes measure ({@link StatisticsRequests}): their partitions'
 * column statistics, the health of their B+trees, and their disks (calibration).
 */
final class StatisticsClient {
    /** How long a node may scan its partitions to collect statistics anew. */
    private static final Duration ANALYZE_TIMEOUT = Duration.ofMinutes(30);

    private final ClusterSpec spec;
    private final Peers peers;

    StatisticsClient(ClusterSpec spec, Peers peers) {
        this.spec = spec;
        this.peers = peers;
    }

    /**
     * Every node's statistics of its stored tables. Where partitions have copies, a node that does
     * not answer is given the statistics its partitions' copies have on the nodes holding them (each
     * node keeps those of its copies too), so that the planner need not go without them.
     */
    Map<String, StoreStatistics> statistics(boolean analyze) {
        byte[] request = {analyze ? Messages.STATISTICS_ANALYZE : 0};
        // A scan of the whole partition may take longer than a request's usual deadline.
        Function<NodeClient, CompletableFuture<Frame>> ask = client -> client.call(OpCode.TABLE_STATISTICS, request,
                ANALYZE_TIMEOUT);
        TypeReference<StoreStatistics> type = new TypeReference<>() { };
        if (analyze || spec.replication() == 1) {
            return askEveryNode(ask, type, "unreadable statistics");
        }
        Map<String, CompletableFuture<Frame>> answers = new LinkedHashMap<>();
        for (ClusterSpec.NodeSpec n : spec.nodes()) {
            try {
                answers.put(n.id(), ask.apply(peers.client(n.id())));
            } catch (RuntimeException down) {
                answers.put(n.id(), CompletableFuture.failedFuture(down));
            }
        }
        Map<String, StoreStatistics> answered = new LinkedHashMap<>();
        List<String> down = new ArrayList<>();
        answers.forEach((node, answer) -> {
            try {
                answered.put(node, json(node, await(answer), type, "unreadable statistics"));
            } catch (RuntimeException e) {
                if (RemoteException.lostNode(e) == null) {
                    throw e;
                }
                down.add(node);
            }
        });
        Map<String, StoreStatistics> out = new LinkedHashMap<>(answered);
        down.forEach(node -> out.put(node, fromCopies(node, answered)));
        return out;
    }

    /** The statistics of {@code down}'s partitions as the other holders of each keep them, under the table's name. */
    private StoreStatistics fromCopies(String down, Map<String, StoreStatistics> answered) {
        java.util.Set<String> tables = new java.util.TreeSet<>();
        answered.values().forEach(s -> s.tables().keySet().forEach(name -> tables.add(ClusterSpec.tableOf(name))));
        Map<String, TableStatistics> copied = new LinkedHashMap<>();
        for (String table : tables) {
            int partition = spec.owners(table).indexOf(down);
            for (String holder : partition < 0 ? List.<String>of() : spec.holders(table, partition)) {
                StoreStatistics at = answered.get(holder);
                TableStatistics t = at == null ? null : at.tables().get(spec.storedName(table, partition, holder));
                if (t != null) {
                    copied.put(table, new TableStatistics(table, t.rows(), t.bytes(), t.columns(), t.indexBytes()));
                    break;
                }
            }
        }
        return new StoreStatistics(java.time.Instant.now().toString(), 0, copied);
    }

    /** Every node's statistics of {@code table} collected anew, its other tables' as they were kept. */
    Map<String, StoreStatistics> analyze(String table) {
        byte[] request = new PayloadWriter(64).put(Messages.STATISTICS_ANALYZE).putString(table).toByteArray();
        return askEveryNode(client -> client.call(OpCode.TABLE_STATISTICS, request, ANALYZE_TIMEOUT),
                new TypeReference<StoreStatistics>() { }, "unreadable statistics");
    }

    Map<String, List<TreeReport>> treeHealth(Optional<String> table, boolean patient) {
        byte[] request = table.map(t -> new PayloadWriter(64).putString(t).toByteArray()).orElse(new byte[0]);
        return askEveryNode(client -> patient ? client.call(OpCode.TREE_HEALTH, request, ANALYZE_TIMEOUT)
                : client.call(OpCode.TREE_HEALTH, request),
                new TypeReference<List<TreeReport>>() { }, "an unreadable tree health report");
    }

    /** Asks every node at once, then reads each one's JSON answer, by node. */
    private <T> Map<String, T> askEveryNode(Function<NodeClient, CompletableFuture<Frame>> ask, TypeReference<T> type,
                                            String unreadable) {
        Map<String, CompletableFuture<Frame>> answers = new LinkedHashMap<>();
        for (ClusterSpec.NodeSpec n : spec.nodes()) {
            answers.put(n.id(), ask.apply(peers.client(n.id())));
        }
        Map<String, T> out = new LinkedHashMap<>();
        answers.forEach((node, answer) -> out.put(node, json(node, await(answer), type, unreadable)));
        return out;
    }

    DiskProbe.Result calibrateDisk(String node, long fileBytes, Duration perTest, int pageSize) {
        byte[] request = new PayloadWriter(20).putLong(fileBytes).putLong(perTest.toNanos()).putInt(pageSize).toByteArray();
        // writing the file at a slow disk's pace, then one test per queue depth and one sequential
        Duration deadline = Duration.ofMinutes(5).plus(perTest.multipliedBy(4L * (1 + DiskProbe.QUEUE_DEPTHS.length)));
        Frame answer = await(peers.client(node).call(OpCode.CALIBRATE_DISK, request, deadline));
        return json(node, answer, new TypeReference<DiskProbe.Result>() { }, "an unreadable disk calibration");
    }
}
