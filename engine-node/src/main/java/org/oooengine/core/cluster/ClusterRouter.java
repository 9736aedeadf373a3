package org.oooengine.core.cluster;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.oooengine.core.exec.PartitionRouter;
import org.oooengine.core.net.ErrorCode;
import org.oooengine.core.net.NodeClient;
import org.oooengine.core.net.OpCode;
import org.oooengine.core.net.RemoteException;

/** Routes by the cluster's partition map and its replicas; remote steps go through this node's {@link Peers}. */
final class ClusterRouter implements PartitionRouter {
    private final String self;
    private final Peers peers;

    ClusterRouter(String self, Peers peers) {
        this.self = self;
        this.peers = peers;
    }

    @Override
    public String self() {
        return self;
    }

    /**
     * This node where it holds the partition (a replica read here saves a round trip), else its
     * first holder with an open connection, else its owner (whose request then fails naming it).
     */
    @Override
    public Holder holder(String table, byte[] encodedValue) {
        ClusterSpec spec = peers.spec();
        int partition = Partitioning.partition(encodedValue, spec.owners(table).size());
        List<String> holders = spec.holders(table, partition);
        int chosen = holders.indexOf(self);
        for (int j = 0; chosen < 0 && j < holders.size(); j++) {
            if (peers.connected(holders.get(j)) != null) {
                chosen = j;
            }
        }
        chosen = Math.max(chosen, 0);
        return new Holder(holders.get(chosen), chosen == 0 ? table : ClusterSpec.replicaName(table, partition));
    }

    @Override
    public CompletableFuture<List<Entry>> lookup(String node, String table, String index, byte[] prefix) {
        return client(node).thenCompose(c -> c.call(OpCode.INDEX_POINT_LOOKUP, Messages.pointLookup(table, index, prefix)))
                .thenApply(f -> Messages.readEntries(f.reader()));
    }

    @Override
    public CompletableFuture<List<byte[]>> fetch(String node, String table, List<byte[]> primaryKeys) {
        return client(node).thenCompose(c -> c.call(OpCode.FETCH_ROWS, Messages.fetch(table, primaryKeys)))
                .thenApply(f -> Messages.readValues(f.reader()));
    }

    // Connections are opened before a fragment starts; one lost during it is not reopened here,
    // since that would block a network or compute thread: the request fails naming the node.
    private CompletableFuture<NodeClient> client(String node) {
        NodeClient c = peers.connected(node);
        return c != null ? CompletableFuture.completedFuture(c) : CompletableFuture.failedFuture(
                new RemoteException(node, ErrorCode.NODE_UNAVAILABLE, "connection lost"));
    }
}
