package org.oooengine.core.txn;

import java.util.concurrent.ThreadLocalRandom;

/**
 * Names a transaction that spans nodes, the same on every participant: 128 bits, random in the
 * high half for the process that began it and counting in the low half, so ids never meet.
 */
public record TransactionId(long high, long low) {
    private static final long PROCESS = ThreadLocalRandom.current().nextLong();
    private static final java.util.concurrent.atomic.AtomicLong NEXT = new java.util.concurrent.atomic.AtomicLong(
            ThreadLocalRandom.current().nextLong() >>> 1);

    /** A new id, unique across processes. */
    public static TransactionId next() {
        return new TransactionId(PROCESS, NEXT.incrementAndGet());
    }

    @Override
    public String toString() {
        return String.format("%016x%016x", high, low);
    }
}
