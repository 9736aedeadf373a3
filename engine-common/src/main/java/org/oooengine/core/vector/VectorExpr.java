package org.oooengine.core.vector;

/**
 * A scalar expression evaluated a batch at a time: its value at each of the batch's positions.
 * Decimal arithmetic is exact on longs; a result that does not fit throws ArithmeticException,
 * and the caller runs that batch row by row instead.
 */
@FunctionalInterface
public interface VectorExpr {
    Vector eval(Batch batch);

    /**
     * For a predicate: the batch's positions at which it is TRUE (not FALSE, not NULL), in order,
     * into {@code kept} (as long as the batch's size at least); returns how many. A kernel that
     * can test and keep in one pass overrides it, saving the pass over a vector of booleans.
     */
    default int select(Batch batch, int[] kept) {
        byte[] keep = ((BoolVector) eval(batch)).values;
        int[] pos = batch.positions();
        int n = 0;
        // without a branch: one taken at random, as a filter that keeps some rows takes it, is mispredicted half the time
        for (int k = 0; k < batch.size(); k++) {
            int p = pos[k];
            kept[n] = p;
            n += keep[p] == BoolVector.TRUE ? 1 : 0;
        }
        return n;
    }
}
