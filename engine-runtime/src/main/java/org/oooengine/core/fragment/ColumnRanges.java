package org.oooengine.core.fragment;

/**
 * The least and greatest stored value (integers, dates as epoch days, unscaled decimals) of the
 * columns of a group of rows (a row group of a file, a group of a columnar copy), where known: what
 * a scan needs to skip the group when its filters hold for none of its rows; and, where the group
 * keeps a bloom filter of a column, whether it may hold a value.
 */
public interface ColumnRanges {
    /** Whether the group's least and greatest value of {@code column} are known. */
    boolean has(int column);

    long min(int column);

    long max(int column);

    /**
     * Whether the group may hold {@code value} in {@code column} — a stored value of an integer or
     * date column (a {@code Long}), or a string: false only where something kept with the group (a
     * bloom filter) says it holds none; true by default.
     */
    default boolean mayHold(int column, Object value) {
        return true;
    }
}
