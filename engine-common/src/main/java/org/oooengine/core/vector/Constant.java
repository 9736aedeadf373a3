package org.oooengine.core.vector;

import org.oooengine.core.sql.SqlType;

/** A value that does not depend on the row, filled into a vector once per batch. */
record Constant(Object value, SqlType type) implements VectorExpr {
    @Override
    public Vector eval(Batch batch) {
        int n = batch.capacity();
        if (value == null) {
            return nulls(n);
        }
        Vector v = Vector.allocate(type, n);
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

    /** {@code n} nulls of the type: the columns a pipeline does not send are these (one a batch). */
    private Vector nulls(int n) {
        Vector.Representation r = Vector.representation(type);
        if (r == Vector.Representation.LONG || r == Vector.Representation.DOUBLE) {
            boolean[] nulls = new boolean[n];
            java.util.Arrays.fill(nulls, true);
            return r == Vector.Representation.LONG ? new LongVector(new long[n], nulls) : new DoubleVector(new double[n], nulls);
        }
        Vector v = Vector.allocate(type, n); // objects are null as made
        if (v instanceof BoolVector b) {
            java.util.Arrays.fill(b.values, BoolVector.NULL);
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
