package org.oooengine.core.fragment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.vector.Batch;
import org.oooengine.core.vector.LongVector;
import org.oooengine.core.vector.ObjectVector;
import org.oooengine.core.vector.Vector;

/**
 * A shuffle by group sends each row to the owner {@link KeyHash} names: a producer sending column
 * batches must name the one a producer sending the same rows boxed names, and values that group
 * as equal (5, 5L, 5.00; 1.5 and 1.50) must go to one owner.
 */
class KeyHashTest {
    private static final SqlType MONEY = SqlType.decimal(15, 2);
    private static final int OWNERS = 7;

    @Test
    void aBatchGoesWhereItsRowsBoxedGo() {
        int n = 5_000;
        long[] keys = new long[n];
        long[] cents = new long[n];
        long[] days = new long[n];
        Object[] names = new Object[n];
        LongVector money = new LongVector(cents, null);
        for (int i = 0; i < n; i++) {
            keys[i] = i * 7919L - 1_000_000;
            // whole amounts, amounts ending in zero cents, negatives, zero
            cents[i] = i % 5 == 0 ? (i - 2500) * 100L : i % 3 == 0 ? i * 10L : -i * 37L;
            days[i] = 9_000 + i % 2_500;
            names[i] = i % 11 == 0 ? null : "Customer#" + i % 1_000;
            if (i % 13 == 0) {
                money.setNull(i);
            }
        }
        SqlType[] types = {SqlType.BIGINT, MONEY, SqlType.DATE, SqlType.STRING};
        Vector[] columns = {new LongVector(keys, null), money, new LongVector(days, null), new ObjectVector(names)};
        int[] sample = new int[n / 2];
        for (int k = 0; k < sample.length; k++) {
            sample[k] = (k * 31) % n; // positions out of order, as a filter's selection leaves them
        }
        Batch batch = new Batch(columns, sample, sample.length);
        int[] key = {3, 1, 0, 2};
        int[] owners = KeyHash.buckets(batch, key, types, 0, OWNERS);
        Set<Integer> used = new HashSet<>();
        for (int k = 0; k < sample.length; k++) {
            int i = sample[k];
            Object[] row = new Object[4];
            for (int c = 0; c < 4; c++) {
                row[c] = columns[c].box(i, types[c]);
            }
            assertEquals(KeyHash.bucket(row, key, 0, OWNERS), owners[k], "row " + i);
            used.add(owners[k]);
        }
        assertEquals(OWNERS, used.size(), "rows spread over every owner");
    }

    @Test
    void valuesThatGroupAsEqualHashAlike() {
        int[] one = {0};
        assertEquals(bucketOf(5L), bucketOf(5));
        assertEquals(bucketOf(5L), bucketOf(new BigDecimal("5.00")));
        assertEquals(bucketOf(500L), bucketOf(new BigDecimal("5E+2")));
        assertEquals(bucketOf(new BigDecimal("1.5")), bucketOf(new BigDecimal("1.50")));
        assertEquals(bucketOf(0L), bucketOf(new BigDecimal("0.00")));
        assertEquals(bucketOf(new BigDecimal("-12.30")), decimalBucket(-1230, 2));
        assertEquals(bucketOf(new BigDecimal("-12.3")), decimalBucket(-12300, 3));
        assertEquals(bucketOf(LocalDate.of(1995, 3, 15)), bucketOf(LocalDate.of(1995, 3, 15)));
        assertTrue(KeyHash.bucket(new Object[] {null}, one, 0, OWNERS) >= 0);
    }

    private static int bucketOf(Object v) {
        return KeyHash.bucket(new Object[] {v}, new int[] {0}, 0, 1 << 20);
    }

    private static int decimalBucket(long unscaled, int scale) {
        Batch b = Batch.of(new Vector[] {new LongVector(new long[] {unscaled}, null)}, 1);
        return KeyHash.buckets(b, new int[] {0}, new SqlType[] {SqlType.decimal(18, scale)}, 0, 1 << 20)[0];
    }
}
