package org.oooengine.core.fragment;

import java.util.List;
import java.util.function.Predicate;

/**
 * Which groups of rows a scan skips (row groups and stripes of files, groups of a columnar copy):
 * those whose ranges show its leading filters hold for none of their rows. A file format that
 * judges groups by indexes of its own (ORC's row groups by their statistics and bloom filters) is
 * also given the filters' equalities of a column with a constant.
 */
@FunctionalInterface
public interface GroupFilter extends Predicate<ColumnRanges> {
    /** Skips nothing. */
    GroupFilter NONE = ranges -> false;

    /**
     * Column {@code column} equals {@code value}: a stored value of an integer, date or decimal
     * column (a {@code Long}), or a string.
     */
    record Equality(int column, Object value) {
    }

    /** The equalities every row read must meet (none by default). */
    default List<Equality> equalities() {
        return List.of();
    }
}
