package org.oooengine.core.fragment;

import java.math.BigDecimal;
import java.util.Comparator;
import java.util.List;
import org.oooengine.core.sql.expr.AggregateCall;
import org.oooengine.core.sql.expr.Values;
import org.oooengine.core.sql.expr.WindowCall;
import org.oooengine.core.sql.expr.WindowCall.Bound;
import org.oooengine.core.sql.expr.WindowCall.BoundType;

/**
 * How each window function computes its value for the rows of one sorted partition, asked for
 * row 0, 1, 2, ... in turn. Every frame's two ends only move forward as the current row does (a
 * frame that ends at the partition's end and starts later is computed mirrored, see
 * {@link WindowCall#mirrored}), so an aggregate over a frame that keeps its start adds the rows
 * that join it; one whose start moves is computed again over its rows.
 */
final class WindowFrames {
    private WindowFrames() {
    }

    /** A call's value for the current row. */
    interface Evaluator {
        Object value(int i);
    }

    /** The current row's peers — the rows its ORDER BY values equal — as the current row advances. */
    static final class Peers {
        private final PartitionRows rows;
        private final Comparator<Object[]> order;
        /** The current peer group: its first row, the row after its last, and how many groups came before it. */
        private int start;
        private int end;
        private int group = -1;

        Peers(PartitionRows rows, Comparator<Object[]> order) {
            this.rows = rows;
            this.order = order;
        }

        void advance(int i) {
            if (i < end) {
                return;
            }
            start = i;
            end = i + 1;
            group++;
            Object[] first = rows.get(i);
            while (end < rows.size() && order.compare(rows.get(end), first) == 0) {
                end++;
            }
        }
    }

    static Evaluator evaluator(WindowCall call, PartitionRows rows, Peers peers, List<SortKey> order) {
        int n = rows.size();
        return switch (call.kind()) {
            case ROW_NUMBER -> i -> i + 1;
            case RANK -> i -> peers.start + 1;
            case DENSE_RANK -> i -> peers.group + 1;
            case PERCENT_RANK -> i -> n == 1 ? 0.0 : (double) peers.start / (n - 1);
            case CUME_DIST -> i -> (double) peers.end / n;
            case NTILE -> ntile(call.offset(), n);
            case LAG, LEAD -> {
                long shift = call.kind() == WindowCall.Kind.LAG ? -call.offset() : call.offset();
                yield i -> {
                    long j = i + shift;
                    if (j >= 0 && j < n) {
                        return call.arg().eval(rows.get((int) j));
                    }
                    return call.fallback() == null ? null : call.fallback().eval(rows.get(i));
                };
            }
            case FIRST_VALUE, LAST_VALUE -> frameValue(call, rows, bounds(call.frame(), rows, peers, order));
            case AGGREGATE -> new FrameAggregate(call.aggregate(), rows, bounds(call.frame(), rows, peers, order));
        };
    }

    /** ntile(b): the first n % b buckets have one row more than the others, as Hive's and the standard's ntile. */
    private static Evaluator ntile(long buckets, int n) {
        long size = n / buckets;
        long bigger = n % buckets;
        long inBigger = bigger * (size + 1);
        return i -> (int) (i < inBigger ? i / (size + 1) + 1 : bigger + (i - inBigger) / size + 1);
    }

    private static Evaluator frameValue(WindowCall call, PartitionRows rows, Bounds bounds) {
        boolean first = call.kind() == WindowCall.Kind.FIRST_VALUE;
        return i -> {
            int s = bounds.start(i);
            int e = bounds.end(i);
            for (int j = first ? s : e; first ? j <= e : j >= s; j += first ? 1 : -1) {
                Object v = call.arg().eval(rows.get(j));
                if (v != null || !call.ignoreNulls()) {
                    return v;
                }
            }
            return null; // an empty frame, or only NULLs skipped
        };
    }

    /** The first and last row (inclusive) of the current row's frame; empty when the first is after the last. */
    interface Bounds {
        int start(int i);

        int end(int i);
    }

    static Bounds bounds(WindowCall.Frame frame, PartitionRows rows, Peers peers, List<SortKey> order) {
        int n = rows.size();
        if (frame.rows()) {
            return new Bounds() {
                @Override
                public int start(int i) {
                    return (int) Math.max(0, Math.min(n, rowsBound(frame.start(), i, n)));
                }

                @Override
                public int end(int i) {
                    return (int) Math.min(n - 1, Math.max(-1, rowsBound(frame.end(), i, n)));
                }
            };
        }
        ValueRange starts = frame.start().offset() == null ? null : new ValueRange(rows, peers, order.get(0), frame.start(), true);
        ValueRange ends = frame.end().offset() == null ? null : new ValueRange(rows, peers, order.get(0), frame.end(), false);
        return new Bounds() {
            @Override
            public int start(int i) {
                return switch (frame.start().type()) {
                    case UNBOUNDED_PRECEDING -> 0;
                    case CURRENT_ROW -> peers.start;
                    default -> starts.at(i);
                };
            }

            @Override
            public int end(int i) {
                return switch (frame.end().type()) {
                    case UNBOUNDED_FOLLOWING -> n - 1;
                    case CURRENT_ROW -> peers.end - 1;
                    default -> ends.at(i);
                };
            }
        };
    }

    private static long rowsBound(Bound b, int i, int n) {
        return switch (b.type()) {
            case UNBOUNDED_PRECEDING -> 0;
            case PRECEDING -> i - b.offset().longValue();
            case CURRENT_ROW -> i;
            case FOLLOWING -> i + b.offset().longValue();
            case UNBOUNDED_FOLLOWING -> n - 1;
        };
    }

    /**
     * A RANGE frame's end n PRECEDING or n FOLLOWING the current row's ORDER BY value: the first
     * row (a start) or the last row (an end) whose value is within n of it, in the order's
     * direction. Rows whose value is NULL are never within n of a value; a row whose value is NULL
     * has its peers, the other NULLs, as that end. The row found only moves forward.
     */
    private static final class ValueRange {
        private final PartitionRows rows;
        private final Peers peers;
        private final SortKey key;
        private final Bound bound;
        private final boolean start;
        /** The first row past the bound: a start's answer, an end's next row. */
        private int next;

        ValueRange(PartitionRows rows, Peers peers, SortKey key, Bound bound, boolean start) {
            this.rows = rows;
            this.peers = peers;
            this.key = key;
            this.bound = bound;
            this.start = start;
        }

        int at(int i) {
            Object value = rows.get(i)[key.column()];
            if (value == null) {
                return start ? peers.start : peers.end - 1;
            }
            // the bound in the order's direction: n PRECEDING comes before the value
            boolean up = key.ascending() == (bound.type() == BoundType.FOLLOWING);
            Object limit = shifted(value, bound.offset(), up);
            while (next < rows.size() && (start ? before(rows.get(next)[key.column()], limit)
                    : !after(rows.get(next)[key.column()], limit))) {
                next++;
            }
            return start ? next : next - 1;
        }

        /** Whether a row's value sorts before {@code limit}. */
        private boolean before(Object v, Object limit) {
            if (v == null) {
                return key.nullsFirst();
            }
            int c = Values.compare(v, limit);
            return key.ascending() ? c < 0 : c > 0;
        }

        /** Whether a row's value sorts after {@code limit}. */
        private boolean after(Object v, Object limit) {
            if (v == null) {
                return !key.nullsFirst();
            }
            int c = Values.compare(v, limit);
            return key.ascending() ? c > 0 : c < 0;
        }

        private static Object shifted(Object value, Number offset, boolean up) {
            if (value instanceof Double || offset instanceof Double) {
                double d = ((Number) value).doubleValue();
                return up ? d + offset.doubleValue() : d - offset.doubleValue();
            }
            BigDecimal v = new BigDecimal(value.toString());
            BigDecimal o = new BigDecimal(offset.toString());
            return up ? v.add(o) : v.subtract(o);
        }
    }

    /**
     * An aggregate over each row's frame: while the frame's start stays, the rows that join it are
     * added; when it moves, the frame's rows are aggregated again (a sliding frame costs its width
     * per row); a frame equal to the last one gives the same value.
     */
    private static final class FrameAggregate implements Evaluator {
        private final AggregateCall call;
        private final PartitionRows rows;
        private final Bounds bounds;
        private AggregateCall.Accumulator acc;
        private int accStart = -1;
        /** The last row added to {@code acc}. */
        private int accEnd = -2;
        private Object result;

        FrameAggregate(AggregateCall call, PartitionRows rows, Bounds bounds) {
            this.call = call;
            this.rows = rows;
            this.bounds = bounds;
        }

        @Override
        public Object value(int i) {
            int s = bounds.start(i);
            int e = bounds.end(i);
            if (s > e) {
                return call.newAccumulator().result(); // an empty frame: count 0, the others NULL
            }
            if (s == accStart && e == accEnd) {
                return result;
            }
            if (s != accStart || e < accEnd) {
                acc = call.newAccumulator();
                accStart = s;
                accEnd = s - 1;
            }
            while (accEnd < e) {
                acc.add(rows.get(++accEnd));
            }
            result = acc.result();
            return result;
        }
    }
}
