package org.oooengine.core.vector;

import org.oooengine.core.sql.SqlType;

/** Operations on vectors of any representation. */
public final class Vectors {
    private Vectors() {
    }

    /**
     * A vector of {@code n} values: position k holds {@code from}'s value at {@code index[k]}, or
     * null where that is negative. A missing column (null) stays missing.
     */
    public static Vector gather(Vector from, int[] index, int n) {
        if (from == null) {
            return null;
        }
        if (from instanceof LongVector f) {
            LongVector to = new LongVector(new long[n], null);
            for (int k = 0; k < n; k++) {
                int i = index[k];
                if (i < 0 || f.isNull(i)) {
                    to.setNull(k);
                } else {
                    to.values[k] = f.values[i];
                }
            }
            return to;
        }
        if (from instanceof DoubleVector f) {
            DoubleVector to = new DoubleVector(new double[n], null);
            for (int k = 0; k < n; k++) {
                int i = index[k];
                if (i < 0 || f.isNull(i)) {
                    to.setNull(k);
                } else {
                    to.values[k] = f.values[i];
                }
            }
            return to;
        }
        if (from instanceof BoolVector f) {
            byte[] to = new byte[n];
            for (int k = 0; k < n; k++) {
                to[k] = index[k] < 0 ? BoolVector.NULL : f.values[index[k]];
            }
            return new BoolVector(to);
        }
        ObjectVector f = (ObjectVector) from;
        Object[] to = new Object[n];
        ObjectVector.Dictionary d = f.dictionary();
        if (d == null) {
            for (int k = 0; k < n; k++) {
                to[k] = index[k] < 0 ? null : f.values[index[k]];
            }
            return new ObjectVector(to);
        }
        byte[] codes = new byte[n]; // the codes travel too, so kernels after a join still test entries
        boolean nullable = d.nullable();
        for (int k = 0; k < n; k++) {
            int i = index[k];
            if (i < 0) {
                nullable = true;
            } else {
                to[k] = f.values[i];
                codes[k] = d.codes()[i];
            }
        }
        return new ObjectVector(to, new ObjectVector.Dictionary(d.entries(), codes, nullable));
    }

    /**
     * A vector of {@code n} copies of {@code value} of {@code type} ({@code n} nulls where it is
     * null), or null where vectors do not hold values of that type.
     */
    public static Vector constant(SqlType type, Object value, int n) {
        Vector.Representation r = Vector.representation(type);
        if (r == null) {
            return null;
        }
        Vector v = Vector.allocate(type, n);
        if (value == null) {
            if (v instanceof BoolVector b) {
                java.util.Arrays.fill(b.values, BoolVector.NULL);
            } else if (r != Vector.Representation.OBJECT) { // objects are null as made
                boolean[] nulls = new boolean[n];
                java.util.Arrays.fill(nulls, true);
                v = r == Vector.Representation.LONG ? new LongVector(new long[n], nulls) : new DoubleVector(new double[n], nulls);
            }
            return v;
        }
        if (n == 0) {
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
}
