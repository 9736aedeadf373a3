package org.oooengine.core.cluster;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.oooengine.core.net.ErrorCode;
import org.oooengine.core.net.OpCode;
import org.oooengine.core.wire.PayloadReader;
import org.oooengine.core.wire.PayloadWriter;
import org.oooengine.core.net.RemoteException;
import org.oooengine.core.storage.SplitPolicy;
import org.oooengine.core.store.IndexScope;
import org.oooengine.core.store.TableDefinition;
import org.oooengine.core.types.RowCodec;

/**
 * Rows written in place into a table's partitions on the nodes that own them (INSERT, UPDATE,
 * DELETE), no partition rebuilt: each row goes to the owner of its primary key in requests of
 * about {@value #CHUNK_BYTES} bytes, and the nodes apply them to their B+trees unseen until the
 * statement commits. The commit is atomic across the owners that took rows: each prepares it
 * (the page images its flush will write, in a journal synced on the node, nothing seen), then one
 * of them, the decider, records that it committed — the commit point — and applies it, then the
 * others apply it. A failure before the decision rolls every owner back; a decider that cannot be
 * reached while deciding leaves the outcome unknown to the client ({@link
 * CommitOutcomeUnknownException}, SQLSTATE 40003) and the nodes settle it; an owner that cannot be
 * reached after the decision rolls the statement forward when it can (see {@link InPlaceWrites}).
 */
public final class ClusterWriter {
    private static final Logger LOG = LogManager.getLogger(ClusterWriter.class);
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

    /** A statement's rows into table {@code def}, whose leaves split by {@code policy}, kept on the cluster's number of nodes. */
    public Statement begin(TableDefinition def, SplitPolicy policy) {
        return begin(def, policy, peers.spec().replication());
    }

    /** As above, into a table whose partitions are kept on {@code copies} nodes ({@link ServingNodes#copies}). */
    public Statement begin(TableDefinition def, SplitPolicy policy, int copies) {
        if (!writable(def)) {
            throw new ClusterException("table " + def.name() + " has a GLOBAL index, which writes in place do not keep: "
                    + "rewrite it with INSERT OVERWRITE");
        }
        return new Statement(def, policy, copies);
    }

    /** The rows of one statement on their way; {@link #commit} or {@link #rollback} ends it. */
    public final class Statement {
        private final TableDefinition def;
        private final String policy;
        private final RowRouter router;
        private final RowCodec codec;
        private final Map<String, Batch> batches = new LinkedHashMap<>();
        private final List<String> owners;
        private final int copies;
        /** The owners sent rows so far: the ones that prepare and commit. */
        private final java.util.Set<String> sentTo = new java.util.HashSet<>();
        /** How the nodes tell this statement's requests from another's. */
        private final long id = java.util.concurrent.ThreadLocalRandom.current().nextLong();
        private long changed;
        /** Whether the decision was asked for: from then on only the decider's record says what happened. */
        private boolean deciding;

        private Statement(TableDefinition def, SplitPolicy policy, int copies) {
            this.def = def;
            this.copies = copies;
            this.policy = policy.name().toLowerCase(java.util.Locale.ROOT);
            this.owners = peers.spec().owners(def.name());
            this.router = new RowRouter(def, owners);
            this.codec = new RowCodec(def.schema());
        }

        /**
         * Sends a row (stored values in the table's column order) to be written as {@code kind} says,
         * to every node holding its partition: its owner, and the holders of its copies under the
         * copies' names, all in the one statement they commit or roll back together.
         */
        public void add(RowWrite kind, Object[] row) {
            int partition = router.rowPartition(row);
            List<String> holders = peers.spec().holders(def.name(), partition, copies);
            byte[] encoded = codec.encode(row);
            for (int j = 0; j < holders.size(); j++) {
                String node = holders.get(j);
                String stored = j == 0 ? def.name() : ClusterSpec.replicaName(def.name(), partition);
                boolean counted = j == 0;
                batches.computeIfAbsent(node + "/" + stored + "/" + kind, k -> new Batch(node, stored, kind, counted))
                        .add(encoded);
            }
        }

        /**
         * Sends what is left and commits on every owner that took rows, or on none; returns the rows
         * changed.
         *
         * @throws CompletionException           a node failed or could not be reached before the decision
         *                                       (the caller rolls back: nothing of it stays)
         * @throws CommitOutcomeUnknownException the decider could not be reached while deciding: the
         *                                       nodes settle it, committed everywhere or nowhere
         * @throws ClusterException              the decider failed while deciding: rolled back everywhere
         */
        public long commit() {
            batches.values().forEach(Batch::send);
            List<String> participants = owners.stream().filter(sentTo::contains).toList();
            if (participants.isEmpty()) {
                return changed;
            }
            String decider = participants.get(0);
            List<CompletableFuture<?>> prepared = new ArrayList<>();
            for (String node : participants) {
                prepared.add(call(node, new PayloadWriter(64).put(Messages.WRITE_PREPARE).putLong(id).putString(decider)
                        .toByteArray()));
            }
            CompletableFuture.allOf(prepared.toArray(CompletableFuture[]::new)).join();
            deciding = true;
            decide(decider);
            List<String> others = participants.subList(1, participants.size());
            List<CompletableFuture<?>> committed = new ArrayList<>();
            for (String node : others) {
                committed.add(call(node, step(Messages.WRITE_COMMIT)));
            }
            for (int i = 0; i < others.size(); i++) {
                try {
                    committed.get(i).join();
                } catch (CompletionException e) {
                    LOG.warn("statement {} into {} is committed (node {} decided it); node {} did not confirm its "
                            + "commit ({}) and rolls it forward when it can", InPlaceWrites.name(id), def.name(), decider,
                            others.get(i), cause(e).getMessage());
                }
            }
            return changed;
        }

        /**
         * The decision: the decider records the commit and applies it. An answer that did not come
         * leaves it unknown whether it recorded: it is asked, settling it — a statement it has not
         * decided yet it rolls back.
         */
        private void decide(String decider) {
            try {
                call(decider, step(Messages.WRITE_DECIDE)).join();
                return;
            } catch (CompletionException e) {
                Throwable failure = cause(e);
                if (!(failure instanceof RemoteException re) || re.code() != ErrorCode.NODE_UNAVAILABLE
                        && re.code() != ErrorCode.TIMEOUT) { // it answered: it did not record the decision
                    rollBackOn(owners);
                    throw new ClusterException("statement into " + def.name() + " not committed: its decider, node "
                            + decider + ", refused to commit it (" + failure.getMessage() + "); rolled back", failure);
                }
                LOG.warn("statement {} into {}: the decider, node {}, did not answer its decision ({}); asking it",
                        InPlaceWrites.name(id), def.name(), decider, failure.getMessage());
                byte outcome;
                try {
                    PayloadReader r = call(decider, new PayloadWriter(10).put(Messages.WRITE_OUTCOME).putLong(id)
                            .put(Messages.WRITE_SETTLE).toByteArray()).join().reader();
                    outcome = r.get();
                } catch (CompletionException again) {
                    throw new CommitOutcomeUnknownException("statement " + InPlaceWrites.name(id) + " into " + def.name()
                            + ": node " + decider + " decides its commit and did not answer (" + failure.getMessage()
                            + "); the nodes settle the outcome when it is back", failure);
                }
                if (outcome == InPlaceWrites.COMMITTED) {
                    return;
                }
                if (outcome == InPlaceWrites.NOT_DECIDED) {
                    rollBackOn(owners);
                    throw new ClusterException("statement into " + def.name() + " not committed: its decider, node "
                            + decider + ", did not record it (" + failure.getMessage() + "); rolled back", failure);
                }
                throw new CommitOutcomeUnknownException("statement " + InPlaceWrites.name(id) + " into " + def.name()
                        + ": node " + decider + " has not decided it yet (" + failure.getMessage() + "); the nodes "
                        + "settle the outcome", failure);
            }
        }

        private byte[] step(byte step) {
            return new PayloadWriter(9).put(step).putLong(id).toByteArray();
        }

        /**
         * Has every owner forget what it applied of this statement. Nothing once the decision was
         * asked for: the statement then committed, or the nodes settle it with its decider.
         */
        public void rollback() {
            if (!deciding) {
                rollBackOn(owners);
            }
        }

        private void rollBackOn(List<String> nodes) {
            List<CompletableFuture<?>> done = new ArrayList<>();
            for (String node : nodes) {
                done.add(call(node, step(Messages.WRITE_ROLLBACK)));
            }
            CompletableFuture.allOf(done.toArray(CompletableFuture[]::new)).exceptionally(e -> null).join();
        }

        /**
         * One node's rows of one kind for one of its stored tables, sent a chunk at a time, each
         * answered before the next; {@code counted}: the owner's, whose changes the statement reports.
         */
        private final class Batch {
            private final String node;
            private final String stored;
            private final RowWrite kind;
            private final boolean counted;
            private PayloadWriter rows = new PayloadWriter(CHUNK_BYTES + 4096);
            private int count;

            Batch(String node, String stored, RowWrite kind, boolean counted) {
                this.node = node;
                this.stored = stored;
                this.kind = kind;
                this.counted = counted;
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
                byte[] payload = new PayloadWriter(body.length + 64).put(Messages.WRITE_APPLY).putLong(id).putString(stored)
                        .putString(policy).put((byte) kind.ordinal()).putVarInt(count).putBytesRaw(body).toByteArray();
                rows = new PayloadWriter(CHUNK_BYTES + 4096);
                count = 0;
                sentTo.add(node); // a failure half way leaves rows there too: it is rolled back with the others
                long applied = call(node, payload).join().reader().getLong();
                changed += counted ? applied : 0;
            }
        }
    }

    private static Throwable cause(Throwable e) {
        Throwable t = e;
        while (t instanceof CompletionException && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
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
