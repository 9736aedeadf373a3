package org.oooengine.core.fragment;

/**
 * The least and greatest stored value (integers, dates as epoch days, unscaled decimals) of the
 * columns of a group of rows (a row group of a file, a group of a columnar copy), where known: what
 * a scan needs to skip the group when its filters hold for none of its rows.
 */
public interface ColumnRanges {
    /** Whether the group's least and greatest value of {@code column} are known. */
    boolean has(int column);

    long min(int column);

    long max(int column);
}
