package org.oooengine.core.vector;

/** Comparison kernels: each writes TRUE, FALSE or NULL (either side null) per position. */
final class Comparisons {
    private Comparisons() {
    }

    /** Longs at scales aligned by multiplying each side by its factor (1 when it is at the larger scale). */
    record Longs(CompareOp op, VectorExpr left, long leftFactor, VectorExpr right, long rightFactor) implements VectorExpr {
        @Override
        public Vector eval(Batch batch) {
            LongVector a = (LongVector) left.eval(batch);
            LongVector b = (LongVector) right.eval(batch);
            byte[] out = new byte[batch.capacity()];
            int[] pos = batch.positions();
            for (int k = 0; k < batch.size(); k++) {
                int i = pos[k];
                if (a.isNull(i) || b.isNull(i)) {
                    out[i] = BoolVector.NULL;
                } else {
                    long x = leftFactor == 1 ? a.values[i] : Math.multiplyExact(a.values[i], leftFactor);
                    long y = rightFactor == 1 ? b.values[i] : Math.multiplyExact(b.values[i], rightFactor);
                    out[i] = op.test(Long.compare(x, y)) ? BoolVector.TRUE : BoolVector.FALSE;
                }
            }
            return new BoolVector(out);
        }
    }

    /** A long column against a constant already at the column's scale: the filter of most scans. */
    record LongWithConstant(CompareOp op, VectorExpr left, long constant) implements VectorExpr {
        @Override
        public Vector eval(Batch batch) {
            LongVector a = (LongVector) left.eval(batch);
            long[] v = a.values;
            long c = constant;
            byte[] out = new byte[batch.capacity()];
            int[] pos = batch.positions();
            int n = batch.size();
            switch (op) {
                case EQ -> {
                    for (int k = 0; k < n; k++) {
                        out[pos[k]] = v[pos[k]] == c ? BoolVector.TRUE : BoolVector.FALSE;
                    }
                }
                case NE -> {
                    for (int k = 0; k < n; k++) {
                        out[pos[k]] = v[pos[k]] != c ? BoolVector.TRUE : BoolVector.FALSE;
                    }
                }
                case LT -> {
                    for (int k = 0; k < n; k++) {
                        out[pos[k]] = v[pos[k]] < c ? BoolVector.TRUE : BoolVector.FALSE;
                    }
                }
                case LE -> {
                    for (int k = 0; k < n; k++) {
                        out[pos[k]] = v[pos[k]] <= c ? BoolVector.TRUE : BoolVector.FALSE;
                    }
                }
                case GT -> {
                    for (int k = 0; k < n; k++) {
                        out[pos[k]] = v[pos[k]] > c ? BoolVector.TRUE : BoolVector.FALSE;
                    }
                }
                case GE -> {
                    for (int k = 0; k < n; k++) {
                        out[pos[k]] = v[pos[k]] >= c ? BoolVector.TRUE : BoolVector.FALSE;
                    }
                }
            }
            if (a.nulls() != null) {
                for (int k = 0; k < n; k++) {
                    if (a.nulls()[pos[k]]) {
                        out[pos[k]] = BoolVector.NULL;
                    }
                }
            }
            return new BoolVector(out);
        }

        /** The test and the keeping in one loop, without a branch; a NULL value is not kept. */
        @Override
        public int select(Batch batch, int[] kept) {
            LongVector a = (LongVector) left.eval(batch);
            long[] v = a.values;
            long c = constant;
            int[] pos = batch.positions();
            int size = batch.size();
            int n = 0;
            switch (op) {
                case EQ -> {
                    for (int k = 0; k < size; k++) {
                        int p = pos[k];
                        kept[n] = p;
                        n += v[p] == c ? 1 : 0;
                    }
                }
                case NE -> {
                    for (int k = 0; k < size; k++) {
                        int p = pos[k];
                        kept[n] = p;
                        n += v[p] != c ? 1 : 0;
                    }
                }
                case LT -> {
                    for (int k = 0; k < size; k++) {
                        int p = pos[k];
                        kept[n] = p;
                        n += v[p] < c ? 1 : 0;
                    }
                }
                case LE -> {
                    for (int k = 0; k < size; k++) {
                        int p = pos[k];
                        kept[n] = p;
                        n += v[p] <= c ? 1 : 0;
                    }
                }
                case GT -> {
                    for (int k = 0; k < size; k++) {
                        int p = pos[k];
                        kept[n] = p;
                        n += v[p] > c ? 1 : 0;
                    }
                }
                case GE -> {
                    for (int k = 0; k < size; k++) {
                        int p = pos[k];
                        kept[n] = p;
                        n += v[p] >= c ? 1 : 0;
                    }
                }
            }
            boolean[] nulls = a.nulls();
            if (nulls == null) {
                return n;
            }
            int m = 0; // rare: the kept positions again, without the null ones
            for (int k = 0; k < n; k++) {
                int p = kept[k];
                kept[m] = p;
                m += nulls[p] ? 0 : 1;
            }
            return m;
        }
    }

    record Doubles(CompareOp op, VectorExpr left, VectorExpr right) implements VectorExpr {
        @Override
        public Vector eval(Batch batch) {
            DoubleVector a = (DoubleVector) left.eval(batch);
            DoubleVector b = (DoubleVector) right.eval(batch);
            byte[] out = new byte[batch.capacity()];
            int[] pos = batch.positions();
            for (int k = 0; k < batch.size(); k++) {
                int i = pos[k];
                out[i] = a.isNull(i) || b.isNull(i) ? BoolVector.NULL
                        : op.test(Double.compare(a.values[i], b.values[i])) ? BoolVector.TRUE : BoolVector.FALSE;
            }
            return new BoolVector(out);
        }
    }

    /** Strings (or other comparable values of one type), compared as the row engine does. */
    record Objects(CompareOp op, VectorExpr left, VectorExpr right) implements VectorExpr {
        @Override
        @SuppressWarnings({"unchecked", "rawtypes"})
        public Vector eval(Batch batch) {
            ObjectVector a = (ObjectVector) left.eval(batch);
            ObjectVector b = (ObjectVector) right.eval(batch);
            byte[] out = new byte[batch.capacity()];
            int[] pos = batch.positions();
            boolean equality = op == CompareOp.EQ || op == CompareOp.NE;
            for (int k = 0; k < batch.size(); k++) {
                int i = pos[k];
                Object x = a.values[i];
                Object y = b.values[i];
                if (x == null || y == null) {
                    out[i] = BoolVector.NULL;
                } else if (equality) {
                    out[i] = x.equals(y) == (op == CompareOp.EQ) ? BoolVector.TRUE : BoolVector.FALSE;
                } else {
                    out[i] = op.test(((Comparable) x).compareTo(y)) ? BoolVector.TRUE : BoolVector.FALSE;
                }
            }
            return new BoolVector(out);
        }
    }

    /**
     * Strings against a constant, the filter of many scans ({@code l_returnflag = 'R'}): tested and
     * kept in one pass, without a vector of the constant or of booleans; a dictionary's entries
     * tested once each.
     */
    record ObjectWithConstant(CompareOp op, VectorExpr left, Object constant) implements VectorExpr {
        @Override
        public Vector eval(Batch batch) {
            ObjectVector vector = (ObjectVector) left.eval(batch);
            if (vector.dictionary() != null) {
                return vector.dictionary().test(vector, batch, this::test);
            }
            Object[] v = vector.values;
            byte[] out = new byte[batch.capacity()];
            int[] pos = batch.positions();
            for (int k = 0; k < batch.size(); k++) {
                int i = pos[k];
                out[i] = v[i] == null ? BoolVector.NULL : test(v[i]) ? BoolVector.TRUE : BoolVector.FALSE;
            }
            return new BoolVector(out);
        }

        @Override
        public int select(Batch batch, int[] kept) {
            ObjectVector vector = (ObjectVector) left.eval(batch);
            if (vector.dictionary() != null) {
                return vector.dictionary().select(vector, batch, this::test, kept);
            }
            Object[] v = vector.values;
            int[] pos = batch.positions();
            int n = 0;
            for (int k = 0; k < batch.size(); k++) {
                int p = pos[k];
                kept[n] = p;
                n += v[p] != null && test(v[p]) ? 1 : 0;
            }
            return n;
        }

        @SuppressWarnings({"unchecked", "rawtypes"})
        private boolean test(Object x) {
            return switch (op) {
                case EQ -> constant.equals(x);
                case NE -> !constant.equals(x);
                default -> op.test(((Comparable) x).compareTo(constant));
            };
        }
    }
}
