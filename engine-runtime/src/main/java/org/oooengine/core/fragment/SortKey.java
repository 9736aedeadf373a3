package org.oooengine.core.fragment;

import java.util.Comparator;
import java.util.List;
import org.oooengine.core.sql.expr.Values;

/** One key of an ORDER BY: a column of the rows sorted, its direction, and where nulls go. */
public record SortKey(int column, boolean ascending, boolean nullsFirst) {
    /** The order of rows by {@code keys}, the first deciding, SQL values compared as SQL compares them. */
    public static Comparator<Object[]> order(List<SortKey> keys) {
        SortKey[] all = keys.toArray(new SortKey[0]);
        if (all.length == 1) {
            SortKey only = all[0];
            return (x, y) -> only.compareValues(x[only.column], y[only.column]);
        }
        return (x, y) -> { // a loop, not a chain of comparators: rows are compared millions of times
            for (SortKey k : all) {
                int c = k.compareValues(x[k.column], y[k.column]);
                if (c != 0) {
                    return c;
                }
            }
            return 0;
        };
    }

    /** How value {@code a} of this key's column orders against {@code b}: negative when it comes first. */
    int compareValues(Object a, Object b) {
        if (a == null || b == null) {
            if (a == b) {
                return 0;
            }
            return (a == null) == nullsFirst ? -1 : 1;
        }
        int c = Values.compare(a, b);
        return ascending ? c : -c;
    }
}
