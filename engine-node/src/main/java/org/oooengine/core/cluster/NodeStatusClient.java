package org.oooengine.core.cluster;

import static org.oooengine.core.cluster.NodeCalls.JSON;
import static org.oooengine.core.cluster.NodeCalls.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import org.oooengine.core.net.Frame;
import org.oooengine.core.net.NodeClient;
import org.oooengine.core.net.OpCode;
import org.oooengine.core.store.StoreManifest;

/**
 * The coordinator's side of the nodes' status ({@link NodeStatusRequests}): each node's health and
 * tables, its store's manifest, whether a lost node ran out of memory, and emptying the buffer pools.
 */
final class NodeStatusClient {
    private final ClusterSpec spec;
    private final Peers peers;
    /** Opens connections anew off the caller's thread, so that one slow node does not hold up asking the others. */
    private final ExecutorService connector;

    NodeStatusClient(ClusterSpec spec, Peers peers, ExecutorService connector) {
        this.spec = spec;
        this.peers = peers;
        this.connector = connector;
    }

    Map<String, JsonNode> stats() {
        Map<String, JsonNode> out = new LinkedHashMap<>();
        for (ClusterSpec.NodeSpec n : spec.nodes()) {
            out.put(n.id(), stats(n.id()));
        }
        return out;
    }

    private JsonNode stats(String node) {
        Frame f = await(peers.client(node).call(OpCode.PARTITION_STATS, new byte[0]));
        try {
            return JSON.readTree(f.payload());
        } catch (Exception e) {
            throw new IllegalStateException("node " + node + " sent unreadable statistics", e);
        }
    }

    Optional<JsonNode> statsWithin(String node, Duration within) {
        CompletableFuture<JsonNode> answer = statsAsync(node, within);
        try {
            return Optional.of(answer.get(within.toNanos(), TimeUnit.NANOSECONDS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            return Optional.empty();
        }
    }

    LostNodes lostNodes(Duration wait) {
        return new LostNodes(this::statsWithin, spec.nodes().stream().map(ClusterSpec.NodeSpec::id).toList(), wait);
    }

    /** A node's statistics, connecting first (off this thread) when its connection is closed. */
    CompletableFuture<JsonNode> statsAsync(String node, Duration timeout) {
        NodeClient open = peers.connected(node);
        CompletableFuture<NodeClient> client = open != null ? CompletableFuture.completedFuture(open)
                : CompletableFuture.supplyAsync(() -> peers.client(node), connector);
        return client.thenCompose(c -> c.call(OpCode.PARTITION_STATS, new byte[0], timeout)).thenApply(f -> {
            try {
                return JSON.readTree(f.payload());
            } catch (Exception e) {
                throw new IllegalStateException("sent unreadable statistics", e);
            }
        });
    }

    StoreManifest manifest(String node) {
        JsonNode m = stats(node).get("manifest");
        if (m == null) {
            throw new ClusterException("node " + node + " has no data loaded; load with: ooo load tpch --sf 1 --cluster <dir>");
        }
        return JSON.convertValue(m, StoreManifest.class);
    }

    void dropCaches() {
        for (ClusterSpec.NodeSpec n : spec.nodes()) {
            await(peers.client(n.id()).call(OpCode.PARTITION_STATS, new byte[] {Messages.STATS_DROP_CACHE}));
        }
    }
}
