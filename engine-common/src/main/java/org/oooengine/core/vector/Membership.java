package org.oooengine.core.vector;

import java.util.Arrays;
import java.util.Set;
import java.util.function.Predicate;

/** x [NOT] IN (constants) and x [NOT] LIKE 'pattern'; null in, null out. */
final class Membership {
    private Membership() {
    }

    /** Longs against constants at the value's scale, found by binary search. */
    record InLongs(VectorExpr value, long[] sortedConstants, boolean negated) implements VectorExpr {
        InLongs {
            sortedConstants = sortedConstants.clone();
            Arrays.sort(sortedConstants);
        }

        @Override
        public Vector eval(Batch batch) {
            LongVector v = (LongVector) value.eval(batch);
            byte[] out = new byte[batch.capacity()];
            int[] pos = batch.positions();
            for (int k = 0; k < batch.size(); k++) {
                int i = pos[k];
                out[i] = v.isNull(i) ? BoolVector.NULL
                        : (Arrays.binarySearch(sortedConstants, v.values[i]) >= 0) != negated ? BoolVector.TRUE
                        : BoolVector.FALSE;
            }
            return new BoolVector(out);
        }
    }

    /** Strings against a set of constants. */
    record InObjects(VectorExpr value, Set<Object> constants, boolean negated) implements VectorExpr {
        @Override
        public Vector eval(Batch batch) {
            ObjectVector v = (ObjectVector) value.eval(batch);
            byte[] out = new byte[batch.capacity()];
            int[] pos = batch.positions();
            for (int k = 0; k < batch.size(); k++) {
                int i = pos[k];
                Object x = v.values[i];
                out[i] = x == null ? BoolVector.NULL
                        : constants.contains(x) != negated ? BoolVector.TRUE : BoolVector.FALSE;
            }
            return new BoolVector(out);
        }
    }

    /**
     * LIKE on strings. Values from a dictionary chunk are the same string objects row after row,
     * so the last answer is reused while the string repeats.
     */
    record Like(VectorExpr value, Predicate<String> matcher, boolean negated) implements VectorExpr {
        @Override
        public Vector eval(Batch batch) {
            ObjectVector v = (ObjectVector) value.eval(batch);
            byte[] out = new byte[batch.capacity()];
            int[] pos = batch.positions();
            Object last = null;
            byte lastAnswer = BoolVector.NULL;
            for (int k = 0; k < batch.size(); k++) {
                int i = pos[k];
                Object x = v.values[i];
                if (x == null) {
                    out[i] = BoolVector.NULL;
                    continue;
                }
                if (x != last) {
                    last = x;
                    lastAnswer = matcher.test((String) x) != negated ? BoolVector.TRUE : BoolVector.FALSE;
                }
                out[i] = lastAnswer;
            }
            return new BoolVector(out);
        }
    }
}
