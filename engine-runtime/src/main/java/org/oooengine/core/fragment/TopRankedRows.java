package org.oooengine.core.fragment;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.TreeMap;
import java.util.TreeSet;
import org.oooengine.core.sql.expr.WindowCall;

/**
 * Drops, as rows arrive for a window, those a {@link RankLimit} above it would drop anyway: a row
 * with {@code max} rows of its partition strictly ahead of it ({@code max} distinct values ahead,
 * for {@code dense_rank}) ranks after {@code max} whatever else comes. Each partition keeps the
 * best {@code max} orders seen. Every row that ranks {@code max} or better still reaches the
 * window, and so do all the rows ahead of it: its rank over the rows kept is its rank over all.
 * Partitions are told apart, and rows ordered, as the window's sort does it. Past
 * {@link #MAX_HELD} orders held, the rows of partitions not yet seen all go on.
 */
final class TopRankedRows {
    /** Orders held over all partitions, at most (each a reference to a row the window holds anyway). */
    static final int MAX_HELD = 1 << 16;

    private final RankLimit limit;
    private final Comparator<Object[]> order;
    private final TreeMap<Object[], Best> partitions;
    private long held;
    private long dropped;

    TopRankedRows(RankLimit limit, Comparator<Object[]> samePartition, Comparator<Object[]> order) {
        this.limit = limit;
        this.order = order;
        this.partitions = new TreeMap<>(samePartition);
    }

    /** The rows of {@code rows} that may still rank {@code max} or better. */
    List<Object[]> kept(List<Object[]> rows) {
        List<Object[]> out = new ArrayList<>(rows.size());
        for (Object[] row : rows) {
            Best best = partitions.get(row);
            if (best == null && held < MAX_HELD) {
                best = limit.kind() == WindowCall.Kind.DENSE_RANK ? new DistinctBest() : new AllBest();
                partitions.put(row, best);
            }
            if (best == null || best.admit(row)) {
                out.add(row);
            } else {
                dropped++;
            }
        }
        return out;
    }

    /** Rows dropped so far. */
    long dropped() {
        return dropped;
    }

    /** The best orders of one partition seen so far. */
    private interface Best {
        /** Whether {@code row} may rank well enough; if so it counts among the best when it is. */
        boolean admit(Object[] row);
    }

    /** rank and row_number: the best {@code max} rows, ties counted apart; the worst on top. */
    private final class AllBest implements Best {
        private final PriorityQueue<Object[]> rows = new PriorityQueue<>(order.reversed());

        @Override
        public boolean admit(Object[] row) {
            if (rows.size() < limit.max()) {
                rows.add(row);
                held++;
                return true;
            }
            if (limit.max() == 0) {
                return false;
            }
            int c = order.compare(row, rows.peek());
            if (c < 0) {
                rows.poll();
                rows.add(row);
                return true;
            }
            return c == 0; // tied with the last of the best: it may share its rank
        }
    }

    /** dense_rank: the best {@code max} distinct orders. */
    private final class DistinctBest implements Best {
        private final TreeSet<Object[]> values = new TreeSet<>(order);

        @Override
        public boolean admit(Object[] row) {
            if (values.size() < limit.max()) {
                if (values.add(row)) {
                    held++;
                }
                return true;
            }
            if (limit.max() == 0) {
                return false;
            }
            int c = order.compare(row, values.last());
            if (c < 0 && values.add(row)) {
                values.pollLast();
            }
            return c <= 0;
        }
    }
}
