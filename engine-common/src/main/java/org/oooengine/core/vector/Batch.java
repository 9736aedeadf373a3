package org.oooengine.core.vector;

import java.util.ArrayList;
import java.util.List;
import org.oooengine.core.sql.SqlType;

/**
 * Rows of column {@link Vector}s: the rows are positions {@code positions[0..size)} of the
 * vectors (a filter narrows the positions, it moves no values). Expressions evaluate at those
 * positions only; what other positions hold is undefined.
 */
public final class Batch {
    private static final int[] IDENTITY = identity(4096);

    private final Vector[] columns;
    private final int[] positions;
    private final int size;

    public Batch(Vector[] columns, int[] positions, int size) {
        this.columns = columns;
        this.positions = positions;
        this.size = size;
    }

    /** All of the first {@code rows} positions of {@code columns}. */
    public static Batch of(Vector[] columns, int rows) {
        return new Batch(columns, rows <= IDENTITY.length ? IDENTITY : identity(rows), rows);
    }

    private static int[] identity(int n) {
        int[] p = new int[n];
        for (int i = 0; i < n; i++) {
            p[i] = i;
        }
        return p;
    }

    public Vector column(int i) {
        return columns[i];
    }

    public int width() {
        return columns.length;
    }

    /** The positions of the rows; read the first {@link #size} only. */
    public int[] positions() {
        return positions;
    }

    public int size() {
        return size;
    }

    /** One past the largest position a vector must hold. */
    public int capacity() {
        return size == 0 ? 0 : positions[size - 1] + 1;
    }

    /** The same rows with other columns. */
    public Batch withColumns(Vector[] other) {
        return new Batch(other, positions, size);
    }

    /** The same columns at other positions. */
    public Batch withPositions(int[] other, int otherSize) {
        return new Batch(columns, other, otherSize);
    }

    /**
     * The rows as SQL values, one value per column: column c boxed as {@code types[c]} (types may be
     * null when every vector is an object vector or missing); a column without a vector (not read)
     * stays null.
     */
    public List<Object[]> toRows(SqlType[] types) {
        List<Object[]> rows = new ArrayList<>(size);
        // row by row: a row's array is written while it is in the cache
        for (int k = 0; k < size; k++) {
            Object[] row = new Object[columns.length];
            int p = positions[k];
            for (int c = 0; c < columns.length; c++) {
                Vector v = columns[c];
                if (v != null) {
                    row[c] = v.box(p, types == null ? null : types[c]);
                }
            }
            rows.add(row);
        }
        return rows;
    }
}
