package org.oooengine.core.fragment;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.List;

/**
 * Sorts rows by keys whose values are all integers, all dates or all decimals of one scale (up to
 * 18 digits), as an ORDER BY or a window's PARTITION BY and ORDER BY mostly are: each key's values
 * are read once into a {@code long[]}, and the rows' positions are merge sorted comparing those,
 * not the rows' objects through {@link org.oooengine.core.sql.expr.Values#compare}. The order is
 * the one {@link SortKey#order} gives, stable as {@link List#sort} is. Keys of other values
 * (strings, doubles, timestamps, decimals of mixed scales) are left to {@link List#sort}.
 */
final class LongKeySort {
    /** Runs this short are sorted by insertion before they are merged. */
    private static final int RUN = 24;

    private final long[][] values;
    private final boolean[][] nulls;
    private final boolean[] ascending;
    private final boolean[] nullsFirst;

    private LongKeySort(int keys) {
        values = new long[keys][];
        nulls = new boolean[keys][];
        ascending = new boolean[keys];
        nullsFirst = new boolean[keys];
    }

    /** What sorting {@code rows} rows by {@code keys} keys takes beside them: the keys' longs and null flags, the positions. */
    static long bytes(int rows, int keys) {
        return (long) rows * (9L * keys + 16);
    }

    /** Sorts {@code rows} in place by {@code keys}; false (rows untouched) when a key's values do not all fit longs alike. */
    static boolean sort(List<Object[]> rows, List<SortKey> keys) {
        int n = rows.size();
        if (n < 2) {
            return true;
        }
        LongKeySort sort = new LongKeySort(keys.size());
        for (int k = 0; k < keys.size(); k++) {
            if (!sort.read(k, rows, keys.get(k))) {
                return false;
            }
        }
        int[] order = new int[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        sort.mergeSort(order, new int[n], 0, n);
        Object[][] before = rows.toArray(new Object[0][]);
        for (int i = 0; i < n; i++) {
            rows.set(i, before[order[i]]);
        }
        return true;
    }

    /** Reads key {@code k}'s values; false when they are not all integers, all dates or all decimals of one scale. */
    private boolean read(int k, List<Object[]> rows, SortKey key) {
        int n = rows.size();
        long[] v = new long[n];
        boolean[] isNull = null;
        Class<?> kind = null;
        int scale = 0;
        for (int i = 0; i < n; i++) {
            Object x = rows.get(i)[key.column()];
            if (x == null) {
                if (isNull == null) {
                    isNull = new boolean[n];
                }
                isNull[i] = true;
                continue;
            }
            // any mix of integer types compares by value, as Values.compare orders them
            Class<?> xKind = x instanceof Long || x instanceof Integer || x instanceof Short || x instanceof Byte
                    ? Long.class : x.getClass();
            if (kind == null) {
                kind = xKind;
                scale = x instanceof BigDecimal d ? d.scale() : 0;
            } else if (kind != xKind) {
                return false;
            }
            if (kind == Long.class) {
                v[i] = ((Number) x).longValue();
            } else if (kind == LocalDate.class) {
                v[i] = ((LocalDate) x).toEpochDay();
            } else if (kind == BigDecimal.class) {
                BigDecimal d = (BigDecimal) x;
                if (d.scale() != scale || d.precision() > 18) {
                    return false; // (precision 18 at most: the unscaled value fits a long)
                }
                v[i] = d.unscaledValue().longValue();
            } else {
                return false;
            }
        }
        values[k] = v;
        nulls[k] = isNull;
        ascending[k] = key.ascending();
        nullsFirst[k] = key.nullsFirst();
        return true;
    }

    /** As {@link SortKey#compareValues}, key by key, of the rows at {@code a} and {@code b}. */
    private int compare(int a, int b) {
        for (int k = 0; k < values.length; k++) {
            boolean[] isNull = nulls[k];
            int c;
            if (isNull != null && (isNull[a] || isNull[b])) {
                if (isNull[a] == isNull[b]) {
                    continue;
                }
                c = isNull[a] == nullsFirst[k] ? -1 : 1;
            } else {
                c = Long.compare(values[k][a], values[k][b]);
                if (!ascending[k]) {
                    c = -c;
                }
            }
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }

    /** Sorts {@code order[from, to)} stably, {@code spare} as large as {@code order}. */
    private void mergeSort(int[] order, int[] spare, int from, int to) {
        if (to - from <= RUN) {
            for (int i = from + 1; i < to; i++) {
                int x = order[i];
                int j = i - 1;
                while (j >= from && compare(order[j], x) > 0) {
                    order[j + 1] = order[j];
                    j--;
                }
                order[j + 1] = x;
            }
            return;
        }
        int mid = (from + to) >>> 1;
        mergeSort(order, spare, from, mid);
        mergeSort(order, spare, mid, to);
        if (compare(order[mid - 1], order[mid]) <= 0) {
            return; // already in order
        }
        System.arraycopy(order, from, spare, from, to - from);
        int i = from;
        int j = mid;
        for (int out = from; out < to; out++) {
            // the left run's first on ties: stable
            order[out] = j >= to || i < mid && compare(spare[i], spare[j]) <= 0 ? spare[i++] : spare[j++];
        }
    }
}
