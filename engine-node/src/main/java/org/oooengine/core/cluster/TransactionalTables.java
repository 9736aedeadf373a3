package org.oooengine.core.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.oooengine.core.htap.Freshness;
import org.oooengine.core.store.TableDefinition;
import java.util.concurrent.CompletableFuture;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.oooengine.core.net.OpCode;
import org.oooengine.core.wire.PayloadWriter;

/** The DDL of transactional tables: each exists on every node of the cluster, which holds its partition. */
public final class TransactionalTables {
    private static final Logger LOG = LogManager.getLogger(TransactionalTables.class);
    private TransactionalTables() {
    }

    /** Creates {@code table} on every node (nothing where it exists). */
    public static void create(Peers peers, String table) {
        onEveryNode(peers, TxnOp.CREATE_TABLE, table);
    }

    /**
     * Creates {@code table} on every node and, where each partition is kept on {@code copies} nodes,
     * its copies on the nodes holding them ({@link TransactionalRows}).
     */
    public static void create(Peers peers, String table, int copies) {
        eachHolding(peers, peers.spec().withReplication(copies), TxnOp.CREATE_TABLE, table);
    }

    /** Drops {@code table}, its copies of other nodes' partitions and their rows on every node. */
    public static void drop(Peers peers, String table) {
        eachHolding(peers, peers.spec(), TxnOp.DROP_TABLE, table);
    }

    /** The transactional tables {@code node} keeps, by the names it keeps them under, copies of other nodes' partitions among them. */
    public static java.util.Set<String> tables(Peers peers, String node) {
        return TransactionalCopy.tables(peers, node);
    }

    /**
     * Where the holders of a partition of {@code table} do not keep the same rows, read in one
     * transaction on all of them: "partition 1: n2 and n3 differ (300 and 301 rows)" each; empty
     * where every copy equals its owner's.
     */
    public static List<String> differingCopies(Peers peers, String table) {
        List<String> differing = new ArrayList<>();
        DistributedTransaction tx = new DistributedTransaction(peers);
        try {
            List<List<TransactionalRows.Holding>> partitions = TransactionalRows.holdings(peers.spec(), table);
            for (int p = 0; p < partitions.size(); p++) {
                List<TransactionalRows.Holding> holders = partitions.get(p);
                List<DistributedTransaction.Row> owners = tx.scan(holders.get(0).node(), holders.get(0).storedName(), null, null);
                for (TransactionalRows.Holding copy : holders.subList(1, holders.size())) {
                    List<DistributedTransaction.Row> copied = tx.scan(copy.node(), copy.storedName(), null, null);
                    if (!sameRows(owners, copied)) {
                        differing.add("partition " + p + ": " + holders.get(0).node() + " and " + copy.node() + " differ ("
                                + owners.size() + " and " + copied.size() + " rows)");
                    }
                }
            }
            tx.commit();
        } catch (RuntimeException e) {
            tx.abort();
            throw e;
        }
        return differing;
    }

    private static boolean sameRows(List<DistributedTransaction.Row> a, List<DistributedTransaction.Row> b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            if (!java.util.Arrays.equals(a.get(i).key(), b.get(i).key())
                    || !java.util.Arrays.equals(a.get(i).value(), b.get(i).value())) {
                return false;
            }
        }
        return true;
    }

    /** Sends {@code op} for {@code table} to every node, and for each copy of its partitions {@code spec} places to its node. */
    private static void eachHolding(Peers peers, ClusterSpec spec, TxnOp op, String table) {
        List<CompletableFuture<?>> done = new ArrayList<>();
        for (ClusterSpec.NodeSpec n : peers.spec().nodes()) {
            done.add(call(peers, n.id(), new PayloadWriter(64).put(op.code()).putString(table).toByteArray()));
        }
        for (List<TransactionalRows.Holding> partition : TransactionalRows.holdings(spec, table)) {
            for (TransactionalRows.Holding copy : partition.subList(1, partition.size())) {
                done.add(call(peers, copy.node(), new PayloadWriter(64).put(op.code()).putString(copy.storedName())
                        .toByteArray()));
            }
        }
        CompletableFuture.allOf(done.toArray(CompletableFuture[]::new)).join();
    }

    /**
     * Has every node keep analytical copies of {@code tables} (transactional name to the definition
     * of its rows) too, beside those it keeps already; returns once every node has registered them.
     * Each node builds them in the background (a scan of a copy waits a while for it; {@link
     * #copyStatus} lists a table once it is built).
     */
    public static void copy(Peers peers, Map<String, TableDefinition> tables) {
        PayloadWriter w = new PayloadWriter(256).put(TxnOp.COPY_TABLES.code()).putVarInt(tables.size());
        tables.forEach((name, def) -> {
            w.putString(name);
            Messages.writeDefinition(w, def);
        });
        onEveryNode(peers, w.toByteArray());
    }

    /** Has every node stop keeping analytical copies of {@code table} (nothing where it keeps none). */
    public static void uncopy(Peers peers, String table) {
        onEveryNode(peers, TxnOp.UNCOPY_TABLE, table);
    }

    /** How fresh a node's analytical copies are ({@link TxnOp#COPY_STATUS}), and its HTAP mode as it runs. */
    public record CopyStatus(String node, long switches, long applied, long rebuilds, long reads, long owedCommits,
                             long deltaKeys, List<Freshness> tables, HtapStatus htap) {
    }

    /** Has every node run its HTAP side as {@code config} says from now on ({@link TxnOp#HTAP_MODE}). */
    public static void htapMode(Peers peers, HtapConfig config) {
        PayloadWriter w = new PayloadWriter(128).put(TxnOp.HTAP_MODE.code());
        config.write(w);
        onEveryNode(peers, w.toByteArray());
    }

    /**
     * Tells every node that the statement reading copies under {@code snapshot} is done, so that
     * the pins its scans shared go ({@link TxnOp#COPY_RELEASE}). Does not wait: a node that does
     * not hear it lets the pin go once idle.
     */
    public static void releaseCopySnapshot(Peers peers, long snapshot) {
        byte[] payload = new PayloadWriter(9).put(TxnOp.COPY_RELEASE.code()).putLong(snapshot).toByteArray();
        for (ClusterSpec.NodeSpec n : peers.spec().nodes()) {
            try {
                peers.client(n.id()).call(OpCode.TXN, payload).exceptionally(e -> {
                    LOG.debug("node {} did not hear that copy snapshot {} is released: {}", n.id(),
                            Long.toHexString(snapshot), e.getMessage());
                    return null;
                });
            } catch (RuntimeException e) {
                LOG.debug("node {} did not hear that copy snapshot {} is released: {}", n.id(),
                        Long.toHexString(snapshot), e.getMessage());
            }
        }
    }

    /** Each node's {@link CopyStatus}, in the cluster's order of nodes. */
    public static List<CopyStatus> copyStatus(Peers peers) {
        byte[] payload = new PayloadWriter(1).put(TxnOp.COPY_STATUS.code()).toByteArray();
        List<CopyStatus> out = new ArrayList<>();
        for (ClusterSpec.NodeSpec n : peers.spec().nodes()) {
            org.oooengine.core.wire.PayloadReader r = peers.client(n.id()).call(OpCode.TXN, payload).join().reader();
            long switches = r.getLong();
            long applied = r.getLong();
            long rebuilds = r.getLong();
            long reads = r.getLong();
            long owed = r.getLong();
            long deltaKeys = r.getLong();
            int count = r.getCount(8);
            List<Freshness> tables = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                tables.add(new Freshness(r.getString(), r.getLong(), r.getLong(), Double.longBitsToDouble(r.getLong()),
                        Double.longBitsToDouble(r.getLong())));
            }
            out.add(new CopyStatus(n.id(), switches, applied, rebuilds, reads, owed, deltaKeys, tables, HtapStatus.read(r)));
        }
        return out;
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
        onEveryNode(peers, new PayloadWriter(64).put(op.code()).putString(table).toByteArray());
    }

    private static void onEveryNode(Peers peers, byte[] payload) {
        List<CompletableFuture<?>> done = new ArrayList<>();
        for (ClusterSpec.NodeSpec n : peers.spec().nodes()) {
            done.add(call(peers, n.id(), payload));
        }
        CompletableFuture.allOf(done.toArray(CompletableFuture[]::new)).join();
    }

    private static CompletableFuture<?> call(Peers peers, String node, byte[] payload) {
        try {
            return peers.client(node).call(OpCode.TXN, payload);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }
}
