package org.oooengine.core.cluster;

import static org.oooengine.core.cluster.NodeCalls.await;
import static org.oooengine.core.cluster.NodeCalls.json;

import com.fasterxml.jackson.core.type.TypeReference;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import org.oooengine.core.net.Frame;
import org.oooengine.core.net.NodeClient;
import org.oooengine.core.net.OpCode;
import org.oooengine.core.stats.StoreStatistics;
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

    Map<String, StoreStatistics> statistics(boolean analyze) {
        byte[] request = {analyze ? Messages.STATISTICS_ANALYZE : 0};
        // A scan of the whole partition may take longer than a request's usual deadline.
        return askEveryNode(client -> client.call(OpCode.TABLE_STATISTICS, request, ANALYZE_TIMEOUT),
                new TypeReference<StoreStatistics>() { }, "unreadable statistics");
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
