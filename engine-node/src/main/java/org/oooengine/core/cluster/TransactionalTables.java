package org.oooengine.core.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.oooengine.core.net.OpCode;
import org.oooengine.core.wire.PayloadWriter;

/** The DDL of transactional tables: each exists on every node of the cluster, which holds its partition. */
public final class TransactionalTables {
    private TransactionalTables() {
    }

    /** Creates {@code table} on every node (nothing where it exists). */
    public static void create(Peers peers, String table) {
        onEveryNode(peers, TxnOp.CREATE_TABLE, table);
    }

    /** Drops {@code table} and its rows on every node. */
    public static void drop(Peers peers, String table) {
        onEveryNode(peers, TxnOp.DROP_TABLE, table);
    }

    /**
     * Runs stored procedure {@code name} ({@link NodeProcedure}) on {@code node} with {@code args};
     * {@code routing} picks the node's procedure thread (the same number, the same thread). The
     * answer completes the future on the network thread: for a caller that waits for it.
     */
    public static CompletableFuture<org.oooengine.core.wire.PayloadReader> procedure(Peers peers, String node, String name,
                                                                                 int routing, byte[] args) {
        byte[] payload = new PayloadWriter(args.length + 64).put(TxnOp.PROCEDURE.code()).putString(name).putInt(routing)
                .putBytes(args).toByteArray();
        try {
            return peers.client(node).callAwaited(OpCode.TXN, payload).thenApply(f -> f.reader());
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    private static void onEveryNode(Peers peers, TxnOp op, String table) {
        byte[] payload = new PayloadWriter(64).put(op.code()).putString(table).toByteArray();
        List<CompletableFuture<?>> done = new ArrayList<>();
        for (ClusterSpec.NodeSpec n : peers.spec().nodes()) {
            try {
                done.add(peers.client(n.id()).call(OpCode.TXN, payload));
            } catch (RuntimeException e) {
                done.add(CompletableFuture.failedFuture(e));
            }
        }
        CompletableFuture.allOf(done.toArray(CompletableFuture[]::new)).join();
    }
}
