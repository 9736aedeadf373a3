package org.oooengine.core.sql.expr;

import com.dynatrace.hash4j.distinctcount.HyperLogLog;
import com.dynatrace.hash4j.hashing.Hasher64;
import com.dynatrace.hash4j.hashing.Hashing;
import java.math.BigDecimal;
import java.util.Base64;

/**
 * A HyperLogLog sketch of the distinct values of a column: what {@code approx_count_distinct}
 * keeps per group and ANALYZE TABLE per column. Sketches of parts of the rows merge into the
 * sketch of all of them, so each node sketches its own rows and one node merges them. Values
 * equal in SQL hash alike whatever their Java type ({@link Values#groupKey}).
 */
public final class DistinctSketch {
    /** 2^12 registers: about 1.6% standard error, 4 KiB of state. */
    private static final int PRECISION = 12;
    private static final Hasher64 HASH = Hashing.komihash5_0();

    private final HyperLogLog sketch;

    private DistinctSketch(HyperLogLog sketch) {
        this.sketch = sketch;
    }

    public static DistinctSketch empty() {
        return new DistinctSketch(HyperLogLog.create(PRECISION));
    }

    /** A sketch as {@link #encoded} wrote it. */
    public static DistinctSketch decode(String encoded) {
        return new DistinctSketch(HyperLogLog.wrap(Base64.getDecoder().decode(encoded)));
    }

    /** Adds a non-NULL value. */
    public void add(Object value) {
        sketch.add(hash(Values.groupKey(value)));
    }

    public void merge(DistinctSketch other) {
        sketch.add(other.sketch);
    }

    /** The estimated number of distinct values added, rounded. */
    public long estimate() {
        return Math.round(sketch.getDistinctCountEstimate());
    }

    /** The registers as text, to travel in a partial row as a string does. */
    public String encoded() {
        return Base64.getEncoder().encodeToString(sketch.getState());
    }

    private static long hash(Object key) {
        if (key instanceof Long l) {
            return HASH.hashLongToLong(l);
        } else if (key instanceof Double d) {
            return HASH.hashLongToLong(Double.doubleToLongBits(d == 0 ? 0.0 : d)); // -0.0 equals 0.0
        } else if (key instanceof String s) {
            return HASH.hashCharsToLong(s);
        } else if (key instanceof BigDecimal d) {
            return HASH.hashCharsToLong(d.toPlainString()); // trailing zeros stripped by groupKey
        }
        return HASH.hashCharsToLong(key.getClass().getSimpleName() + ":" + key); // dates, times, booleans, arrays, maps
    }
}
