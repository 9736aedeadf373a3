package org.oooengine.core.txn;

import java.nio.charset.StandardCharsets;
import java.util.NavigableMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.function.BiConsumer;

/**
 * The shared tuples of a transactional table, ordered by key. Transactions read and write them
 * through {@link Transaction}; nothing here takes a lock or a shared counter. A deleted row stays
 * as a tuple without a value in the hash index, so a later insert still changes a version readers
 * validated, but leaves the key order: scans do not walk over the rows deleted before them (a
 * queue's consumed head, say), and an insert of the key after such a scan is a phantom to it, as
 * a first insert is.
 */
public final class TransactionalTable {
    private final String name;
    private final byte[] nameBytes;
    /** Point lookups: a hash probe is a cache miss or two, a skip-list search one per level. */
    private final ConcurrentHashMap<Key, Tuple> byKey = new ConcurrentHashMap<>();
    /** The same tuples in key order, for range scans. */
    private final ConcurrentSkipListMap<Key, Tuple> tuples = new ConcurrentSkipListMap<>();

    public TransactionalTable(String name) {
        this.name = name;
        this.nameBytes = name.getBytes(StandardCharsets.UTF_8);
    }

    public String name() {
        return name;
    }

    byte[] nameBytes() {
        return nameBytes;
    }

    /** The tuple of a key, created as an absent placeholder on first use. */
    Tuple tuple(Key key) {
        Tuple t = byKey.get(key);
        // Ordered before anyone can see the tuple, so a scan never misses a tuple that has a value.
        return t != null ? t : byKey.computeIfAbsent(key, k -> {
            Tuple created = Tuple.absent();
            tuples.put(k, created);
            return created;
        });
    }

    /**
     * Keeps the key order right as {@code value} is installed in {@code t}, whose lock the caller
     * holds: a delete takes the tuple out, an insert puts it back before its value shows, so a
     * scan never misses a row that has a value.
     */
    void ordering(Key key, Tuple t, byte[] value) {
        if (value == null && !t.unordered()) {
            tuples.remove(key, t);
            t.unordered(true);
        } else if (value != null && t.unordered()) {
            tuples.put(key, t);
            t.unordered(false);
        }
    }

    /**
     * Puts a deleted row's tuple back in the key order for a transaction about to insert its key,
     * so that the transaction's own scans see its insert. Without the tuple's lock: a tuple in the
     * order without a value is only a deleted row the scans pass over, and the install puts it
     * back for good.
     */
    void orderForInsert(Key key, Tuple t) {
        if (t.unordered()) {
            tuples.putIfAbsent(key, t);
        }
    }

    /** Tuples with {@code from <= key < to}; a null bound is open. */
    NavigableMap<Key, Tuple> range(Key from, Key to) {
        if (from == null && to == null) {
            return tuples;
        }
        if (from == null) {
            return tuples.headMap(to, false);
        }
        if (to == null) {
            return tuples.tailMap(from, true);
        }
        return from.compareTo(to) >= 0 ? new ConcurrentSkipListMap<>() : tuples.subMap(from, true, to, false);
    }

    /** Sets a row outside any transaction (bulk load, recovery); null deletes it. */
    void reset(byte[] key, byte[] value) {
        Key k = new Key(key);
        Tuple t = tuple(k);
        ordering(k, t, value);
        t.reset(value);
    }

    /**
     * Every row with a value, in key order, each value read while its tuple is unlocked (see {@link
     * TransactionalDatabase#readRows}).
     *
     * @throws TransactionAbortedException when a tuple stays locked past {@code deadlineNanos}
     */
    void forEachUnlockedRow(BiConsumer<byte[], byte[]> action, long deadlineNanos) {
        for (java.util.Map.Entry<Key, Tuple> e : tuples.entrySet()) {
            byte[] value = unlockedValue(e.getValue(), deadlineNanos);
            if (value != null) {
                action.accept(e.getKey().bytes(), value);
            }
        }
    }

    private byte[] unlockedValue(Tuple t, long deadlineNanos) {
        while (true) {
            long word = t.word();
            if (!TimestampWord.locked(word)) {
                byte[] value = t.value();
                if (t.word() == word) {
                    return value;
                }
            } else if (System.nanoTime() > deadlineNanos) {
                throw new TransactionAbortedException("a row of table " + name + " stayed locked while its rows were read");
            } else {
                Thread.onSpinWait();
                Thread.yield();
            }
        }
    }

    /** Every key with its committed value (null when deleted); call only while no transaction commits. */
    void forEachCommitted(BiConsumer<byte[], byte[]> action) {
        byKey.forEach((k, t) -> action.accept(k.bytes(), t.value())); // deleted rows too, out of the key order
    }
}
