package org.oooengine.core.fragment;

import java.util.List;
import java.util.function.Consumer;

/**
 * A sink of rows, one at a time, that also takes a list of them as it is: a chunk gathered from
 * the nodes column by column ({@link org.oooengine.core.wire.ColumnarRows.ChunkRows}) then stays
 * one, and what reads it last (the client's row set) reads its columns without making rows of them.
 */
public interface RowListSink extends Consumer<Object[]> {
    /** The rows, in order; the list is the sink's from now on. */
    void acceptList(List<Object[]> rows);

    /** Hands {@code sink} the rows: as one list if it takes them so, else one by one. */
    static void send(Consumer<Object[]> sink, List<Object[]> rows) {
        if (sink instanceof RowListSink lists) {
            lists.acceptList(rows);
        } else {
            rows.forEach(sink);
        }
    }
}
