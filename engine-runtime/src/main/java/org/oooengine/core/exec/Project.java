package org.oooengine.core.exec;

/** Keeps the listed column positions, in that order. */
public record Project(int[] columns, RowSink downstream) implements RowSink {
    @Override
    public void accept(Object[] row) {
        Object[] out = new Object[columns.length];
        for (int i = 0; i < columns.length; i++) {
            out[i] = row[columns[i]];
        }
        downstream.accept(out);
    }
}
