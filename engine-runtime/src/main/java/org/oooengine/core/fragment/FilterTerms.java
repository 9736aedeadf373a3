package org.oooengine.core.fragment;

import java.util.Arrays;
import java.util.Comparator;
import org.oooengine.core.vector.Batch;
import org.oooengine.core.vector.VectorExpr;

/**
 * The terms of a filter's AND on batches, each evaluated over the rows the ones before it kept, in
 * the order that does least work as measured: by time a row over the share of rows it drops, the
 * cheap and selective first. The order written is rarely that: TPC-H Q12 tests its ship modes
 * (a string looked up a row) before the receipt dates that keep one row in seven. Until enough
 * batches have been timed the written order holds; the times are then halved, so the order
 * follows data whose selectivity drifts. The rows kept are the same in any order.
 */
final class FilterTerms {
    /** Batches between two choices of the order. */
    static final int BATCHES_PER_CHOICE = 32;

    private final VectorExpr[] terms;
    private Integer[] order;
    private final long[] nanos;
    private final long[] rowsIn;
    private final long[] rowsOut;
    private int batches;

    FilterTerms(VectorExpr[] terms) {
        this.terms = terms.clone();
        this.order = new Integer[terms.length];
        Arrays.setAll(order, t -> t);
        this.nanos = new long[terms.length];
        this.rowsIn = new long[terms.length];
        this.rowsOut = new long[terms.length];
    }

    /** The rows of {@code b} every term holds on. */
    Batch kept(Batch b) {
        if (terms.length == 1) {
            return kept(b, terms[0]);
        }
        Batch kept = b;
        for (int i = 0; i < order.length && kept.size() > 0; i++) {
            int t = order[i];
            long start = System.nanoTime();
            int in = kept.size();
            kept = kept(kept, terms[t]);
            nanos[t] += System.nanoTime() - start;
            rowsIn[t] += in;
            rowsOut[t] += kept.size();
        }
        if (++batches % BATCHES_PER_CHOICE == 0) {
            choose();
        }
        return kept;
    }

    /** The order of the terms now, by their places in the AND as written. */
    int[] order() {
        return Arrays.stream(order).mapToInt(Integer::intValue).toArray();
    }

    private void choose() {
        double[] rank = new double[terms.length];
        for (int t = 0; t < terms.length; t++) {
            if (rowsIn[t] == 0) {
                rank[t] = Double.MAX_VALUE; // not reached since: it stays behind those that were
                continue;
            }
            double perRow = (double) nanos[t] / rowsIn[t];
            double dropped = 1 - (double) rowsOut[t] / rowsIn[t];
            rank[t] = perRow / Math.max(dropped, 1e-6);
            nanos[t] /= 2;
            rowsIn[t] /= 2;
            rowsOut[t] /= 2;
        }
        Integer[] next = order.clone();
        Arrays.sort(next, Comparator.comparingDouble(t -> rank[t])); // stable: ties keep their order
        order = next;
    }

    private static Batch kept(Batch b, VectorExpr predicate) {
        int[] kept = new int[b.size()];
        return b.withPositions(kept, predicate.select(b, kept));
    }
}
