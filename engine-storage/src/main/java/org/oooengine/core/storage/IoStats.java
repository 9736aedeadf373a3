package org.oooengine.core.storage;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * Physical I/O counters of one store: reads (tree pages, and the column chunks of columnar copies),
 * bytes and the deepest queue the device saw.
 */
public final class IoStats {
    private final LongAdder pageReads = new LongAdder();
    private final LongAdder bytesRead = new LongAdder();
    private final AtomicInteger inflight = new AtomicInteger();
    private final AtomicInteger maxInflight = new AtomicInteger();

    void beginRead() {
        int now = inflight.incrementAndGet();
        maxInflight.accumulateAndGet(now, Math::max);
    }

    void endRead(int pages, long bytes) {
        inflight.decrementAndGet();
        pageReads.add(pages);
        bytesRead.add(bytes);
    }

    /** A column chunk of {@code bytes} read from a columnar copy, counted as one page read. */
    public void chunkRead(long bytes) {
        pageReads.increment();
        bytesRead.add(bytes);
    }

    public long pageReads() {
        return pageReads.sum();
    }

    public long bytesRead() {
        return bytesRead.sum();
    }

    /** Most reads that were outstanding at once since the last {@link #reset()}. */
    public int maxInflight() {
        return maxInflight.get();
    }

    public void reset() {
        pageReads.reset();
        bytesRead.reset();
        maxInflight.set(inflight.get());
    }
}
