package org.oooengine.core.txn;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * A worker thread's handle on the database: its own WAL buffer and file, and the commit protocol
 * (see {@link LogProtocol}). One thread at a time uses a worker; run one worker per thread.
 *
 * <p>{@link #execute} runs stored procedures with the protocol's full group semantics: the
 * acknowledgement callback runs once the commit is durable, possibly during a later call. Call
 * {@link #flush} when the worker runs out of work so that open groups are flushed and every
 * pending acknowledgement is delivered. {@link #run} and {@link Transaction#commit} return only
 * after their commit is durable, flushing an open group if need be.
 */
public final class Worker implements AutoCloseable {
    private static final Runnable NO_ACK = () -> { };
    /**
     * A group older than this is flushed at the next commit even if not full, so a slow stream of
     * transactions is not acknowledged late. An idle worker does not flush by itself: call {@link #flush}.
     */
    static final long GROUP_TIMEOUT_NANOS = 1_000_000;
    /** {@link #GROUP_TIMEOUT_NANOS}, but for tests that need a group to stay open however slow the machine. */
    private long groupTimeoutNanos = GROUP_TIMEOUT_NANOS;

    private record PendingAck(long lsn, Runnable ack) {
    }

    private record Shipment(long commitTs, TransactionId distributed, List<Transaction.Write> writes) {
    }

    private final TransactionalDatabase db;
    private final int id;
    private final LogProtocol protocol;
    private final WalFile wal;
    private final SharedWal shared;
    /**
     * ELR: every LSN up to this value that this worker has or will ever write is durable. While
     * the buffer holds no unflushed record the worker publishes MAX_VALUE, so an idle worker does
     * not hold back other workers' acknowledgements.
     */
    final AtomicLong durableThrough = new AtomicLong(Long.MAX_VALUE);
    /**
     * NLR group: tuples this worker's committed, not yet flushed transactions keep locked. Its own
     * later transactions may read and overwrite them (its WAL is one file, flushed in order: a later
     * record is never durable without the earlier one); no other worker sees them until the flush.
     */
    private final java.util.Set<Tuple> heldLocks = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
    private final ArrayDeque<PendingAck> pending = new ArrayDeque<>();
    private final List<Runnable> groupAcks = new ArrayList<>();
    /** NLR group: the commits installed under held locks, shipped at the flush that releases them. */
    private final List<Shipment> groupShipments = new ArrayList<>();
    private int groupCount;
    private long groupStart;
    /** NLR: records appended since the last flush that hold no locks (a prepared transaction's commit). */
    private boolean unflushedRecords;
    private boolean unflushed;
    private boolean closed;

    Worker(TransactionalDatabase db, int id, LogProtocol protocol, WalFile wal, SharedWal shared) {
        this.db = db;
        this.id = id;
        this.protocol = protocol;
        this.wal = wal;
        this.shared = shared;
    }

    public int id() {
        return id;
    }

    public Transaction begin() {
        checkOpen();
        return new Transaction(this);
    }

    /**
     * Runs {@code procedure} until it commits and returns how many attempts it took;
     * {@code onDurable} runs (on this thread) once the commit is durable.
     *
     * @throws TransactionAbortedException after {@link Transactions#DEFAULT_ATTEMPTS} aborts
     */
    public int execute(StoredProcedure procedure, Runnable onDurable) {
        return Transactions.retry(this::begin, (tx, attempt) -> {
            procedure.run(tx);
            commit(tx, onDurable);
            return attempt;
        }, this::afterAbort, Transactions.DEFAULT_ATTEMPTS);
    }

    /** Runs {@code body} until it commits, and returns its result once the commit is durable. */
    public <T> T run(Function<Transaction, T> body) {
        return Transactions.retry(this::begin, (tx, attempt) -> {
            T result = body.apply(tx);
            tx.commit();
            return result;
        }, this::afterAbort, Transactions.DEFAULT_ATTEMPTS);
    }

    long commitAndWait(Transaction tx) {
        long ts;
        try {
            ts = commit(tx, NO_ACK);
        } catch (TransactionAbortedException e) {
            afterAbort();
            throw e;
        }
        flush();
        return ts;
    }

    /** Validation, logging and write phase as the protocol orders them. */
    private long commit(Transaction tx, Runnable ack) {
        long ts = tx.lockAndValidate();
        if (protocol.release() == LogProtocol.Release.NLR) {
            commitNlr(tx, ts, ack);
        } else if (protocol.sharedWal()) {
            commitSharedWal(tx, ts, ack);
        } else {
            commitElr(tx, ts, ack);
        }
        return ts;
    }

    /** Flush, then install and unlock: readers only ever see durable data, so no LSN is needed. */
    private void commitNlr(Transaction tx, long ts, Runnable ack) {
        if (tx.readOnly()) {
            // What it read was durable, but for what this worker's own open group holds: that group's flush
            whenDurable(ack);
            return;
        }
        wal.append(ts, tx.lockedWrites());
        if (protocol.groupSize() == 1) {
            wal.flush();
            tx.installAndUnlock(ts);
            ack.run();
            return;
        }
        tx.installKeepingLocks(ts, heldLocks);
        keepForShipping(ts, null, tx.lockedWrites());
        groupAcks.add(ack);
        if (groupFull()) {
            flushNlrGroup();
        }
    }

    /**
     * Keeps a commit installed under held locks for shipping at the group's flush. Asked after the
     * install: a feed opened later reads its rows after it, so a commit not kept is not missed.
     */
    private void keepForShipping(long ts, TransactionId distributed, List<Transaction.Write> writes) {
        if (db.shipping()) {
            groupShipments.add(new Shipment(ts, distributed, writes));
        } else if (distributed != null) {
            db.wontShow(distributed);
        }
    }

    /** Ships a commit whose writes are installed and still locked (see {@link CommitFeed}). */
    void ship(long ts, TransactionId distributed, List<Transaction.Write> writes) {
        db.ship(ts, distributed, writes);
    }

    /** Counts a transaction into the group; true when the group should be flushed now. */
    private boolean groupFull() {
        if (protocol.groupSize() == 1) {
            return true;
        }
        long now = System.nanoTime();
        if (groupCount++ == 0) {
            groupStart = now;
        }
        return groupCount >= protocol.groupSize() || now - groupStart > groupTimeoutNanos;
    }

    /** Flushes the log; under NLR whatever waited for a flush (group commits, their locks, learned commits) is done. */
    private void flushNlrGroup() {
        wal.flush();
        unflushedRecords = false;
        for (Shipment c : groupShipments) { // durable now, and no one else has seen them
            db.ship(c.commitTs(), c.distributed(), c.writes());
        }
        groupShipments.clear();
        for (Tuple t : heldLocks) {
            t.unlock();
        }
        heldLocks.clear();
        groupCount = 0;
        for (Runnable ack : groupAcks) {
            ack.run();
        }
        groupAcks.clear();
    }

    /** LSN, install and unlock, then flush (per transaction or per group); acknowledge in LSN order. */
    private void commitElr(Transaction tx, long ts, Runnable ack) {
        if (tx.readOnly()) {
            // What it read may not be durable yet; anything it read has an LSN up to the current one.
            pending.add(new PendingAck(db.lsn.get(), ack));
            acknowledgeDurable();
            return;
        }
        if (!unflushed) {
            // Before taking an LSN: from now on this worker may hold unflushed records above this value.
            durableThrough.set(db.lsn.get());
        }
        long lsn = db.lsn.incrementAndGet();
        wal.append(lsn, tx.lockedWrites());
        unflushed = true;
        tx.installAndUnlock(ts);
        pending.add(new PendingAck(lsn, ack));
        if (groupFull()) {
            flushElr();
        }
        acknowledgeDurable();
    }

    private void flushElr() {
        wal.flush();
        groupCount = 0;
        unflushed = false;
        durableThrough.set(Long.MAX_VALUE);
    }

    private void acknowledgeDurable() {
        if (pending.isEmpty()) {
            return;
        }
        long min = db.minDurableLsn();
        while (!pending.isEmpty() && pending.peekFirst().lsn() <= min) {
            pending.pollFirst().ack().run();
        }
    }

    private void commitSharedWal(Transaction tx, long ts, Runnable ack) {
        long lsn;
        if (tx.readOnly()) {
            lsn = shared.lastAppended();
        } else {
            lsn = shared.append(tx.lockedWrites());
            tx.installAndUnlock(ts);
        }
        shared.flushThrough(lsn);
        ack.run();
    }

    // ---- Two-phase commit across nodes (NLR protocols only: what readers see is durable) ----
    //
    // The transaction runs on one worker per participating node. Phase one locks each
    // participant's writes and gathers the lowest commit timestamp each allows; the commit
    // timestamp is their maximum. Phase two validates every participant's reads at that timestamp
    // and logs the others' votes (prepare records); then the deciding participant validates its
    // own and logs the decision with its writes, and the rest learn it.

    /**
     * Phase one: locks the write set (in the global order, waiting briefly like a commit) and
     * returns the lowest commit timestamp this participant allows. The locks stay until {@link
     * #prepare}, {@link #decide} or {@link Transaction#abort}.
     *
     * @throws TransactionAbortedException when a lock was not had in time; nothing stays locked
     */
    public long lock(Transaction tx) {
        requireTwoPhase();
        flush(); // an nlr group's held locks go first: never wait on a lock holding others
        tx.lockWriteSet();
        return tx.commitTimestamp();
    }

    /**
     * As {@link #lock}, but never waits for another transaction's lock: empty, with nothing locked,
     * when one holds a row of the write set. For a thread that the holder may need in order to
     * finish (a node's lane, where its commit may be queued): it tries again later.
     */
    public java.util.OptionalLong tryLock(Transaction tx) {
        requireTwoPhase();
        flush();
        return tx.lockWriteSet(false) ? java.util.OptionalLong.of(tx.commitTimestamp()) : java.util.OptionalLong.empty();
    }

    /**
     * Phase two on a participant that does not decide: validates the reads at {@code commitTs};
     * with writes, logs them in a durable prepare record naming {@code decider} and keeps them
     * locked as a {@link PreparedTransaction} until the outcome comes. Returns it, or null for a
     * participant that only read (it is done, and releases nothing).
     *
     * @throws TransactionAbortedException when a read is no longer valid; the locks are released
     */
    public PreparedTransaction prepare(Transaction tx, TransactionId id, long commitTs, String decider) {
        tx.validateReadsOrRelease(commitTs);
        if (tx.readOnly()) {
            return null;
        }
        List<Transaction.Write> writes = tx.handOverLocks();
        wal.append(WalRecord.Kind.PREPARE, commitTs, id, List.of(decider), writes);
        flushNlrGroup(); // what this worker's group waited for is durable now too
        PreparedTransaction p = new PreparedTransaction(id, commitTs, decider, writes);
        db.prepared(p);
        return p;
    }

    /**
     * Phase two on the deciding participant: validates its reads at {@code commitTs}, then logs the
     * commit — its own writes and the {@code others} that voted for it — and installs. Once this
     * returns, the transaction has committed everywhere; the others learn it by {@link
     * #commitPrepared} (told, or asking {@link TransactionalDatabase#decision}).
     *
     * @throws TransactionAbortedException when a read is no longer valid: the transaction aborts
     */
    public void decide(Transaction tx, TransactionId id, long commitTs, List<String> others) {
        tx.validateReadsOrRelease(commitTs);
        db.mayCommit(id);
        wal.append(WalRecord.Kind.DECIDE_COMMIT, commitTs, id, others, tx.lockedWrites());
        flushNlrGroup();
        db.decided(new Decision(id, commitTs, others));
        tx.installAndUnlock(commitTs, id);
    }

    /**
     * As {@link #decide}, but under a group protocol the decision joins this worker's open group:
     * its writes are installed and stay locked until the flush, and only then is it decided
     * ({@link TransactionalDatabase#decision}; until then {@link TransactionalDatabase#isDeciding}).
     * Tell the others with {@link #whenDurable}: a crash before the flush loses the decision with the
     * writes, and the others, prepared, hear "aborted" when they ask.
     *
     * @throws TransactionAbortedException when a read is no longer valid: the transaction aborts
     */
    public void decideInGroup(Transaction tx, TransactionId id, long commitTs, List<String> others) {
        if (!protocol.holdsLocksAcrossTransactions()) {
            decide(tx, id, commitTs, others);
            return;
        }
        tx.validateReadsOrRelease(commitTs);
        wal.append(WalRecord.Kind.DECIDE_COMMIT, commitTs, id, others, tx.lockedWrites());
        Decision d = new Decision(id, commitTs, others);
        db.mayCommit(id);
        db.deciding(id);
        tx.installKeepingLocks(commitTs, heldLocks);
        keepForShipping(commitTs, id, tx.lockedWrites());
        groupAcks.add(() -> db.decided(d));
        if (groupFull()) {
            flushNlrGroup();
        }
    }

    /**
     * Phase three: the transaction prepared here committed. Logs that, installs its writes and
     * releases them. Returns false when it is not prepared here (learned already).
     */
    public boolean commitPrepared(TransactionId id) {
        boolean prepared = commitPreparedInGroup(id);
        flush();
        return prepared;
    }

    /**
     * As {@link #commitPrepared}, but under a group protocol the record only joins this worker's
     * next flush ({@link #whenDurable} runs after it), so that the commits a participant learns share
     * flushes. The writes show at once: the decider keeps the decision until this participant says
     * it applied it (after that flush), so a crash before the flush leaves the transaction in doubt
     * here, and the decider still answers "committed".
     */
    public boolean commitPreparedInGroup(TransactionId id) {
        requireTwoPhase();
        PreparedTransaction p = db.resolved(id);
        if (p == null) {
            return false;
        }
        wal.append(WalRecord.Kind.COMMIT_PREPARED, p.commitTimestamp(), id, List.of(), List.of());
        if (protocol.holdsLocksAcrossTransactions()) {
            unflushedRecords = true;
        } else {
            wal.flush();
        }
        p.install(db);
        return true;
    }

    /** Phase three: the transaction prepared here aborted; its locks go. Returns false when it is not prepared here. */
    public boolean abortPrepared(TransactionId id) {
        requireTwoPhase();
        PreparedTransaction p = db.resolved(id);
        if (p == null) {
            return false;
        }
        // Not flushed: a crash before the next flush leaves it in doubt, and the decider says "aborted" again.
        wal.append(WalRecord.Kind.ABORT_PREPARED, p.commitTimestamp(), id, List.of(), List.of());
        p.unlock();
        db.wontShow(id);
        return true;
    }

    private void requireTwoPhase() {
        checkOpen();
        if (protocol.release() != LogProtocol.Release.NLR) {
            throw new IllegalStateException("two-phase commit needs an nlr protocol (readers see only durable rows), not "
                    + protocol);
        }
    }

    /**
     * Flushes an open group and waits until every commit of this worker is acknowledged. Under
     * ELR that waits for the other workers to flush the records these commits depend on.
     */
    public void flush() {
        if (protocol.holdsLocksAcrossTransactions()) {
            if (groupPending()) {
                flushNlrGroup();
            }
        } else if (protocol.release() == LogProtocol.Release.ELR && !protocol.sharedWal()) {
            if (unflushed) {
                flushElr();
            }
            while (!pending.isEmpty()) {
                acknowledgeDurable();
                if (!pending.isEmpty()) {
                    Thread.onSpinWait();
                    Thread.yield();
                }
            }
        }
    }

    /** NLR group: whether commits or records of this worker wait for a flush. */
    private boolean groupPending() {
        return groupCount > 0 || !heldLocks.isEmpty() || unflushedRecords;
    }

    /** Whether {@code t} is locked by this worker's unflushed group (its own earlier commits). */
    boolean holds(Tuple t) {
        return !heldLocks.isEmpty() && heldLocks.contains(t);
    }

    /**
     * Runs {@code ack} once every commit of this worker so far is durable: now, or at the group
     * flush that makes them so ({@link #flush} when the worker runs out of work).
     */
    public void whenDurable(Runnable ack) {
        if (protocol.holdsLocksAcrossTransactions() && groupPending()) {
            groupAcks.add(ack);
        } else {
            ack.run();
        }
    }

    /** Keeps a group open until it is full or flushed, whatever its age (tests on a loaded machine). */
    void keepGroupsOpen() {
        groupTimeoutNanos = Long.MAX_VALUE;
    }

    /**
     * Commits without waiting for durability: under an NLR group protocol the commit joins the open
     * group (use {@link #whenDurable} to learn when it is durable); otherwise as {@link Transaction#commit}.
     */
    long commitInGroup(Transaction tx) {
        if (!protocol.holdsLocksAcrossTransactions()) {
            return commitAndWait(tx);
        }
        try {
            return commit(tx, NO_ACK);
        } catch (TransactionAbortedException e) {
            afterAbort();
            throw e;
        }
    }

    /** NLR group deadlock avoidance: never wait on a lock while holding locks across transactions. */
    void beforeWaitingOnLock() {
        if (protocol.holdsLocksAcrossTransactions() && !heldLocks.isEmpty()) {
            flushNlrGroup();
        }
    }

    /** NLR group: an abort flushes the group and releases its locks, as a failed lock would. */
    private void afterAbort() {
        beforeWaitingOnLock();
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("worker " + id + " is closed");
        }
    }

    /** Flushes and acknowledges everything, then closes the WAL file. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        flush();
        closed = true;
        if (wal != null) {
            wal.close();
        }
        db.workerClosed(this);
    }

    /** Closes the file without flushing, as a crash would leave it. */
    void abandon() {
        closed = true;
        if (wal != null) {
            try {
                wal.abandon();
            } catch (RuntimeException ignored) {
                // the process is going away in the scenario this simulates
            }
        }
    }
}
