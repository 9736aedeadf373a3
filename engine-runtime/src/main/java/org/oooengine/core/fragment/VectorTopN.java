package org.oooengine.core.fragment;

import java.util.List;
import java.util.function.Consumer;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.vector.Batch;
import org.oooengine.core.vector.LongVector;
import org.oooengine.core.vector.ObjectVector;
import org.oooengine.core.vector.Vector;

/**
 * ORDER BY ... LIMIT at the end of a pipeline on column batches ({@link PipelineStep.TopN}). Once
 * it holds its rows, each position of a batch is compared on the sort keys' vectors with the last
 * row kept, and only those that come before it become rows for {@link TopRows}, which keeps them
 * exactly as on rows. Ordering a scan by a column then boxes a few thousand of its rows, not
 * every one of them with every column. Not thread-safe: one pipeline runs on one thread.
 */
final class VectorTopN {
    /** Positions compared with the same last row kept. */
    private static final int SLICE = 256;

    private final List<SortKey> keys;
    private final TopRows top;
    private final Consumer<List<Object[]>> out;
    /** The positions of a slice that come before the last row kept; reused slice after slice. */
    private final int[] ahead = new int[SLICE];
    private long rowsBoxed;

    VectorTopN(PipelineStep.TopN step, QueryMemory memory, Consumer<List<Object[]>> out) {
        this.keys = step.keys();
        this.top = new TopRows(step.keys(), step.count(), memory, "top-N");
        this.out = out;
    }

    /** A batch whose column c holds values of {@code types[c]} (null: objects as they are, or not read). */
    void add(Batch batch, SqlType[] types) {
        int[] positions = batch.positions();
        int size = batch.size();
        int from = Math.min(size, top.room()); // until it holds its rows, each row is kept
        if (from > 0) {
            top.add(batch.withPositions(positions, from).toRows(types));
            rowsBoxed += from;
        }
        if (from == size) {
            return;
        }
        // a slice at a time, so that the rows a slice brought tighten the bound for the next
        for (int slice = from; slice < size; slice += SLICE) {
            Object[] last = top.last();
            if (last == null) {
                return; // LIMIT 0
            }
            Long[] longBounds = longBounds(batch, types, last);
            int n = 0;
            for (int k = slice, end = Math.min(size, slice + SLICE); k < end; k++) {
                int p = positions[k];
                if (compareWithLast(batch, types, p, last, longBounds) < 0) {
                    ahead[n++] = p;
                }
            }
            if (n > 0) {
                top.add(batch.withPositions(ahead, n).toRows(types));
                rowsBoxed += n;
            }
        }
    }

    /** Rows in (a batch that ran row by row). */
    void addRows(List<Object[]> rows) {
        top.add(rows);
        rowsBoxed += rows.size();
    }

    /** How many rows were handed to {@link TopRows}: made of batches' positions, or arrived as rows. */
    long rowsBoxed() {
        return rowsBoxed;
    }

    /** The input has ended: the rows kept go on, in order. */
    void finish() {
        List<Object[]> first = top.sorted();
        for (int from = 0; from < first.size(); from += Pipeline.BATCH_ROWS) {
            out.accept(first.subList(from, Math.min(first.size(), from + Pipeline.BATCH_ROWS)));
        }
    }

    /**
     * Per key, the last row's value as its long vector holds it, where the key's column is one and
     * the value non-null (so positions compare without boxing); else null.
     */
    private Long[] longBounds(Batch batch, SqlType[] types, Object[] last) {
        Long[] bounds = new Long[keys.size()];
        for (int i = 0; i < bounds.length; i++) {
            int c = keys.get(i).column();
            if (batch.column(c) instanceof LongVector && types[c] != null) {
                bounds[i] = LongVector.exactly(last[c], types[c]);
            }
        }
        return bounds;
    }

    /**
     * How the row at position {@code p} orders against {@code last} by the keys (0, a tie, the row
     * kept wins, having come first); negative when a key's value cannot be read here, so that
     * {@link TopRows} decides.
     */
    private int compareWithLast(Batch batch, SqlType[] types, int p, Object[] last, Long[] longBounds) {
        for (int i = 0; i < longBounds.length; i++) {
            SortKey key = keys.get(i);
            int column = key.column();
            Vector v = batch.column(column);
            int c;
            if (longBounds[i] != null && !v.isNull(p)) {
                c = Long.compare(((LongVector) v).values[p], longBounds[i]);
                c = key.ascending() ? c : -c;
            } else if (v != null && (types[column] != null || v instanceof ObjectVector)) {
                c = key.compareValues(v.box(p, types[column]), last[column]);
            } else {
                return -1; // a column not read, or of no known type: TopRows compares the row
            }
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }
}
