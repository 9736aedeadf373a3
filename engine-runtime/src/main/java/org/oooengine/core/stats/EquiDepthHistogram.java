package org.oooengine.core.stats;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.oooengine.core.types.DataType;

/**
 * Cuts {@code n} values, fed in ascending order, into equi-depth buckets: a bucket ends at the
 * value of rank (i + 1) * n / buckets, or, when that value repeats, at its last copy — so no two
 * buckets share a bound, and a value held by more rows than a bucket's depth makes fewer buckets.
 */
public final class EquiDepthHistogram {
    private final long n;
    private final int buckets;
    private final DataType type;
    private final List<ColumnStatistics.Bucket> out;
    private long rank;
    private long bucketStart;
    /** Buckets whose end rank has passed: the next ends at rank {@code (cuts + 1) * n / buckets - 1} or later. */
    private long cuts;
    /** The value a bucket is to end at once its copies are all in; null while none is due. */
    private Object closing;

    public EquiDepthHistogram(long n, int buckets, DataType type) {
        this.n = n;
        this.buckets = (int) Math.min(buckets, n);
        this.type = type;
        this.out = new ArrayList<>(this.buckets);
    }

    /** The next value in ascending order. */
    public void add(Object value) {
        if (closing != null && !Objects.equals(closing, value)) {
            cut();
        }
        long r = rank++;
        if (closing == null && r >= (cuts + 1) * n / buckets - 1) {
            closing = value;
        }
    }

    public List<ColumnStatistics.Bucket> buckets() {
        if (rank != n) {
            throw new IllegalStateException(rank + " values fed of the " + n + " announced");
        }
        if (closing != null) {
            cut();
        }
        return List.copyOf(out);
    }

    private void cut() {
        out.add(new ColumnStatistics.Bucket(type.format(closing), rank - bucketStart));
        bucketStart = rank;
        closing = null;
        while ((cuts + 1) * n / buckets - 1 < rank) {
            cuts++; // ends passed over by the copies of one value
        }
    }
}
