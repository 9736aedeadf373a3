package org.oooengine.core.vector;

import org.oooengine.core.sql.SqlType;

/** A value that does not depend on the row, filled into a vector once per batch. */
record Constant(Object value, SqlType type) implements VectorExpr {
    @Override
    public Vector eval(Batch batch) {
        int n = batch.capacity();
        Vector v = Vector.allocate(type, n);
        if (value == null) {
            for (int i = 0; i < n; i++) {
                v.setBoxed(i, null, type);
            }
            return v;
        }
        v.setBoxed(0, value, type);
        if (v instanceof LongVector l) {
            java.util.Arrays.fill(l.values, l.values[0]);
        } else if (v instanceof DoubleVector d) {
            java.util.Arrays.fill(d.values, d.values[0]);
        } else if (v instanceof BoolVector b) {
            java.util.Arrays.fill(b.values, b.values[0]);
        } else {
            java.util.Arrays.fill(((ObjectVector) v).values, value);
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
