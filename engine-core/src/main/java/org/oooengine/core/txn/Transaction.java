package org.oooengine.core.txn;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A TicToc transaction. Reads take consistent copies of tuples (with the wts and rts they had);
 * writes are buffered. {@link #commit} locks the write set in a global order, computes the commit
 * timestamp from the tuples alone — no shared counter — validates the read set against it,
 * extending read timestamps where that is safe, then installs the writes.
 *
 * <p>One thread uses a transaction; many transactions run at once.
 */
public final class Transaction {
    /** Spins on a locked tuple before giving up; committing transactions hold locks only briefly. */
    private static final int LOCK_SPINS = 100_000;

    private record Read(Tuple tuple, long wts, long rts, byte[] value) {
    }

    private record Write(TransactionalTable table, Key key, Tuple tuple, byte[] value) {
    }

    private static final Comparator<Write> LOCK_ORDER = Comparator.<Write, String>comparing(w -> w.table().name())
            .thenComparing(Write::key);

    private final Map<Tuple, Read> reads = new HashMap<>();
    private final Map<Tuple, Write> writes = new HashMap<>();
    private boolean finished;

    private Transaction() {
    }

    public static Transaction begin() {
        return new Transaction();
    }

    /** The row under {@code key}, or null; sees this transaction's own writes. */
    public byte[] get(TransactionalTable table, byte[] key) {
        checkActive();
        Tuple t = table.tuple(new Key(key));
        Write w = writes.get(t);
        if (w != null) {
            return w.value();
        }
        Read r = reads.get(t);
        if (r == null) {
            r = consistentRead(t);
            reads.put(t, r);
        }
        return r.value();
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
        Key k = new Key(key);
        Tuple t = table.tuple(k);
        writes.put(t, new Write(table, k, t, value));
    }

    /** Copies value and timestamps while the word stays the same and unlocked. */
    private static Read consistentRead(Tuple t) {
        for (int spin = 0; spin < LOCK_SPINS; spin++) {
            long before = t.word.get();
            if (TimestampWord.locked(before)) {
                Thread.onSpinWait();
                continue;
            }
            byte[] value = t.value();
            if (t.word.get() == before) {
                return new Read(t, TimestampWord.wts(before), TimestampWord.rts(before), value);
            }
        }
        throw new TransactionAbortedException("a tuple stayed locked while being read");
    }

    /**
     * Validates and commits; returns the commit timestamp.
     *
     * @throws TransactionAbortedException when a read is no longer valid at any timestamp the
     *                                     writes allow; nothing was written
     */
    public long commit() {
        checkActive();
        finished = true;
        List<Write> ordered = new ArrayList<>(writes.values());
        ordered.sort(LOCK_ORDER);
        int locked = 0;
        try {
            for (Write w : ordered) {
                lock(w.tuple());
                locked++;
            }
            long commitTs = commitTimestamp(ordered);
            validateReads(commitTs);
            for (Write w : ordered) {
                w.tuple().install(w.value(), commitTs);
            }
            return commitTs;
        } catch (TransactionAbortedException e) {
            for (int i = 0; i < locked; i++) {
                ordered.get(i).tuple().unlock();
            }
            throw e;
        }
    }

    /** Drops the buffered writes; nothing was visible to anyone. */
    public void abort() {
        finished = true;
        reads.clear();
        writes.clear();
    }

    private static void lock(Tuple t) {
        for (int spin = 0; spin < LOCK_SPINS; spin++) {
            long w = t.word.get();
            if (!TimestampWord.locked(w) && t.word.compareAndSet(w, TimestampWord.lock(w))) {
                return;
            }
            Thread.onSpinWait();
        }
        throw new TransactionAbortedException("could not lock a tuple of the write set");
    }

    /** After every written version's rts and at or after every read version's wts. */
    private long commitTimestamp(List<Write> locked) {
        long ts = 0;
        for (Write w : locked) {
            ts = Math.max(ts, TimestampWord.rts(w.tuple().word.get()) + 1);
        }
        for (Read r : reads.values()) {
            ts = Math.max(ts, r.wts());
        }
        return ts;
    }

    /** Each read must still be the current version at the commit timestamp; extend rts where needed. */
    private void validateReads(long commitTs) {
        for (Read r : reads.values()) {
            if (r.rts() >= commitTs) {
                continue;
            }
            while (true) {
                long w = r.tuple().word.get();
                if (TimestampWord.wts(w) != r.wts()) {
                    throw new TransactionAbortedException("a row read was overwritten");
                }
                if (TimestampWord.rts(w) >= commitTs) {
                    break;
                }
                if (TimestampWord.locked(w) && !writes.containsKey(r.tuple())) {
                    throw new TransactionAbortedException("a row read is being written by another transaction");
                }
                if (r.tuple().word.compareAndSet(w, TimestampWord.extend(w, commitTs))) {
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
