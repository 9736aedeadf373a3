package org.oooengine.core.fragment;

import java.util.Comparator;
import java.util.List;
import org.oooengine.core.sql.expr.Values;

/** One key of an ORDER BY: a column of the rows sorted, its direction, and where nulls go. */
public record SortKey(int column, boolean ascending, boolean nullsFirst) {
    /** The order of rows by {@code keys}, the first deciding, SQL values compared as SQL compares them. */
    public static Comparator<Object[]> order(List<SortKey> keys) {
        Comparator<Object[]> order = (x, y) -> 0;
        for (SortKey k : keys) {
            order = order.thenComparing(k::compare);
        }
        return order;
    }

    private int compare(Object[] x, Object[] y) {
        return compareValues(x[column], y[column]);
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
