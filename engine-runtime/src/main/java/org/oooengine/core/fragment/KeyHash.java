package org.oooengine.core.fragment;

import org.oooengine.core.sql.expr.Values;

/**
 * A hash of some columns' SQL values, alike for values that group and join as equal
 * ({@link Values#groupKey}: 5, 5L and 5.00 hash alike), mixed by MurmurHash3's finaliser so that
 * its low bits do not follow whatever hash spread the rows before (a table over its nodes, a level
 * of spill partitions above), which would leave most buckets empty. A null counts as 0.
 */
final class KeyHash {
    private KeyHash() {
    }

    /** The hash of {@code columns} of {@code row}, under {@code seed} (another seed, another spread). */
    static int of(Object[] row, int[] columns, int seed) {
        int h = 1 + seed * 0x9e3779b9;
        for (int c : columns) {
            Object v = row[c];
            h = 31 * h + (v == null ? 0 : Values.groupKey(v).hashCode());
        }
        h ^= h >>> 16;
        h *= 0x85ebca6b;
        h ^= h >>> 13;
        h *= 0xc2b2ae35;
        h ^= h >>> 16;
        return h;
    }

    /** The bucket of {@code buckets} that {@link #of} puts the row in. */
    static int bucket(Object[] row, int[] columns, int seed, int buckets) {
        return Math.floorMod(of(row, columns, seed), buckets);
    }
}
