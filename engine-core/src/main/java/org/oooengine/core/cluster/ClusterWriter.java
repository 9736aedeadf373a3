package org.oooengine.core.cluster;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.oooengine.core.net.OpCode;
import org.oooengine.core.net.PayloadWriter;
import org.oooengine.core.storage.SplitPolicy;
import org.oooengine.core.store.IndexScope;
import org.oooengine.core.store.TableDefinition;
import org.oooengine.core.types.RowCodec;

/**
 * Rows written in place into a table's partitions on the nodes that own them (INSERT, UPDATE,
 * DELETE), no partition rebuilt: each row goes to the owner of its primary key in requests of
 * about {@value #CHUNK_BYTES} bytes, and the nodes apply them to their B+trees unseen until the
 * statement commits. A commit has each node flush its trees (each atomically) and publish them to
 * its readers; a failure anywhere rolls every node back. A node that dies between its commit and
 * another's leaves the statement done on some nodes only: atomicity across nodes is the
 * transactional tables' (two-phase commit).
 */
public final class ClusterWriter {
    static final int CHUNK_BYTES = 256 << 10;

    /** What a node does with a row: insert it (a duplicate key fails), replace the row of its key, delete it. */
    public enum RowWrite { INSERT, UPDATE, DELETE }

    private final Peers peers;

    public ClusterWriter(Peers peers) {
        this.peers = peers;
    }

    /** Whether in-place writes can keep {@code def}'s indexes: only LOCAL ones (a GLOBAL index lives on other nodes). */
    public static boolean writable(TableDefinition def) {
        return def.indexes().stream().noneMatch(ix -> ix.scope() == IndexScope.GLOBAL);
    }

    /** A statement's rows into table {@code def}, whose leaves split by {@code policy}. */
    public Statement begin(TableDefinition def, SplitPolicy policy) {
        if (!writable(def)) {
            throw new ClusterException("table " + def.name() + " has a GLOBAL index, which writes in place do not keep: "
                    + "rewrite it with INSERT OVERWRITE");
        }
        return new Statement(def, policy);
    }

    /** The rows of one statement on their way; {@link #commit} or {@link #rollback} ends it. */
    public final class Statement {
        private final TableDefinition def;
        private final String policy;
        private final RowRouter router;
        private final RowCodec codec;
        private final Map<String, Batch> batches = new LinkedHashMap<>();
        private final List<String> owners;
        /** How the nodes tell this statement's requests from another's. */
        private final long id = java.util.concurrent.ThreadLocalRandom.current().nextLong();
        private long changed;

        private Statement(TableDefinition def, SplitPolicy policy) {
            this.def = def;
            this.policy = policy.name().toLowerCase(java.util.Locale.ROOT);
            this.owners = peers.spec().owners(def.name());
            this.router = new RowRouter(def, owners);
            this.codec = new RowCodec(def.schema());
        }

        /** Sends a row (stored values in the table's column order) to be written as {@code kind} says. */
        public void add(RowWrite kind, Object[] row) {
            String node = router.rowOwner(row);
            Batch b = batches.computeIfAbsent(node + "/" + kind, k -> new Batch(node, kind));
            b.add(codec.encode(row));
        }

        /** Sends what is left and has every owner make the statement's writes durable and seen; returns the rows changed. */
        public long commit() {
            batches.values().forEach(Batch::send);
            List<CompletableFuture<?>> committed = new ArrayList<>();
            for (String node : owners) {
                committed.add(call(node, new PayloadWriter(9).put(Messages.WRITE_COMMIT).putLong(id).toByteArray()));
            }
            CompletableFuture.allOf(committed.toArray(CompletableFuture[]::new)).join();
            return changed;
        }

        /** Has every owner forget what it applied of this statement. */
        public void rollback() {
            List<CompletableFuture<?>> done = new ArrayList<>();
            for (String node : owners) {
                done.add(call(node, new PayloadWriter(9).put(Messages.WRITE_ROLLBACK).putLong(id).toByteArray()));
            }
            CompletableFuture.allOf(done.toArray(CompletableFuture[]::new)).exceptionally(e -> null).join();
        }

        /** One node's rows of one kind, sent a chunk at a time, each answered before the next. */
        private final class Batch {
            private final String node;
            private final RowWrite kind;
            private PayloadWriter rows = new PayloadWriter(CHUNK_BYTES + 4096);
            private int count;

            Batch(String node, RowWrite kind) {
                this.node = node;
                this.kind = kind;
            }

            void add(byte[] row) {
                rows.putBytes(row);
                if (++count > 0 && rows.length() >= CHUNK_BYTES) {
                    send();
                }
            }

            void send() {
                if (count == 0) {
                    return;
                }
                byte[] body = rows.toByteArray();
                byte[] payload = new PayloadWriter(body.length + 64).put(Messages.WRITE_APPLY).putLong(id).putString(def.name())
                        .putString(policy).put((byte) kind.ordinal()).putVarInt(count).putBytesRaw(body).toByteArray();
                rows = new PayloadWriter(CHUNK_BYTES + 4096);
                count = 0;
                changed += call(node, payload).join().reader().getLong();
            }
        }
    }

    /** A request to {@code node}; a node that cannot be reached fails the future, naming it, as one that fails to answer. */
    private CompletableFuture<org.oooengine.core.net.Frame> call(String node, byte[] payload) {
        try {
            return peers.client(node).call(OpCode.WRITE_ROWS, payload);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }
}
