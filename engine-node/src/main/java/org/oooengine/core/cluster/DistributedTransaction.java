package org.oooengine.core.cluster;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.oooengine.core.net.ErrorCode;
import org.oooengine.core.net.OpCode;
import org.oooengine.core.wire.PayloadReader;
import org.oooengine.core.wire.PayloadWriter;
import org.oooengine.core.net.RemoteException;
import org.oooengine.core.txn.TransactionAbortedException;
import org.oooengine.core.txn.TransactionId;

/**
 * One transaction on transactional tables, run from anywhere in the cluster (the SQL coordinator, a
 * node's stored procedure) over the nodes that own its rows. Reads go to the owning node at once
 * and join its read set there; writes are buffered and sent in batches. {@link #commit} commits on
 * all nodes or none:
 *
 * <ol>
 *   <li>one node touched: that node commits alone ({@code COMMIT_ONE});</li>
 *   <li>otherwise each node locks its writes and names the lowest commit timestamp it allows; the
 *   commit timestamp is their maximum;</li>
 *   <li>every node but the decider (the first node, by name, that has writes) validates its reads
 *   at that timestamp and, with writes, logs a durable vote; a node that only read is done;</li>
 *   <li>the decider validates its own reads and logs the commit with its writes: that record is
 *   the decision. The others learn it from this coordinator, or, if it died, ask the decider.</li>
 * </ol>
 *
 * A stored procedure's transaction that writes on its own node and reaches one other node (most
 * that cross nodes) folds steps 2 and 3 into one request to that node, sent behind its writes.
 *
 * Not thread-safe: one thread runs a transaction.
 */
public final class DistributedTransaction implements RowAccess {
    private static final Logger LOG = LogManager.getLogger(DistributedTransaction.class);
    /** Buffered writes to one node are sent once they reach this size. */
    private static final int WRITE_BATCH_BYTES = 256 << 10;

    /** A row of a {@link #scan}. */
    public record Row(byte[] key, byte[] value) {
    }

    /** A node this transaction reaches in process (its coordinator runs there): its steps run on the caller's thread. */
    interface LocalNode {
        String id();

        /** A step as the node would take it in a request (the commit's phases); a decision joins the log's open group. */
        PayloadReader call(byte[] payload);

        /** Runs {@code then} once what the steps so far logged here is durable (a decision, say). */
        void whenDurable(Runnable then);

        /**
         * Called on the transaction's thread before it waits on another node: the open group of
         * commits here is flushed, since its locks and decisions may be what that node waits for
         * (no worker waits while holding locks across transactions, over the network too).
         */
        void beforeWaitingOnAnotherNode();

        /** The reads, writes and scans, typed: the transaction's most frequent steps, without encoding them. */
        byte[] get(TransactionId id, String table, byte[] key);

        boolean write(TransactionId id, String table, TransactionalWrite mode, byte[] key, byte[] row);

        List<Row> scan(TransactionId id, String table, byte[] from, byte[] to, int limit);
    }

    private final Peers peers;
    private final LocalNode local;
    private final TransactionId id = TransactionId.next();
    /** The thread that runs this transaction, and waits on its remote steps. */
    private final Thread runner = Thread.currentThread();
    /** Nodes this transaction reached, by name (the order the decider is chosen in). */
    private final TreeSet<String> touched = new TreeSet<>();
    private final TreeSet<String> writers = new TreeSet<>();
    private final Map<String, WriteBatch> batches = new LinkedHashMap<>();
    private final List<CompletableFuture<Long>> sentWrites = new ArrayList<>();
    private long changed;
    private boolean finished;

    public DistributedTransaction(Peers peers) {
        this(peers, null);
    }

    DistributedTransaction(Peers peers, LocalNode local) {
        this.peers = peers;
        this.local = local;
    }

    public TransactionId id() {
        return id;
    }

    /** The row under {@code key} of {@code table} on {@code node}, or null; sees this transaction's writes. */
    @Override
    public byte[] get(String node, String table, byte[] key) {
        return getAll(node, table, List.of(key)).get(0);
    }

    /** The rows under {@code keys} (null where there is none), in one request to {@code node}. */
    public List<byte[]> getAll(String node, String table, List<byte[]> keys) {
        checkActive();
        if (isLocal(node)) {
            touched.add(node);
            List<byte[]> rows = new ArrayList<>(keys.size());
            for (byte[] k : keys) {
                rows.add(local.get(id, table, k));
            }
            return rows;
        }
        sendWrites(node);
        PayloadWriter w = start(TxnOp.READ, 64 + keys.size() * 16).putString(table).putVarInt(keys.size());
        keys.forEach(w::putBytes);
        PayloadReader r = join(call(node, w));
        List<byte[]> rows = new ArrayList<>(keys.size());
        for (int i = 0; i < keys.size(); i++) {
            rows.add(TransactionService.getNullable(r));
        }
        return rows;
    }

    /** The rows of {@code table} on {@code node} with {@code from <= key < to} (null: open), in key order. */
    public List<Row> scan(String node, String table, byte[] from, byte[] to) {
        return scan(node, table, from, to, Integer.MAX_VALUE);
    }

    /** As {@link #scan(String, String, byte[], byte[])}, the first {@code limit} rows: only they join the read set. */
    @Override
    public List<Row> scan(String node, String table, byte[] from, byte[] to, int limit) {
        checkActive();
        if (isLocal(node)) {
            touched.add(node);
            return local.scan(id, table, from, to, limit);
        }
        sendWrites(node);
        List<Row> rows = new ArrayList<>();
        byte[] next = from;
        while (true) {
            int wanted = Math.min(limit - rows.size(), TransactionService.SCAN_PAGE_ROWS);
            PayloadWriter w = start(TxnOp.SCAN, 128).putString(table);
            TransactionService.putNullable(w, next);
            TransactionService.putNullable(w, to);
            w.putVarInt(wanted);
            PayloadReader r = join(call(node, w));
            int n = r.getCount(2);
            for (int i = 0; i < n; i++) {
                rows.add(new Row(r.getBytes(), r.getBytes()));
            }
            if (n < wanted || rows.size() >= limit) {
                return rows;
            }
            byte[] last = rows.get(rows.size() - 1).key();
            next = Arrays.copyOf(last, last.length + 1); // the smallest key after the last one
        }
    }

    /**
     * Counts {@code node} among this transaction's participants: something other than this object
     * (a pipeline running on that node) reads its rows there within this transaction, which the
     * commit must then validate.
     */
    public void readsOn(String node) {
        checkActive();
        touched.add(node);
    }

    /**
     * Buffers a write of {@code key} (and {@code row}, unless a delete) of {@code table} on {@code node}.
     * A write to a copy of another node's partition ({@link ClusterSpec#isReplicaName}) is not
     * counted among the rows {@link #changed}: its owner's is.
     */
    @Override
    public void write(String node, String table, TransactionalWrite mode, byte[] key, byte[] row) {
        checkActive();
        touched.add(node);
        writers.add(node);
        if (isLocal(node)) {
            boolean wrote = local.write(id, table, mode, key, row);
            changed += wrote && !ClusterSpec.isReplicaName(table) ? 1 : 0;
            return;
        }
        WriteBatch b = batches.computeIfAbsent(node + "\u0000" + table + "\u0000" + mode.ordinal(),
                k -> new WriteBatch(node, table, mode));
        b.add(key, row);
        if (b.bytes.length() >= WRITE_BATCH_BYTES) {
            b.send();
        }
    }

    /** Sends every buffered write and returns the rows the writes so far changed (inserted, updated, deleted). */
    public long changed() {
        sendWrites(null);
        for (CompletableFuture<Long> f : sentWrites) {
            changed += join(f);
        }
        sentWrites.clear();
        return changed;
    }

    /** The node that logs the decision: the coordinator's own when it writes there (one network round less), else the first writer. */
    private String decider() {
        return local != null && writers.contains(local.id()) ? local.id() : writers.first();
    }

    /**
     * Commits on every node or on none; returns the commit timestamp.
     *
     * @throws TransactionAbortedException     a conflict aborted it everywhere: running it again may succeed
     * @throws CommitOutcomeUnknownException   the decider did not answer while deciding
     * @throws RemoteException                 a node failed or could not be reached before the decision: aborted
     */
    @Override
    public long commit() {
        checkActive();
        List<String> nodes = new ArrayList<>(touched);
        if (nodes.size() == 2 && local != null && writers.contains(local.id())) {
            finished = true;
            return commitBesideOneVoter(nodes);
        }
        try {
            changed();
        } catch (RuntimeException e) {
            abort();
            throw e;
        }
        finished = true;
        if (nodes.isEmpty()) {
            return 0;
        }
        if (nodes.size() == 1) {
            return failingAborts(nodes, () -> join(call(nodes.get(0), start(TxnOp.COMMIT_ONE, 24))).getLong());
        }
        long ts = failingAborts(nodes, () -> {
            long max = 0;
            for (PayloadReader r : joinAll(nodes, node -> start(TxnOp.LOCK, 24))) {
                max = Math.max(max, r.getLong());
            }
            return max;
        });
        if (writers.isEmpty()) { // read only: every node validates its reads, and that is all
            failingAborts(nodes, () -> joinAll(nodes, node -> start(TxnOp.PREPARE, 48).putLong(ts).putString("")));
            return ts;
        }
        String decider = decider();
        List<String> voters = nodes.stream().filter(n -> !n.equals(decider)).toList();
        failingAborts(nodes, () -> joinAll(voters, node -> start(TxnOp.PREPARE, 48).putLong(ts).putString(decider)));
        decideAndTell(decider, ts);
        return ts;
    }

    /**
     * The commit of a transaction coordinated on a node it writes, with one other node: the
     * coordinator's node locks its writes first, then the other node takes its buffered writes, locks
     * them and votes in one request ({@link TxnOp#LOCK_PREPARE}), sent right behind the writes: two
     * network rounds fewer than the general commit.
     */
    private long commitBesideOneVoter(List<String> nodes) {
        String decider = local.id();
        String voter = nodes.get(0).equals(decider) ? nodes.get(1) : nodes.get(0);
        long ts = failingAborts(nodes, () -> {
            sendWrites(null); // the voter's lane takes them before the vote that follows on the same connection
            long floor = join(call(decider, start(TxnOp.LOCK, 24))).getLong();
            CompletableFuture<PayloadReader> vote = call(voter, start(TxnOp.LOCK_PREPARE, 48).putLong(floor)
                    .putString(decider));
            try {
                changed();
            } catch (RuntimeException e) {
                vote.exceptionally(t -> null).join(); // the voter refuses to vote: an earlier step failed
                throw e;
            }
            return join(vote).getLong();
        });
        decideAndTell(decider, ts);
        return ts;
    }

    /**
     * The decision, then the other writers learn it; once they all have, the decider may forget it.
     * A decider in process logs the decision in its open group of commits: the others learn it once
     * that is flushed.
     */
    private void decideAndTell(String decider, long ts) {
        List<String> learners = writers.stream().filter(n -> !n.equals(decider)).toList();
        decide(decider, ts, learners);
        if (isLocal(decider)) {
            local.whenDurable(() -> tell(decider, learners));
        } else {
            tell(decider, learners);
        }
    }

    private void tell(String decider, List<String> learners) {
        List<CompletableFuture<PayloadReader>> told = new ArrayList<>();
        for (String node : learners) {
            told.add(call(node, start(TxnOp.COMMIT, 24)));
        }
        // off the network thread the last answer completes on: telling the decider may have to connect first
        CompletableFuture.allOf(told.toArray(CompletableFuture[]::new)).whenCompleteAsync((v, e) -> {
            if (e == null) {
                call(decider, new PayloadWriter().putBytesRaw(TransactionService.applied(id, learners)));
            } // else the decider tells the ones that did not hear it
        });
    }

    /** The decider's step: its record is the decision. An answer lost on the way is asked for again. */
    private void decide(String decider, long ts, List<String> learners) {
        PayloadWriter w = start(TxnOp.DECIDE, 64).putLong(ts).putVarInt(learners.size());
        learners.forEach(w::putString);
        try {
            join(call(decider, w));
            return;
        } catch (TransactionAbortedException e) {
            abortOn(learners);
            throw e;
        } catch (RuntimeException e) {
            LOG.warn("transaction {}: the decider, node {}, did not answer its decision ({}); asking it", id, decider,
                    e.getMessage());
            PayloadReader status;
            try {
                status = join(call(decider, start(TxnOp.STATUS, 24)));
            } catch (RuntimeException again) {
                throw new CommitOutcomeUnknownException("transaction " + id + ": node " + decider + " decides its commit "
                        + "and did not answer (" + e.getMessage() + "); the outcome is settled when it is back", e);
            }
            byte outcome = status.get();
            if (outcome == TransactionService.DECIDING) {
                throw new CommitOutcomeUnknownException("transaction " + id + ": node " + decider + " decides its commit "
                        + "and has not made it durable yet (" + e.getMessage() + ")", e);
            }
            if (outcome == TransactionService.ABORTED) {
                abortOn(learners);
                throw new TransactionAbortedException("transaction " + id + " aborted: node " + decider
                        + " failed while deciding (" + e.getMessage() + ")");
            }
        }
    }

    /** Runs a commit step; when it fails, the transaction is aborted on every node it reached, then the failure goes on. */
    private <T> T failingAborts(List<String> nodes, java.util.function.Supplier<T> step) {
        try {
            return step.get();
        } catch (RuntimeException e) {
            abortOn(nodes);
            throw e;
        }
    }

    /** Aborts on every node reached: nothing of it stays. Safe to call more than once. */
    @Override
    public void abort() {
        finished = true;
        batches.clear();
        abortOn(new ArrayList<>(touched));
    }

    private void abortOn(List<String> nodes) {
        List<CompletableFuture<PayloadReader>> done = new ArrayList<>();
        for (String node : nodes) {
            done.add(call(node, start(TxnOp.ABORT, 24)));
        }
        for (CompletableFuture<PayloadReader> f : done) {
            try {
                f.join();
            } catch (CompletionException e) {
                // a node that cannot be told aborts it by itself: it asks the decider, or its coordinator times out
                LOG.debug("transaction {}: abort not delivered: {}", id, e.getMessage());
            }
        }
    }

    private void sendWrites(String node) {
        for (WriteBatch b : batches.values()) {
            if (node == null || b.node.equals(node)) {
                b.send();
            }
        }
    }

    /** One node's buffered writes of one mode to one table. */
    private final class WriteBatch {
        final String node;
        final String table;
        final TransactionalWrite mode;
        PayloadWriter bytes = new PayloadWriter(4096);
        int count;

        WriteBatch(String node, String table, TransactionalWrite mode) {
            this.node = node;
            this.table = table;
            this.mode = mode;
        }

        void add(byte[] key, byte[] row) {
            bytes.putBytes(key);
            if (mode != TransactionalWrite.DELETE) {
                bytes.putBytes(row);
            }
            count++;
        }

        void send() {
            if (count == 0) {
                return;
            }
            byte[] body = bytes.toByteArray();
            PayloadWriter w = start(TxnOp.WRITE, body.length + 64).putString(table).put(mode.ordinal())
                    .putVarInt(count).putBytesRaw(body);
            bytes = new PayloadWriter(4096);
            count = 0;
            boolean counted = !ClusterSpec.isReplicaName(table);
            sentWrites.add(call(node, w).thenApply(r -> counted ? r.getLong() : 0L));
        }
    }

    private PayloadWriter start(TxnOp op, int capacity) {
        return new PayloadWriter(capacity).put(op.code()).putLong(id.high()).putLong(id.low());
    }

    private PayloadReader[] joinAll(List<String> nodes, java.util.function.Function<String, PayloadWriter> request) {
        List<CompletableFuture<PayloadReader>> calls = new ArrayList<>();
        for (String node : nodes) {
            calls.add(call(node, request.apply(node)));
        }
        PayloadReader[] answers = new PayloadReader[calls.size()];
        RuntimeException first = null;
        for (int i = 0; i < answers.length; i++) {
            try {
                answers[i] = join(calls.get(i));
            } catch (RuntimeException e) {
                first = first == null ? e : first;
            }
        }
        if (first != null) {
            throw first;
        }
        return answers;
    }

    private boolean isLocal(String node) {
        return local != null && node.equals(local.id());
    }

    private CompletableFuture<PayloadReader> call(String node, PayloadWriter request) {
        touched.add(node);
        if (local != null && node.equals(local.id())) {
            try {
                return CompletableFuture.completedFuture(local.call(request.toByteArray()));
            } catch (RuntimeException e) {
                return CompletableFuture.failedFuture(e);
            }
        }
        if (local != null && Thread.currentThread() == runner) {
            local.beforeWaitingOnAnotherNode();
        }
        try {
            return peers.client(node).callAwaited(OpCode.TXN, request.toByteArray()).thenApply(f -> f.reader());
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /** The answer, a node's CONFLICT as the {@link TransactionAbortedException} it is (for any engine's steps). */
    public static <T> T join(CompletableFuture<T> f) {
        try {
            return f.join();
        } catch (CompletionException e) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            if (cause instanceof RemoteException re && re.code() == ErrorCode.CONFLICT) {
                throw new TransactionAbortedException(re.getMessage());
            }
            if (cause instanceof RuntimeException re) {
                throw re;
            }
            throw e;
        }
    }

    private void checkActive() {
        if (finished) {
            throw new IllegalStateException("transaction " + id + " has already committed or aborted");
        }
    }

    /** The nodes this transaction reached so far, by name. */
    @Override
    public List<String> nodes() {
        return List.copyOf(touched);
    }
}
