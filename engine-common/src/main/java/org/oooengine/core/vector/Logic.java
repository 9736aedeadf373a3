package org.oooengine.core.vector;

import java.util.List;
import org.oooengine.core.sql.SqlType;

/** SQL's three-valued AND, OR, NOT, IS [NOT] NULL and CASE over vectors. */
final class Logic {
    private Logic() {
    }

    /** AND: false if any term is, else null if any is, else true. */
    record And(List<VectorExpr> terms) implements VectorExpr {
        @Override
        public Vector eval(Batch batch) {
            byte[] out = new byte[batch.capacity()];
            int[] pos = batch.positions();
            int n = batch.size();
            for (int k = 0; k < n; k++) {
                out[pos[k]] = BoolVector.TRUE;
            }
            for (VectorExpr t : terms) {
                byte[] v = ((BoolVector) t.eval(batch)).values;
                for (int k = 0; k < n; k++) {
                    int i = pos[k];
                    if (v[i] == BoolVector.FALSE) {
                        out[i] = BoolVector.FALSE;
                    } else if (v[i] == BoolVector.NULL && out[i] == BoolVector.TRUE) {
                        out[i] = BoolVector.NULL;
                    }
                }
            }
            return new BoolVector(out);
        }
    }

    /** OR: true if any term is, else null if any is, else false. */
    record Or(List<VectorExpr> terms) implements VectorExpr {
        @Override
        public Vector eval(Batch batch) {
            byte[] out = new byte[batch.capacity()];
            int[] pos = batch.positions();
            int n = batch.size();
            for (VectorExpr t : terms) {
                byte[] v = ((BoolVector) t.eval(batch)).values;
                for (int k = 0; k < n; k++) {
                    int i = pos[k];
                    if (v[i] == BoolVector.TRUE) {
                        out[i] = BoolVector.TRUE;
                    } else if (v[i] == BoolVector.NULL && out[i] == BoolVector.FALSE) {
                        out[i] = BoolVector.NULL;
                    }
                }
            }
            return new BoolVector(out);
        }
    }

    record Not(VectorExpr term) implements VectorExpr {
        @Override
        public Vector eval(Batch batch) {
            byte[] v = ((BoolVector) term.eval(batch)).values;
            byte[] out = new byte[batch.capacity()];
            int[] pos = batch.positions();
            for (int k = 0; k < batch.size(); k++) {
                int i = pos[k];
                out[i] = v[i] == BoolVector.NULL ? BoolVector.NULL : v[i] == BoolVector.TRUE ? BoolVector.FALSE : BoolVector.TRUE;
            }
            return new BoolVector(out);
        }
    }

    record IsNull(VectorExpr term, boolean negated) implements VectorExpr {
        @Override
        public Vector eval(Batch batch) {
            Vector v = term.eval(batch);
            byte[] out = new byte[batch.capacity()];
            int[] pos = batch.positions();
            for (int k = 0; k < batch.size(); k++) {
                int i = pos[k];
                out[i] = v.isNull(i) != negated ? BoolVector.TRUE : BoolVector.FALSE;
            }
            return new BoolVector(out);
        }
    }

    /**
     * CASE WHEN c1 THEN r1 ... ELSE e END: each row takes the result of its first true condition.
     * Each branch is evaluated only at the rows that take it.
     */
    record Case(List<VectorExpr> conditions, List<VectorExpr> results, VectorExpr otherwise, SqlType type)
            implements VectorExpr {
        @Override
        public Vector eval(Batch batch) {
            Vector out = Vector.allocate(type, batch.capacity());
            int[] remaining = java.util.Arrays.copyOf(batch.positions(), batch.size());
            int left = batch.size();
            for (int w = 0; w < conditions.size() && left > 0; w++) {
                Batch rest = batch.withPositions(remaining, left);
                byte[] c = ((BoolVector) conditions.get(w).eval(rest)).values;
                int[] taken = new int[left];
                int t = 0;
                int kept = 0;
                for (int k = 0; k < left; k++) {
                    int i = remaining[k];
                    if (c[i] == BoolVector.TRUE) {
                        taken[t++] = i;
                    } else {
                        remaining[kept++] = i;
                    }
                }
                if (t > 0) {
                    copy(results.get(w).eval(batch.withPositions(taken, t)), out, taken, t);
                }
                left = kept;
            }
            if (left > 0) {
                copy(otherwise.eval(batch.withPositions(remaining, left)), out, remaining, left);
            }
            return out;
        }
    }

    /** Copies the values at {@code positions} from one vector to another of the same representation. */
    static void copy(Vector from, Vector to, int[] positions, int n) {
        if (from instanceof LongVector f) {
            LongVector t = (LongVector) to;
            for (int k = 0; k < n; k++) {
                int i = positions[k];
                if (f.isNull(i)) {
                    t.setNull(i);
                } else {
                    t.values[i] = f.values[i];
                }
            }
        } else if (from instanceof DoubleVector f) {
            DoubleVector t = (DoubleVector) to;
            for (int k = 0; k < n; k++) {
                int i = positions[k];
                if (f.isNull(i)) {
                    t.setNull(i);
                } else {
                    t.values[i] = f.values[i];
                }
            }
        } else if (from instanceof BoolVector f) {
            for (int k = 0; k < n; k++) {
                ((BoolVector) to).values[positions[k]] = f.values[positions[k]];
            }
        } else {
            for (int k = 0; k < n; k++) {
                ((ObjectVector) to).values[positions[k]] = ((ObjectVector) from).values[positions[k]];
            }
        }
    }
}
