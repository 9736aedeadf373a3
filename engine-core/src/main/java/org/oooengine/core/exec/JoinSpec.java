package org.oooengine.core.exec;

import java.util.List;

/**
 * A two-table equi-join with a range predicate on the outer table: the shape of seed 004's OL and
 * PL joins. Every execution strategy (out-of-order, in-order, hash) runs the same spec.
 *
 * @param outerTable  the table the range applies to
 * @param outerRange  range on an indexed column of the outer table
 * @param outerJoin   join column of the outer table
 * @param innerTable  the probed table
 * @param innerJoin   join column of the inner table: its primary key's leading column or an indexed column
 * @param output      result columns as {@code table.column}
 */
public record JoinSpec(String outerTable, ColumnRange outerRange, String outerJoin, String innerTable,
                       String innerJoin, List<String> output) {
    public JoinSpec {
        output = List.copyOf(output);
    }
}
