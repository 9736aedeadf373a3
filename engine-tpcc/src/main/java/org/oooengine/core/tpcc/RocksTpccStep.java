package org.oooengine.core.tpcc;

import java.util.List;
import org.oooengine.core.cluster.DistributedTransaction;
import org.oooengine.core.cluster.NodeProcedure;
import org.oooengine.core.cluster.TransactionalWrite;
import org.oooengine.core.wire.PayloadReader;
import org.oooengine.core.wire.PayloadWriter;
import org.oooengine.core.wire.ProtocolException;
import org.rocksdb.RocksDBException;
import org.rocksdb.Transaction;

/**
 * A step of a baseline transaction that another node coordinates ({@value #NAME}): reads, writes
 * and scans in a RocksDB transaction kept open here by name, then its two-phase commit (RocksDB's
 * own prepare and commit) or its rollback. Runs on the node's lanes: it never waits on other nodes.
 *
 * <p>Arguments: the transaction's name, a step byte, the step's fields (see {@link RocksTransaction}).
 */
public final class RocksTpccStep implements NodeProcedure {
    public static final String NAME = "tpcc-rocksdb-step";
    static final byte GET = 1;
    static final byte WRITE = 2;
    static final byte SCAN = 3;
    static final byte PREPARE = 4;
    static final byte COMMIT = 5;
    static final byte ROLLBACK = 6;
    static final byte COMMIT_ONE = 7;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public boolean waitsOnOtherNodes() {
        return false;
    }

    static RocksTpccStore store(Context context) {
        return context.resource(RocksTpccStore.RESOURCE, RocksTpccStore::new);
    }

    @Override
    public byte[] run(PayloadReader args, Context context) {
        RocksTpccStore store = store(context);
        String name = args.getString();
        byte step = args.get();
        try {
            switch (step) {
                case GET -> {
                    byte[] row = store.get(store.named(name), args.getString(), args.getBytes());
                    PayloadWriter w = new PayloadWriter(row == null ? 1 : row.length + 8);
                    return row == null ? w.put(0).toByteArray() : w.put(1).putBytes(row).toByteArray();
                }
                case WRITE -> {
                    Transaction t = store.named(name);
                    int n = args.getCount(3);
                    long changed = 0;
                    for (int i = 0; i < n; i++) {
                        String table = args.getString();
                        TransactionalWrite mode = TransactionalWrite.values()[args.get()];
                        byte[] key = args.getBytes();
                        byte[] row = mode == TransactionalWrite.DELETE ? null : args.getBytes();
                        changed += store.write(t, table, mode, key, row) ? 1 : 0;
                    }
                    return new PayloadWriter(8).putLong(changed).toByteArray();
                }
                case SCAN -> {
                    String table = args.getString();
                    byte[] from = args.get() == 0 ? null : args.getBytes();
                    byte[] to = args.get() == 0 ? null : args.getBytes();
                    List<DistributedTransaction.Row> rows = store.scan(store.named(name), table, from, to, args.getInt());
                    PayloadWriter w = new PayloadWriter(64 + rows.size() * 64).putVarInt(rows.size());
                    rows.forEach(r -> w.putBytes(r.key()).putBytes(r.value()));
                    return w.toByteArray();
                }
                case PREPARE -> {
                    store.named(name).prepare();
                    return new byte[0];
                }
                case COMMIT, COMMIT_ONE -> {
                    Transaction t = store.finished(name);
                    if (t != null) {
                        try (t) {
                            t.commit();
                        }
                    }
                    return new byte[0];
                }
                case ROLLBACK -> {
                    Transaction t = store.finished(name);
                    if (t != null) {
                        try (t) {
                            t.rollback();
                        }
                    }
                    return new byte[0];
                }
                default -> throw new ProtocolException("unknown baseline transaction step " + step);
            }
        } catch (RocksDBException e) {
            rollbackQuietly(store, name);
            throw RocksTpccStore.failure(e);
        } catch (RuntimeException e) {
            rollbackQuietly(store, name);
            throw e;
        }
    }

    private static void rollbackQuietly(RocksTpccStore store, String name) {
        Transaction t = store.finished(name);
        if (t != null) {
            try (t) {
                t.rollback();
            } catch (RocksDBException ignored) {
                // the transaction is gone either way
            }
        }
    }
}
