package org.oooengine.core.htap;

import java.util.Collection;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import org.oooengine.core.txn.TransactionId;

/**
 * The two-phase commits a pair of analytical copies took from the feed, by the number the copies
 * gave each commit: what a cut across nodes asks of a pin (which of these transactions does it
 * show, which come after it). Holds the latest {@link #MAX_KEPT}; a pin older than those cannot be
 * part of a cut.
 */
final class ShownDistributed {
    static final int MAX_KEPT = 1 << 18;

    private final ConcurrentSkipListMap<Long, TransactionId> bySeq = new ConcurrentSkipListMap<>();
    private final Map<TransactionId, Long> seqOf = new ConcurrentHashMap<>();
    /** The lowest number still known: below it, nothing can be told. */
    private volatile long horizon;

    /** Commit number {@code seq} is two-phase transaction {@code id}: noted before scans can see it. */
    void note(long seq, TransactionId id) {
        bySeq.put(seq, id);
        seqOf.put(id, seq);
        while (bySeq.size() > MAX_KEPT) {
            Map.Entry<Long, TransactionId> oldest = bySeq.pollFirstEntry();
            horizon = oldest.getKey();
            seqOf.remove(oldest.getValue());
        }
    }

    /** The number of commit {@code id} here, or -1 when it was not taken from the feed (yet). */
    long seqOf(TransactionId id) {
        return seqOf.getOrDefault(id, -1L);
    }

    /** Adds to {@code out} the two-phase transactions numbered after {@code asOf}. */
    void after(long asOf, Collection<TransactionId> out) {
        requireKnown(asOf);
        out.addAll(bySeq.tailMap(asOf, false).values());
    }

    void requireKnown(long asOf) {
        if (asOf < horizon) {
            throw new IllegalStateException("a pin of the analytical copies is older than the last " + MAX_KEPT
                    + " two-phase commits they took; run the statement again");
        }
    }
}
