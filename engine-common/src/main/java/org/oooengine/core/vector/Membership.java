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

    /**
     * Strings against a set of constants. A vector with its dictionary is answered entry by entry.
     * Values without one are often still a few string objects repeated (a dictionary chunk's, after
     * a join), so the answers for the last {@value #SEEN} objects met are kept and found by identity,
     * before the set is asked; a batch of strings each of its own (computed ones) stops looking
     * there after {@value #MISSES_BEFORE_SET_ONLY} misses.
     */
    record InObjects(VectorExpr value, Set<Object> constants, boolean negated) implements VectorExpr {
        private static final int SEEN = 8;
        private static final int MISSES_BEFORE_SET_ONLY = 64;

        @Override
        public Vector eval(Batch batch) {
            ObjectVector v = (ObjectVector) value.eval(batch);
            if (v.dictionary() != null) {
                return v.dictionary().test(v, batch, this::test);
            }
            byte[] out = new byte[batch.capacity()];
            int[] pos = batch.positions();
            Object[] seen = new Object[SEEN];
            byte[] answers = new byte[SEEN];
            int misses = 0;
            for (int k = 0; k < batch.size(); k++) {
                int i = pos[k];
                Object x = v.values[i];
                if (x == null) {
                    out[i] = BoolVector.NULL;
                    continue;
                }
                int at = -1;
                for (int j = 0; j < SEEN && misses < MISSES_BEFORE_SET_ONLY; j++) {
                    if (seen[j] == x) {
                        at = j;
                        break;
                    }
                }
                if (at >= 0) {
                    out[i] = answers[at];
                    continue;
                }
                byte answer = test(x) ? BoolVector.TRUE : BoolVector.FALSE;
                seen[misses % SEEN] = x;
                answers[misses % SEEN] = answer;
                misses++;
                out[i] = answer;
            }
            return new BoolVector(out);
        }

        @Override
        public int select(Batch batch, int[] kept) {
            ObjectVector v = (ObjectVector) value.eval(batch);
            return v.dictionary() != null ? v.dictionary().select(v, batch, this::test, kept) : VectorExpr.super.select(batch, kept);
        }

        private boolean test(Object x) {
            return constants.contains(x) != negated;
        }
    }

    /**
     * LIKE on strings: a dictionary's entries matched once each; otherwise the last answer is
     * reused while the same string object repeats (as a dictionary chunk's do after a join).
     */
    record Like(VectorExpr value, Predicate<String> matcher, boolean negated) implements VectorExpr {
        @Override
        public Vector eval(Batch batch) {
            ObjectVector v = (ObjectVector) value.eval(batch);
            if (v.dictionary() != null) {
                return v.dictionary().test(v, batch, x -> matcher.test((String) x) != negated);
            }
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
