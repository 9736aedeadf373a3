package org.oooengine.core.fragment;

import java.math.BigDecimal;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.sql.expr.Values;
import org.oooengine.core.vector.Batch;
import org.oooengine.core.vector.LongVector;
import org.oooengine.core.vector.ObjectVector;
import org.oooengine.core.vector.Vector;

/**
 * A hash of some columns' SQL values, alike for values that group and join as equal
 * ({@link Values#groupKey}: 5, 5L and 5.00 hash alike), mixed by MurmurHash3's finaliser so that
 * its low bits do not follow whatever hash spread the rows before (a table over its nodes, a level
 * of spill partitions above), which would leave most buckets empty. A null counts as 0. Rows and
 * column batches hash alike: a shuffle's producers may send either.
 */
final class KeyHash {
    private KeyHash() {
    }

    /** The hash of {@code columns} of {@code row}, under {@code seed} (another seed, another spread). */
    static int of(Object[] row, int[] columns, int seed) {
        int h = 1 + seed * 0x9e3779b9;
        for (int c : columns) {
            h = 31 * h + valueHash(row[c]);
        }
        return finish(h);
    }

    /** The bucket of {@code buckets} that {@link #of} puts the row in. */
    static int bucket(Object[] row, int[] columns, int seed, int buckets) {
        return Math.floorMod(of(row, columns, seed), buckets);
    }

    /**
     * Per row of {@code batch} (its k-th at {@code batch.positions()[k]}), the bucket of
     * {@code buckets} that {@link #bucket} puts it in, column c being of type {@code types[c]}:
     * integers and decimals hashed from the vectors' longs, without boxing them.
     */
    static int[] buckets(Batch batch, int[] columns, SqlType[] types, int seed, int buckets) {
        int n = batch.size();
        int[] pos = batch.positions();
        int[] h = new int[n];
        java.util.Arrays.fill(h, 1 + seed * 0x9e3779b9);
        for (int c : columns) {
            Vector v = batch.column(c);
            SqlType type = types[c];
            if (v instanceof LongVector l && isInteger(type)) {
                for (int k = 0; k < n; k++) {
                    int i = pos[k];
                    h[k] = 31 * h[k] + (l.isNull(i) ? 0 : Long.hashCode(l.values[i]));
                }
            } else if (v instanceof LongVector l && type != null && type.kind() == SqlType.Kind.DECIMAL) {
                for (int k = 0; k < n; k++) {
                    int i = pos[k];
                    h[k] = 31 * h[k] + (l.isNull(i) ? 0 : decimalHash(l.values[i], type.scale()));
                }
            } else if (v instanceof ObjectVector o) {
                for (int k = 0; k < n; k++) {
                    h[k] = 31 * h[k] + valueHash(o.values[pos[k]]);
                }
            } else {
                for (int k = 0; k < n; k++) {
                    h[k] = 31 * h[k] + valueHash(v.box(pos[k], type));
                }
            }
        }
        for (int k = 0; k < n; k++) {
            h[k] = Math.floorMod(finish(h[k]), buckets);
        }
        return h;
    }

    private static boolean isInteger(SqlType type) {
        return type != null && switch (type.kind()) {
            case TINYINT, SMALLINT, INT, BIGINT -> true;
            default -> false;
        };
    }

    /** One value's part of the hash. */
    private static int valueHash(Object v) {
        if (v == null) {
            return 0;
        }
        if (v instanceof Long l) {
            return Long.hashCode(l);
        }
        if (v instanceof Integer i) {
            return Long.hashCode(i);
        }
        if (v instanceof BigDecimal d) {
            return decimalHash(d);
        }
        return Values.groupKey(v).hashCode();
    }

    /**
     * A decimal's part: a whole one's as the integer's (5.00 as 5), any other's from its value
     * without trailing zeros, so that 1.50 and 1.5 hash alike.
     */
    private static int decimalHash(BigDecimal d) {
        BigDecimal s = d.stripTrailingZeros();
        if (s.scale() <= 0 && s.precision() - s.scale() <= 18) {
            return Long.hashCode(s.longValueExact());
        }
        java.math.BigInteger unscaled = s.unscaledValue();
        return unscaled.bitLength() < 64 ? 31 * Long.hashCode(unscaled.longValue()) + s.scale() : s.hashCode();
    }

    /** {@link #decimalHash(BigDecimal)} of the decimal whose unscaled value at {@code scale} is {@code unscaled}. */
    static int decimalHash(long unscaled, int scale) {
        while (scale > 0 && unscaled % 10 == 0) {
            unscaled /= 10;
            scale--;
        }
        return scale == 0 ? Long.hashCode(unscaled) : 31 * Long.hashCode(unscaled) + scale;
    }

    private static int finish(int h) {
        h ^= h >>> 16;
        h *= 0x85ebca6b;
        h ^= h >>> 13;
        h *= 0xc2b2ae35;
        h ^= h >>> 16;
        return h;
    }
}
