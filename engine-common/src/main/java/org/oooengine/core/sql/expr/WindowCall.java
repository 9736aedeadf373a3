package org.oooengine.core.sql.expr;

import java.util.Locale;
import java.util.function.IntFunction;
import org.oooengine.core.sql.SqlType;

/**
 * One window function of an {@code OVER (...)} clause, as a window operator computes it for each
 * row of a partition (the partition and the order belong to the operator, shared by its calls):
 * a ranking ({@code row_number}, {@code rank}, ...), {@code ntile}, {@code lag}/{@code lead}, a
 * value of the frame ({@code first_value}/{@code last_value}) or an aggregate over the frame.
 * Expressions read the operator's input row.
 *
 * @param arg        the value of lag, lead, first_value and last_value; null for the others
 * @param aggregate  the aggregate computed over the frame, for {@link Kind#AGGREGATE}; else null
 * @param offset     lag's and lead's distance (rows), ntile's number of buckets; else 0
 * @param fallback   what lag and lead give past the partition's edge (NULL when not given); else null
 * @param ignoreNulls first_value's and last_value's second argument: skip NULL values
 * @param frame      the rows of the partition the value is computed over; null for the functions
 *                   that take none (rankings, ntile, lag, lead)
 */
public record WindowCall(Kind kind, Expr arg, AggregateCall aggregate, long offset, Expr fallback, boolean ignoreNulls,
                         Frame frame, SqlType type) {
    public enum Kind {
        ROW_NUMBER, RANK, DENSE_RANK, PERCENT_RANK, CUME_DIST, NTILE, LAG, LEAD, FIRST_VALUE, LAST_VALUE, AGGREGATE;

        /** Whether the value depends on a frame (the others read the partition's order only). */
        public boolean framed() {
            return this == FIRST_VALUE || this == LAST_VALUE || this == AGGREGATE;
        }

        /** The SQL name, e.g. {@code row_number}. */
        public String sqlName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public WindowCall {
        if (kind.framed() != (frame != null)) {
            throw new IllegalArgumentException(kind + (frame == null ? " needs a frame" : " takes no frame"));
        }
        if ((kind == Kind.AGGREGATE) != (aggregate != null)) {
            throw new IllegalArgumentException(kind + " and an aggregate call go together");
        }
    }

    /** row_number, rank, dense_rank, percent_rank or cume_dist. */
    public static WindowCall ranking(Kind kind) {
        SqlType type = kind == Kind.PERCENT_RANK || kind == Kind.CUME_DIST ? SqlType.DOUBLE : SqlType.INT;
        return new WindowCall(kind, null, null, 0, null, false, null, type);
    }

    /** ntile(buckets): which of {@code buckets} groups of (nearly) equal size the row falls in, from 1. */
    public static WindowCall ntile(long buckets) {
        return new WindowCall(Kind.NTILE, null, null, buckets, null, false, null, SqlType.INT);
    }

    /** lag or lead: {@code arg} of the row {@code offset} rows before or after, else {@code fallback}. */
    public static WindowCall shift(Kind kind, Expr arg, long offset, Expr fallback) {
        return new WindowCall(kind, arg, null, offset, fallback, false, null, arg.type());
    }

    /** first_value or last_value of {@code arg} over the frame. */
    public static WindowCall value(Kind kind, Expr arg, boolean ignoreNulls, Frame frame) {
        return new WindowCall(kind, arg, null, 0, null, ignoreNulls, frame, arg.type());
    }

    /** An aggregate over the frame. */
    public static WindowCall aggregate(AggregateCall call, Frame frame) {
        return new WindowCall(Kind.AGGREGATE, null, call, 0, null, false, frame, call.type());
    }

    /**
     * The same call over the partition sorted the other way round: the frame mirrored (n
     * PRECEDING is n FOLLOWING), first_value is last_value. A frame that ends at the partition's
     * end is computed so, as one that starts at its beginning, whose rows only ever join it.
     */
    public WindowCall mirrored() {
        Kind k = kind == Kind.FIRST_VALUE ? Kind.LAST_VALUE : kind == Kind.LAST_VALUE ? Kind.FIRST_VALUE : kind;
        return new WindowCall(k, arg, aggregate, offset, fallback, ignoreNulls, frame == null ? null : frame.mirrored(), type);
    }

    /** The call as SQL, e.g. {@code sum(x) ROWS BETWEEN 2 PRECEDING AND CURRENT ROW}, {@code lag(x, 1, 0)}. */
    public String text(IntFunction<String> column) {
        String call = switch (kind) {
            case AGGREGATE -> ExprText.of(aggregate, column);
            case NTILE -> "ntile(" + offset + ")";
            case LAG, LEAD -> kind.sqlName() + "(" + ExprText.of(arg, column) + ", " + offset
                    + (fallback == null ? "" : ", " + ExprText.of(fallback, column)) + ")";
            case FIRST_VALUE, LAST_VALUE -> kind.sqlName() + "(" + ExprText.of(arg, column) + (ignoreNulls ? ", TRUE" : "") + ")";
            default -> kind.sqlName() + "()";
        };
        return frame == null ? call : call + " " + frame;
    }

    /** One key of a window's ORDER BY: an expression over the input row, its direction, and where NULLs go. */
    public record OrderKey(Expr expr, boolean ascending, boolean nullsFirst) {
        /** The key sorted the other way round: the same peers, in the opposite order. */
        public OrderKey reversed() {
            return new OrderKey(expr, !ascending, !nullsFirst);
        }
    }

    /**
     * The rows a framed function reads, around the current row: {@code ROWS} counts rows, {@code
     * RANGE} compares the (single) ORDER BY value, its CURRENT ROW meaning the row and its peers.
     */
    public record Frame(boolean rows, Bound start, Bound end) {
        /** The default with ORDER BY: from the partition's first row to the current row's last peer. */
        public static final Frame TO_CURRENT_PEERS = new Frame(false, Bound.UNBOUNDED_PRECEDING, Bound.CURRENT_ROW);
        /** The default without ORDER BY: the whole partition. */
        public static final Frame WHOLE_PARTITION = new Frame(true, Bound.UNBOUNDED_PRECEDING, Bound.UNBOUNDED_FOLLOWING);

        public Frame {
            if (start.type() == BoundType.UNBOUNDED_FOLLOWING || end.type() == BoundType.UNBOUNDED_PRECEDING) {
                throw new IllegalArgumentException("a frame cannot start at UNBOUNDED FOLLOWING or end at UNBOUNDED PRECEDING");
            }
        }

        public Frame mirrored() {
            return new Frame(rows, end.mirrored(), start.mirrored());
        }

        /** Whether it ends at the partition's end but starts after its beginning: computed mirrored. */
        public boolean shrinking() {
            return end.type() == BoundType.UNBOUNDED_FOLLOWING && start.type() != BoundType.UNBOUNDED_PRECEDING;
        }

        /** Whether a RANGE bound is an offset from the ORDER BY value. */
        public boolean rangeOffsets() {
            return !rows && (start.offset() != null || end.offset() != null);
        }

        @Override
        public String toString() {
            return (rows ? "ROWS" : "RANGE") + " BETWEEN " + start + " AND " + end;
        }
    }

    public enum BoundType {
        UNBOUNDED_PRECEDING, PRECEDING, CURRENT_ROW, FOLLOWING, UNBOUNDED_FOLLOWING
    }

    /** One end of a frame; {@code offset} (a non-negative number) for n PRECEDING and n FOLLOWING. */
    public record Bound(BoundType type, Number offset) {
        public static final Bound UNBOUNDED_PRECEDING = new Bound(BoundType.UNBOUNDED_PRECEDING, null);
        public static final Bound CURRENT_ROW = new Bound(BoundType.CURRENT_ROW, null);
        public static final Bound UNBOUNDED_FOLLOWING = new Bound(BoundType.UNBOUNDED_FOLLOWING, null);

        public Bound {
            if ((type == BoundType.PRECEDING || type == BoundType.FOLLOWING) != (offset != null)) {
                throw new IllegalArgumentException(type + (offset == null ? " needs an offset" : " takes no offset"));
            }
        }

        public static Bound preceding(Number n) {
            return new Bound(BoundType.PRECEDING, n);
        }

        public static Bound following(Number n) {
            return new Bound(BoundType.FOLLOWING, n);
        }

        Bound mirrored() {
            return switch (type) {
                case UNBOUNDED_PRECEDING -> UNBOUNDED_FOLLOWING;
                case PRECEDING -> following(offset);
                case CURRENT_ROW -> CURRENT_ROW;
                case FOLLOWING -> preceding(offset);
                case UNBOUNDED_FOLLOWING -> UNBOUNDED_PRECEDING;
            };
        }

        @Override
        public String toString() {
            return switch (type) {
                case UNBOUNDED_PRECEDING -> "UNBOUNDED PRECEDING";
                case PRECEDING -> offset + " PRECEDING";
                case CURRENT_ROW -> "CURRENT ROW";
                case FOLLOWING -> offset + " FOLLOWING";
                case UNBOUNDED_FOLLOWING -> "UNBOUNDED FOLLOWING";
            };
        }
    }
}
