package org.oooengine.core.fragment;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/** Rows passed on in batches of {@link Pipeline#BATCH_ROWS}, the last one on {@link #flush}. Not thread-safe. */
public final class RowBatches {
    private final Consumer<List<Object[]>> out;
    private List<Object[]> batch = new ArrayList<>(Pipeline.BATCH_ROWS);

    public RowBatches(Consumer<List<Object[]>> out) {
        this.out = out;
    }

    public void add(Object[] row) {
        batch.add(row);
        if (batch.size() == Pipeline.BATCH_ROWS) {
            flush();
        }
    }

    /**
     * Rows that came as a list: passed on as they are where they make half a batch or more (a
     * chunk of columns stays one), after the rows added before them; else added one by one.
     */
    public void addAll(List<Object[]> rows) {
        if (rows.size() < Pipeline.BATCH_ROWS / 2) {
            rows.forEach(this::add);
            return;
        }
        flush();
        out.accept(rows);
    }

    public void flush() {
        if (!batch.isEmpty()) {
            List<Object[]> full = batch;
            batch = new ArrayList<>(Pipeline.BATCH_ROWS);
            out.accept(full);
        }
    }
}
