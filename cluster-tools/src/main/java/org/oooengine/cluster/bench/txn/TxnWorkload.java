package org.oooengine.cluster.bench.txn;

import java.util.Locale;

/**
 * The micro-benchmark workloads of the TicToc/P-WAL study. {@code U-k}: k updates
 * (read-modify-write of a counter) on distinct keys; {@code U-5R-5}: 5 updates plus 5 reads of the
 * same 5 tuples; {@code R-10}: 10 reads. Keys are drawn from a Zipf distribution.
 */
public record TxnWorkload(String name, int updates, int reads, boolean readsSameTuples) {
    public static TxnWorkload parse(String text) {
        String s = text.trim().toUpperCase(Locale.ROOT);
        switch (s) {
            case "U-1":
                return new TxnWorkload("U-1", 1, 0, false);
            case "U-10":
                return new TxnWorkload("U-10", 10, 0, false);
            case "U-5R-5":
            case "U-5/R-5":
                return new TxnWorkload("U-5R-5", 5, 5, true);
            case "R-10":
                return new TxnWorkload("R-10", 0, 10, false);
            default:
                throw new IllegalArgumentException("unknown workload '" + text + "': use U-1, U-10, U-5R-5 or R-10");
        }
    }

    /** Distinct keys a transaction touches. */
    public int keys() {
        return readsSameTuples ? Math.max(updates, reads) : updates + reads;
    }

    /** Whether the i-th of {@link #keys()} keys is updated (the others are only read). */
    public boolean updates(int i) {
        return i < updates;
    }

    @Override
    public String toString() {
        return name;
    }
}
