package org.oooengine.core.exec;

import java.util.ArrayList;
import java.util.List;

/** Keeps every row (for tests and small results). */
public final class CollectingSink implements RowSink {
    private final List<Object[]> rows = new ArrayList<>();

    @Override
    public synchronized void accept(Object[] row) {
        rows.add(row);
    }

    public synchronized List<Object[]> rows() {
        return new ArrayList<>(rows);
    }
}
