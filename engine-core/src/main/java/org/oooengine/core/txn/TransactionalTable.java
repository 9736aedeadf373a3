package org.oooengine.core.txn;

import java.nio.charset.StandardCharsets;
import java.util.NavigableMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.function.BiConsumer;

/**
 * The shared tuples of a transactional table, ordered by key. Transactions read and write them
 * through {@link Transaction}; nothing here takes a lock or a shared counter. A deleted row stays
 * as a tuple without a value, so a later insert still changes a version readers validated.
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
        tuple(new Key(key)).reset(value);
    }

    /** Every key with its committed value (null when deleted); call only while no transaction commits. */
    void forEachCommitted(BiConsumer<byte[], byte[]> action) {
        tuples.forEach((k, t) -> action.accept(k.bytes(), t.value()));
    }
}
