package org.oooengine.cluster.bench.txn;

import java.util.Locale;

/** Which transaction engine a benchmark runs. */
public enum TxnEngineKind {
    /** TicToc with the per-worker WAL (this project). */
    OOO("ooo"),
    /** RocksDB's OptimisticTransactionDB. */
    ROCKSDB_OPTIMISTIC("rocksdb-optimistic"),
    /** RocksDB's TransactionDB (pessimistic, lock-based). */
    ROCKSDB_PESSIMISTIC("rocksdb-pessimistic");

    private final String label;

    TxnEngineKind(String label) {
        this.label = label;
    }

    public static TxnEngineKind parse(String text) {
        for (TxnEngineKind k : values()) {
            if (k.label.equals(text.trim().toLowerCase(Locale.ROOT))) {
                return k;
            }
        }
        throw new IllegalArgumentException("unknown engine '" + text + "': use ooo, rocksdb-optimistic or rocksdb-pessimistic");
    }

    @Override
    public String toString() {
        return label;
    }
}
