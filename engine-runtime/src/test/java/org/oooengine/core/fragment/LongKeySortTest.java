package org.oooengine.core.fragment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Sorting on keys read into longs puts rows in exactly the order, ties included, that sorting
 * them with {@link SortKey#order} does; keys whose values do not fit longs alike are refused.
 */
class LongKeySortTest {
    /** (int or null, long, date or null, decimal of scale 2, row number). */
    private static List<Object[]> rows(int n, long seed) {
        Random random = new Random(seed);
        List<Object[]> rows = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            rows.add(new Object[] {random.nextInt(8) == 0 ? null : random.nextInt(30), (long) random.nextInt(1000) - 500,
                    random.nextInt(9) == 0 ? null : LocalDate.ofEpochDay(9000 + random.nextInt(40)),
                    BigDecimal.valueOf(random.nextInt(20_000) - 10_000, 2), i});
        }
        return rows;
    }

    @Test
    void ordersAsTheComparatorDoesTiesIncluded() {
        List<List<SortKey>> orders = List.of(
                List.of(new SortKey(0, true, true)),
                List.of(new SortKey(0, false, false), new SortKey(3, true, false)),
                List.of(new SortKey(2, true, false), new SortKey(1, false, true)),
                List.of(new SortKey(3, false, true)),
                List.of(new SortKey(2, false, true), new SortKey(0, true, false), new SortKey(1, true, true)));
        for (int n : new int[] {0, 1, 2, 23, 25, 1000, 30_000}) {
            for (List<SortKey> keys : orders) {
                List<Object[]> expected = rows(n, n);
                expected.sort(SortKey.order(keys));
                List<Object[]> sorted = rows(n, n);
                assertTrue(LongKeySort.sort(sorted, keys));
                for (int i = 0; i < n; i++) {
                    assertEquals(expected.get(i)[4], sorted.get(i)[4], keys + " at " + i + " of " + n);
                }
            }
        }
    }

    @Test
    void refusesKeysThatDoNotAllFitLongsAlike() {
        List<Object[]> mixed = new ArrayList<>(List.of(new Object[] {new BigDecimal("1.5")}, new Object[] {new BigDecimal("1.25")}));
        Object[] first = mixed.get(0);
        assertFalse(LongKeySort.sort(mixed, List.of(new SortKey(0, true, true))), "two scales");
        assertSame(first, mixed.get(0), "left as they were");
        assertFalse(LongKeySort.sort(new ArrayList<>(List.of(new Object[] {"b"}, new Object[] {"a"})),
                List.of(new SortKey(0, true, true))), "strings");
        assertFalse(LongKeySort.sort(new ArrayList<>(List.of(new Object[] {1L}, new Object[] {LocalDate.EPOCH})),
                List.of(new SortKey(0, true, true))), "an integer and a date");
        assertFalse(LongKeySort.sort(new ArrayList<>(List.of(new Object[] {new BigDecimal("12345678901234567890")},
                new Object[] {BigDecimal.ONE.setScale(0)})), List.of(new SortKey(0, true, true))), "beyond a long");
    }
}
