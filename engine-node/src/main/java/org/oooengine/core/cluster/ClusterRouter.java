package org.oooengine.core.cluster;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.oooengine.core.exec.PartitionRouter;
import org.oooengine.core.net.ErrorCode;
import org.oooengine.core.net.NodeClient;
import org.oooengine.core.net.OpCode;
import org.oooengine.core.net.RemoteException;

/** Routes by the cluster's partition map; remote steps go through this node's {@link Peers}. */
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

    @Override
    public String owner(String table, byte[] encodedValue) {
        List<String> owners = peers.spec().owners(table);
        return owners.get(Partitioning.partition(encodedValue, owners.size()));
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
