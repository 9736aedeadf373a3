package org.oooengine.cluster.bench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Latencies in 100 ns buckets up to 100 ms; longer ones are kept exactly. Not thread-safe. */
public final class LatencyHistogram {
    private static final int BUCKET_NANOS = 100;
    private static final int BUCKETS = 1_000_000;
    private final int[] counts = new int[BUCKETS];
    private final List<Long> overflow = new ArrayList<>();
    private long total;

    public void record(long nanos) {
        long b = nanos / BUCKET_NANOS;
        if (b < BUCKETS) {
            counts[(int) b]++;
        } else {
            overflow.add(nanos);
        }
        total++;
    }

    public long count() {
        return total;
    }

    public void addTo(LatencyHistogram sum) {
        for (int i = 0; i < BUCKETS; i++) {
            sum.counts[i] += counts[i];
        }
        sum.overflow.addAll(overflow);
        sum.total += total;
    }

    /** The latency at quantile {@code q} in microseconds (upper edge of its bucket); 0 when empty. */
    public double quantileMicros(double q) {
        if (total == 0) {
            return 0;
        }
        long rank = (long) Math.ceil(q * total);
        long seen = 0;
        for (int i = 0; i < BUCKETS; i++) {
            seen += counts[i];
            if (seen >= rank) {
                return (i + 1) * BUCKET_NANOS / 1000.0;
            }
        }
        List<Long> sorted = new ArrayList<>(overflow);
        Collections.sort(sorted);
        int idx = (int) Math.min(sorted.size() - 1, rank - seen - 1);
        return sorted.get(Math.max(0, idx)) / 1000.0;
    }
}
