package org.oooengine.core.vector;

import org.oooengine.core.sql.SqlType;

/**
 * A value that does not depend on the row, filled into a vector once and that vector handed out
 * again for every batch it is as large as: no step writes into a vector it is given, and none
 * reads past its batch's capacity (the columns a pipeline does not send are null constants: one
 * vector of nulls for them all, not one a batch). A join's output batches differ in size from
 * one to the next: kept for one size alone, the vector was filled anew for most of them.
 */
final class Constant implements VectorExpr {
    private final Object value;
    private final SqlType type;
    /** The vector last made, for batches of up to {@code capacity}; a race between threads at worst makes two. */
    private volatile Made made;

    private record Made(int capacity, Vector vector) {
    }

    Constant(Object value, SqlType type) {
        this.value = value;
        this.type = type;
    }

    Object value() {
        return value;
    }

    @Override
    public Vector eval(Batch batch) {
        int n = batch.capacity();
        Made m = made;
        if (m == null || m.capacity < n) {
            m = new Made(n, filled(n));
            made = m;
        }
        return m.vector;
    }

    private Vector filled(int n) {
        Vector v = Vectors.constant(type, value, n);
        if (v == null) {
            throw new IllegalArgumentException("vectors do not hold values of type " + type);
        }
        return v;
    }

    /** The value as a long of {@code type}'s representation (see {@link Vector}). */
    long asLong() {
        LongVector v = new LongVector(new long[1], null);
        v.setBoxed(0, value, type);
        return v.values[0];
    }
}
