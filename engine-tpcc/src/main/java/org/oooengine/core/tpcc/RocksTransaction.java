package org.oooengine.core.tpcc;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import org.oooengine.core.cluster.DistributedTransaction;
import org.oooengine.core.cluster.Peers;
import org.oooengine.core.cluster.RowAccess;
import org.oooengine.core.cluster.TransactionalTables;
import org.oooengine.core.cluster.TransactionalWrite;
import org.oooengine.core.wire.PayloadReader;
import org.oooengine.core.wire.PayloadWriter;
import org.oooengine.core.txn.TransactionId;
import org.rocksdb.RocksDBException;
import org.rocksdb.Transaction;

/**
 * A baseline transaction over the nodes' RocksDB TPC-C tables, routed as the transactional tables'
 * ({@link RowAccess}): the coordinating node's rows in its own RocksDB transaction, another node's
 * in a transaction there named after this one ({@link RocksTpccStep}), writes to it buffered and
 * sent in one step. Commit: one node — that node commits; several — every one prepares (RocksDB's
 * two-phase commit, synced), then every one commits. Not thread-safe.
 */
final class RocksTransaction implements RowAccess {
    private final Peers peers;
    private final RocksTpccStore local;
    private final String localNode;
    private final String name = "tpcc-" + TransactionId.next();
    private Transaction localTxn;
    private final TreeSet<String> remote = new TreeSet<>();
    private final Map<String, PayloadWriter> buffered = new LinkedHashMap<>();
    private final Map<String, Integer> bufferedCount = new LinkedHashMap<>();
    private boolean usedLocal;

    /** @param local the coordinating node's store and name, or null for a coordinator outside the nodes */
    RocksTransaction(Peers peers, RocksTpccStore local, String localNode) {
        this.peers = peers;
        this.local = local;
        this.localNode = localNode;
    }

    private boolean isLocal(String node) {
        return local != null && node.equals(localNode);
    }

    private Transaction localTxn() {
        if (localTxn == null) {
            localTxn = local.begin();
            usedLocal = true;
        }
        return localTxn;
    }

    @Override
    public byte[] get(String node, String table, byte[] key) {
        if (isLocal(node)) {
            return local.get(localTxn(), table, key);
        }
        sendWrites(node);
        PayloadReader r = step(node, new PayloadWriter(64).putString(table).putBytes(key), RocksTpccStep.GET);
        return r.get() == 0 ? null : r.getBytes();
    }

    @Override
    public void write(String node, String table, TransactionalWrite mode, byte[] key, byte[] row) {
        if (isLocal(node)) {
            local.write(localTxn(), table, mode, key, row);
            return;
        }
        PayloadWriter w = buffered.computeIfAbsent(node, n -> new PayloadWriter(4096));
        w.putString(table).put(mode.ordinal()).putBytes(key);
        if (mode != TransactionalWrite.DELETE) {
            w.putBytes(row);
        }
        bufferedCount.merge(node, 1, Integer::sum);
    }

    @Override
    public List<DistributedTransaction.Row> scan(String node, String table, byte[] from, byte[] to, int limit) {
        if (isLocal(node)) {
            return local.scan(localTxn(), table, from, to, limit);
        }
        sendWrites(node);
        PayloadWriter w = new PayloadWriter(128).putString(table);
        putNullable(w, from);
        putNullable(w, to);
        PayloadReader r = step(node, w.putInt(limit), RocksTpccStep.SCAN);
        int n = r.getCount(2);
        List<DistributedTransaction.Row> rows = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            rows.add(new DistributedTransaction.Row(r.getBytes(), r.getBytes()));
        }
        return rows;
    }

    private static void putNullable(PayloadWriter w, byte[] b) {
        if (b == null) {
            w.put(0);
        } else {
            w.put(1).putBytes(b);
        }
    }

    private void sendWrites(String node) {
        Integer n = bufferedCount.remove(node);
        if (n == null) {
            return;
        }
        byte[] body = buffered.remove(node).toByteArray();
        step(node, new PayloadWriter(body.length + 16).putVarInt(n).putBytesRaw(body), RocksTpccStep.WRITE);
    }

    @Override
    public long commit() {
        try {
            for (String node : new ArrayList<>(bufferedCount.keySet())) {
                sendWrites(node);
            }
            int participants = remote.size() + (localTxn != null ? 1 : 0);
            if (participants == 1 && localTxn != null) {
                localTxn.commit();
            } else if (participants == 1) {
                step(remote.first(), new PayloadWriter(8), RocksTpccStep.COMMIT_ONE);
            } else if (participants > 1) {
                if (localTxn != null) {
                    localTxn.setName(name);
                    localTxn.prepare();
                }
                allRemote(RocksTpccStep.PREPARE);
                if (localTxn != null) {
                    localTxn.commit();
                }
                allRemote(RocksTpccStep.COMMIT);
            }
            closeLocal();
            return 0;
        } catch (RocksDBException e) {
            abort();
            throw RocksTpccStore.failure(e);
        } catch (RuntimeException e) {
            abort();
            throw e;
        }
    }

    private void allRemote(byte step) {
        List<CompletableFuture<PayloadReader>> calls = new ArrayList<>();
        for (String node : remote) {
            calls.add(call(node, new PayloadWriter(8), step));
        }
        for (CompletableFuture<PayloadReader> c : calls) {
            DistributedTransaction.join(c);
        }
    }

    @Override
    public void abort() {
        if (localTxn != null) {
            try {
                localTxn.rollback();
            } catch (RocksDBException e) {
                // rolled back or gone
            }
            closeLocal();
        }
        for (String node : remote) {
            try {
                DistributedTransaction.join(call(node, new PayloadWriter(8), RocksTpccStep.ROLLBACK));
            } catch (RuntimeException e) {
                // that node rolls back what it holds when it restarts
            }
        }
        remote.clear();
    }

    private void closeLocal() {
        if (localTxn != null) {
            localTxn.close();
            localTxn = null;
        }
    }

    @Override
    public List<String> nodes() {
        List<String> nodes = new ArrayList<>(remote);
        if (usedLocal) {
            nodes.add(localNode);
        }
        return nodes;
    }

    private PayloadReader step(String node, PayloadWriter fields, byte step) {
        return DistributedTransaction.join(call(node, fields, step));
    }

    private CompletableFuture<PayloadReader> call(String node, PayloadWriter fields, byte step) {
        remote.add(node);
        byte[] f = fields.toByteArray();
        byte[] args = new PayloadWriter(f.length + 64).putString(name).put(step).putBytesRaw(f).toByteArray();
        return TransactionalTables.procedure(peers, node, RocksTpccStep.NAME, name.hashCode(), args);
    }
}
