package org.oooengine.core.exec;

import java.util.Arrays;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counts rows and folds them into an order-independent checksum, so that runs in different modes
 * can be compared without keeping their results.
 */
public final class CountingSink implements RowSink {
    private final LongAdder rows = new LongAdder();
    private final LongAdder checksum = new LongAdder();

    @Override
    public void accept(Object[] row) {
        rows.increment();
        long h = Arrays.hashCode(row);
        checksum.add(h * 0x9E3779B97F4A7C15L);
    }

    public long rows() {
        return rows.sum();
    }

    public long checksum() {
        return checksum.sum();
    }
}
