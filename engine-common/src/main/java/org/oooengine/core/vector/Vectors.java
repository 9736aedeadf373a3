package org.oooengine.core.vector;

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
}
