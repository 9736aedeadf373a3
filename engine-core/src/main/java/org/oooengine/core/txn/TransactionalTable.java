package org.oooengine.core.txn;

import java.util.concurrent.ConcurrentSkipListMap;

/**
 * The shared tuples of a transactional table, ordered by key. Transactions read and write them
 * through {@link Transaction}; nothing here takes a lock or a shared counter.
 */
public final class TransactionalTable {
    private final String name;
    private final ConcurrentSkipListMap<Key, Tuple> tuples = new ConcurrentSkipListMap<>();

    public TransactionalTable(String name) {
        this.name = name;
    }

    public String name() {
        return name;
    }

    /** The tuple of a key, created as an absent placeholder on first use. */
    Tuple tuple(Key key) {
        Tuple t = tuples.get(key);
        return t != null ? t : tuples.computeIfAbsent(key, k -> Tuple.absent());
    }
}
