package org.oooengine.core.txn;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A TicToc transaction. Reads take consistent copies of tuples (with the wts and rts they had);
 * writes are buffered. Committing locks the write set in a global order, computes the commit
 * timestamp from the tuples alone — no shared counter — validates the read set against it,
 * extending read timestamps where that is safe, then installs the writes.
 *
 * <p>A transaction begun on a {@link Worker} is logged by that worker's WAL and {@link #commit}
 * returns once it is durable; one begun with {@link #begin()} lives in memory only.
 *
 * <p>One thread uses a transaction; many transactions run at once.
 */
public final class Transaction {
    /** How long a read or a lock waits for another transaction's lock before giving up. */
    private static final long LOCK_WAIT_NANOS = 200_000_000L;
    /** Locks are held for microseconds; spin that long before yielding the core. */
    private static final long SPIN_NANOS = 20_000L;

    private record Read(Tuple tuple, long wts, long rts, byte[] value) {
    }

    /** A buffered write; what the WAL records. */
    record Write(TransactionalTable table, Key key, Tuple tuple, byte[] value) {
        /** Installs it at {@code commitTs}, the tuple staying locked (the caller holds the lock and releases it). */
        void installLocked(long commitTs) {
            table.ordering(key, tuple, value);
            tuple.installLocked(value, commitTs);
        }
    }

    /** A row returned by {@link #scanRange}. */
    public record KeyValue(byte[] key, byte[] value) {
    }

    /** What {@link #read(Tuple, boolean)} answers for a row another transaction holds locked, when told not to wait. */
    private static final byte[] LOCKED = new byte[0];

    private static final Comparator<Write> LOCK_ORDER = Comparator.<Write, String>comparing(w -> w.table().name())
            .thenComparing(Write::key);

    private final Worker worker;
    // sized for the tens of rows an OLTP transaction touches: growing them was a tenth of a TPC-C transaction's time
    private final Map<Tuple, Read> reads = new HashMap<>(64);
    private final Map<Tuple, Write> writes = new HashMap<>(32);
    private List<Write> lockedWrites = List.of();
    /** Whether the write set is locked and not yet installed (a two-phase commit between its phases). */
    private boolean holdsLocks;
    /** The write set's tuples this transaction locked itself (not those its worker's group held already). */
    private List<Tuple> lockedHere = List.of();
    private boolean finished;
    /** The last tuple looked up: a read-modify-write finds its tuple again without a second probe. */
    private TransactionalTable lastTable;
    private Key lastKey;
    private Tuple lastTuple;

    Transaction(Worker worker) {
        this.worker = worker;
    }

    /** An in-memory transaction, not logged. */
    public static Transaction begin() {
        return new Transaction(null);
    }

    /** The row under {@code key}, or null; sees this transaction's own writes. */
    public byte[] get(TransactionalTable table, byte[] key) {
        checkActive();
        return read(tuple(table, key));
    }

    private Tuple tuple(TransactionalTable table, byte[] key) {
        if (table == lastTable && Arrays.equals(key, lastKey.bytes())) {
            return lastTuple;
        }
        Key k = new Key(key);
        Tuple t = table.tuple(k);
        lastTable = table;
        lastKey = k;
        lastTuple = t;
        return t;
    }

    private byte[] read(Tuple t) {
        return read(t, true);
    }

    /** The row's value, or {@link #LOCKED} (by identity) when not {@code wait}ing and another transaction holds it locked. */
    private byte[] read(Tuple t, boolean wait) {
        Write w = writes.get(t);
        if (w != null) {
            return w.value();
        }
        Read r = reads.get(t);
        if (r == null) {
            r = consistentRead(t, wait);
            if (r == null) {
                return LOCKED;
            }
            reads.put(t, r);
        }
        return r.value();
    }

    /**
     * The rows with {@code fromKey <= key < toKey} in key order (a null bound is open), with this
     * transaction's own writes applied. Every row returned, and every deleted key in the range
     * the table knows of, joins the read set and is validated at commit like a {@link #get}. A
     * key inserted into the range for the first time by a concurrent transaction after the scan
     * is not detected: scans are serializable except for such phantoms.
     */
    public List<KeyValue> scanRange(TransactionalTable table, byte[] fromKey, byte[] toKey) {
        return scanRange(table, fromKey, toKey, Integer.MAX_VALUE);
    }

    /**
     * As {@link #scanRange(TransactionalTable, byte[], byte[])}, the first {@code limit} rows only:
     * the scan goes on from just after the last key returned.
     */
    public List<KeyValue> scanRange(TransactionalTable table, byte[] fromKey, byte[] toKey, int limit) {
        return scanRange(table, fromKey, toKey, limit, true);
    }

    /**
     * As {@link #scanRange(TransactionalTable, byte[], byte[], int)}, but never waits for another
     * transaction's lock: null when the scan meets a row locked by one (the rows read before it
     * stay in the read set). For a thread that the lock's holder may need in order to finish: its
     * caller waits elsewhere and scans again.
     */
    public List<KeyValue> scanRangeUnlessLocked(TransactionalTable table, byte[] fromKey, byte[] toKey, int limit) {
        return scanRange(table, fromKey, toKey, limit, false);
    }

    private List<KeyValue> scanRange(TransactionalTable table, byte[] fromKey, byte[] toKey, int limit, boolean wait) {
        checkActive();
        List<KeyValue> rows = new ArrayList<>();
        for (Map.Entry<Key, Tuple> e : table.range(fromKey == null ? null : new Key(fromKey),
                toKey == null ? null : new Key(toKey)).entrySet()) {
            if (rows.size() >= limit) {
                break;
            }
            byte[] value = read(e.getValue(), wait);
            if (value == LOCKED) {
                return null;
            }
            if (value != null) {
                rows.add(new KeyValue(e.getKey().bytes(), value));
            }
        }
        return rows;
    }

    public void put(TransactionalTable table, byte[] key, byte[] value) {
        if (value == null) {
            throw new IllegalArgumentException("a row value cannot be null; use delete");
        }
        write(table, key, value);
    }

    public void delete(TransactionalTable table, byte[] key) {
        write(table, key, null);
    }

    private void write(TransactionalTable table, byte[] key, byte[] value) {
        checkActive();
        Tuple t = tuple(table, key);
        if (value != null) {
            table.orderForInsert(lastKey, t);
        }
        writes.put(t, new Write(table, lastKey, t, value));
    }

    /**
     * Copies value and timestamps while the word stays the same and unlocked; null at once when
     * another transaction holds the lock and the caller does not {@code wait}.
     */
    private Read consistentRead(Tuple t, boolean wait) {
        long deadline = 0;
        while (true) {
            long before = t.word();
            if (!TimestampWord.locked(before) || heldByMyWorker(t)) {
                byte[] value = t.value();
                if (t.word() == before) {
                    return new Read(t, TimestampWord.wts(before), TimestampWord.rts(before), value);
                }
                continue;
            }
            if (!wait) {
                return null;
            }
            deadline = waitForLock(deadline, "a tuple stayed locked while being read");
        }
    }

    /**
     * One step of waiting on another transaction's lock. The first time, the worker gets to
     * release locks it holds across transactions, so two workers never wait on each other. Spins
     * briefly, then yields: with more threads than cores the lock holder may need this core.
     */
    private long waitForLock(long deadline, String reason) {
        long now = System.nanoTime();
        if (deadline == 0) {
            if (worker != null) {
                worker.beforeWaitingOnLock();
            }
            return now + LOCK_WAIT_NANOS;
        }
        if (now > deadline) {
            throw new TransactionAbortedException(reason);
        }
        if (deadline - now < LOCK_WAIT_NANOS - SPIN_NANOS) {
            Thread.yield();
        } else {
            Thread.onSpinWait();
        }
        return deadline;
    }

    /** Whether {@code t} is locked by this transaction's worker's unflushed group, which this transaction may read and write. */
    private boolean heldByMyWorker(Tuple t) {
        return worker != null && worker.holds(t);
    }

    /**
     * Commits without waiting for durability where the worker's protocol groups commits (the
     * worker's {@link Worker#whenDurable} says when it is durable); otherwise as {@link #commit}.
     */
    public long commitInGroup() {
        if (worker == null) {
            return commit();
        }
        return worker.commitInGroup(this);
    }

    /**
     * Validates and commits; returns the commit timestamp. On a worker, returns once the commit
     * is durable as the worker's protocol defines it.
     *
     * @throws TransactionAbortedException when a read is no longer valid at any timestamp the
     *                                     writes allow; nothing was written
     */
    public long commit() {
        if (worker != null) {
            return worker.commitAndWait(this);
        }
        long ts = lockAndValidate();
        installAndUnlock(ts);
        return ts;
    }

    /** Drops the buffered writes (releasing their locks, if a two-phase commit took them); nothing was visible to anyone. */
    public void abort() {
        releaseLocks();
        finished = true;
        reads.clear();
        writes.clear();
    }

    /**
     * Validation phase: locks the write set in global order, computes the commit timestamp and
     * validates the reads. On success the write set stays locked; on failure nothing is locked.
     */
    long lockAndValidate() {
        lockWriteSet();
        try {
            long commitTs = commitTimestamp();
            validateReads(commitTs);
            return commitTs;
        } catch (TransactionAbortedException e) {
            releaseLocks();
            throw e;
        }
    }

    /** Unlocks a write set locked and not installed; nothing when there is none. */
    void releaseLocks() {
        if (holdsLocks) {
            lockedHere.forEach(Tuple::unlock); // not those the worker's group holds: its flush releases them
            holdsLocks = false;
        }
        lockedWrites = List.of();
        lockedHere = List.of();
    }

    /** Locks the write set in global order (no deadlock); on failure nothing stays locked. */
    void lockWriteSet() {
        lockWriteSet(true);
    }

    /**
     * As {@link #lockWriteSet()}; unless {@code wait}, false at once when another transaction holds
     * a tuple of the write set: nothing stays locked, and the transaction may try again.
     */
    boolean lockWriteSet(boolean wait) {
        checkActive();
        List<Write> ordered = new ArrayList<>(writes.values());
        ordered.sort(LOCK_ORDER);
        List<Tuple> taken = new ArrayList<>(ordered.size());
        try {
            for (Write w : ordered) {
                if (!heldByMyWorker(w.tuple())) { // the worker's group holds it already, for this transaction too
                    if (!lock(w.tuple(), wait)) {
                        taken.forEach(Tuple::unlock);
                        return false;
                    }
                    taken.add(w.tuple());
                }
            }
        } catch (TransactionAbortedException e) {
            finished = true;
            taken.forEach(Tuple::unlock);
            throw e;
        }
        finished = true;
        lockedWrites = ordered;
        lockedHere = taken;
        holdsLocks = true;
        return true;
    }

    /** The locked write set in lock order, after {@link #lockAndValidate}. */
    List<Write> lockedWrites() {
        return lockedWrites;
    }

    boolean readOnly() {
        return writes.isEmpty();
    }

    /**
     * Write phase: every write becomes visible at {@code commitTs} and its lock is released; in
     * between, with all of them installed, the commit is shipped (see {@link CommitFeed}).
     */
    void installAndUnlock(long commitTs) {
        installAndUnlock(commitTs, null);
    }

    /** As above, for two-phase transaction {@code distributed} (null: one that ran here alone). */
    void installAndUnlock(long commitTs, TransactionId distributed) {
        for (Write w : lockedWrites) {
            w.installLocked(commitTs);
        }
        if (worker != null) {
            worker.ship(commitTs, distributed, lockedWrites);
        }
        for (Write w : lockedWrites) {
            w.tuple().unlock();
        }
        holdsLocks = false;
    }

    /** Write phase that keeps the locks; the caller releases them after its group flush. */
    void installKeepingLocks(long commitTs, java.util.Collection<Tuple> held) {
        for (Write w : lockedWrites) {
            w.installLocked(commitTs);
            held.add(w.tuple());
        }
        holdsLocks = false;
    }

    /** Hands the locked write set over to a prepared transaction, which releases it when its outcome is known. */
    List<Write> handOverLocks() {
        List<Write> handed = lockedWrites;
        holdsLocks = false;
        lockedWrites = List.of();
        lockedHere = List.of();
        return handed;
    }

    /** Validates the reads at {@code commitTs} with the write set locked; on failure releases it and throws. */
    void validateReadsOrRelease(long commitTs) {
        if (!holdsLocks && !writes.isEmpty()) {
            throw new IllegalStateException("validation needs the write set locked first");
        }
        try {
            validateReads(commitTs);
        } catch (TransactionAbortedException e) {
            releaseLocks();
            throw e;
        }
    }

    /** Locks {@code t}; unless {@code wait}, false at once when another transaction holds it. */
    private boolean lock(Tuple t, boolean wait) {
        long deadline = 0;
        while (true) {
            long w = t.word();
            if (!TimestampWord.locked(w) && t.casWord(w, TimestampWord.lock(w))) {
                return true;
            }
            if (!wait && TimestampWord.locked(w)) {
                return false;
            }
            deadline = waitForLock(deadline, "could not lock a tuple of the write set");
        }
    }

    /** After every written version's rts and at or after every read version's wts; the write set is locked. */
    long commitTimestamp() {
        long ts = 0;
        for (Write w : lockedWrites) {
            ts = Math.max(ts, TimestampWord.rts(w.tuple().word()) + 1);
        }
        for (Read r : reads.values()) {
            ts = Math.max(ts, r.wts());
        }
        return ts;
    }

    /**
     * Each read must still be the current version at the commit timestamp; extend rts where needed.
     * A row this transaction also writes is locked by it: it is only checked for an overwrite, never
     * extended. Extending it to the commit timestamp would tell a concurrent reader that the old
     * version is valid at that very timestamp, where this transaction installs the new one.
     */
    void validateReads(long commitTs) {
        for (Read r : reads.values()) {
            if (writes.containsKey(r.tuple())) {
                if (TimestampWord.wts(r.tuple().word()) != r.wts()) {
                    throw new TransactionAbortedException("a row read was overwritten");
                }
                continue;
            }
            if (r.rts() >= commitTs) {
                continue;
            }
            while (true) {
                long w = r.tuple().word();
                if (TimestampWord.wts(w) != r.wts()) {
                    throw new TransactionAbortedException("a row read was overwritten");
                }
                if (TimestampWord.rts(w) >= commitTs) {
                    break;
                }
                if (TimestampWord.locked(w) && !heldByMyWorker(r.tuple())) {
                    throw new TransactionAbortedException("a row read is being written by another transaction");
                }
                if (r.tuple().casWord(w, TimestampWord.extend(w, commitTs))) {
                    break;
                }
            }
        }
    }

    private void checkActive() {
        if (finished) {
            throw new IllegalStateException("the transaction has already committed or aborted");
        }
    }
}
