package org.oooengine.core.exec;

import java.util.function.Predicate;
import org.oooengine.core.types.DataType;

/** An inclusive range on one column: the predicate {@code low <= column <= high}. */
public record ColumnRange(String column, Object low, Object high) {
    @SuppressWarnings({"unchecked", "rawtypes"})
    public Predicate<Object[]> predicate(int position) {
        return row -> {
            Comparable v = (Comparable) row[position];
            return v != null && v.compareTo(low) >= 0 && v.compareTo(high) <= 0;
        };
    }

    public String describe(DataType type) {
        return column + " BETWEEN " + type.format(low) + " AND " + type.format(high);
    }
}
