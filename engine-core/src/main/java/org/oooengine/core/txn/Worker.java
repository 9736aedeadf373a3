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

    private record PendingAck(long lsn, Runnable ack) {
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
    private final List<Tuple> heldLocks = new ArrayList<>();
    private final ArrayDeque<PendingAck> pending = new ArrayDeque<>();
    private final List<Runnable> groupAcks = new ArrayList<>();
    private int groupCount;
    private long groupStart;
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
            // Everything it read was durable: locked (unflushed) tuples are never read.
            ack.run();
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
        groupAcks.add(ack);
        if (groupFull()) {
            flushNlrGroup();
        }
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
        return groupCount >= protocol.groupSize() || now - groupStart > GROUP_TIMEOUT_NANOS;
    }

    private void flushNlrGroup() {
        wal.flush();
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

    /**
     * Flushes an open group and waits until every commit of this worker is acknowledged. Under
     * ELR that waits for the other workers to flush the records these commits depend on.
     */
    public void flush() {
        if (protocol.holdsLocksAcrossTransactions()) {
            if (groupCount > 0 || !heldLocks.isEmpty()) {
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
