package org.oooengine.hive.server;

import java.util.ArrayList;
import java.util.List;

/**
 * Rows for one FetchResults answer, as consecutive pieces of the lists the result was kept in;
 * {@code startOffset} is the 0-based index of the first one.
 */
record RowBatch(long startOffset, List<List<Object[]>> pieces) {
    int size() {
        return pieces.stream().mapToInt(List::size).sum();
    }

    /** The pieces' rows, in order, in one list. */
    static List<Object[]> rowsOf(List<List<Object[]>> pieces) {
        if (pieces.size() == 1) {
            return pieces.get(0);
        }
        List<Object[]> rows = new ArrayList<>();
        pieces.forEach(rows::addAll);
        return rows;
    }
}
