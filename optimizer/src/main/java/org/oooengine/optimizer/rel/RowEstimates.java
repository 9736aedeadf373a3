package org.oooengine.optimizer.rel;

import org.oooengine.core.sql.expr.Expr;
import org.oooengine.core.sql.expr.Exprs;
import org.oooengine.core.sql.expr.ScalarFunction;

/**
 * The shares {@link CardinalityModel} falls back on where the statistics say nothing: a share per
 * filter conjunct, and for a range of a stored column whose least and greatest value are known,
 * the part of that span the range covers.
 */
final class RowEstimates {
    /** The share of rows a filter's conjunct, or a GROUP BY, is taken to keep. */
    static final double CONJUNCT_SELECTIVITY = 0.25;
    /**
     * The share a LIKE that searches inside a string ({@code '%green%'}, {@code '%BRASS'}) is
     * taken to keep: a word among many, rarer than a comparison; its negation keeps the rest.
     */
    static final double CONTAINS_SELECTIVITY = 0.1;

    /**
     * The share a LIKE with {@code pattern} is taken to keep: {@link #CONTAINS_SELECTIVITY} for each
     * piece of text between its wildcards ({@code '%special%requests%'} asks for two words, rarer
     * together than either); a pattern without text keeps every row.
     */
    static double likeShare(String pattern) {
        int pieces = 0;
        for (String piece : pattern.split("[%_]+")) {
            pieces += piece.isEmpty() ? 0 : 1;
        }
        return Math.pow(CONTAINS_SELECTIVITY, pieces);
    }

    /** A column's least and greatest stored value, or null when unknown. */
    @FunctionalInterface
    interface Ranges {
        Ranges NONE = column -> null;

        long[] of(int column);
    }

    private RowEstimates() {
    }

    /**
     * The share of rows {@code condition} is taken to keep: {@link #CONJUNCT_SELECTIVITY} per
     * conjunct, the bounds of one column's range counting once (a year of dates is one filter, not
     * two), or — when the column's span is known — the part of the span between the bounds.
     */
    static double share(Expr condition, Ranges ranges) {
        int filters = 0;
        double spans = 1;
        java.util.Map<Integer, long[]> bounds = new java.util.LinkedHashMap<>();
        for (Expr c : Exprs.conjuncts(condition)) {
            int column = rangedColumn(c);
            if (column < 0) {
                filters++;
                continue;
            }
            long[] span = ranges.of(column);
            long[] b = bounds.computeIfAbsent(column, k -> new long[] {Long.MIN_VALUE, Long.MAX_VALUE, 0});
            if (span == null || !narrow(b, (Expr.Call) c)) {
                b[2] = 1; // a bound not read from a known span: the range counts as one filter
            }
        }
        for (java.util.Map.Entry<Integer, long[]> e : bounds.entrySet()) {
            long[] span = ranges.of(e.getKey());
            long[] b = e.getValue();
            if (span == null || b[2] == 1) {
                filters++;
            } else {
                double width = (double) span[1] - span[0] + 1;
                double covered = Math.min((double) b[1], span[1]) - Math.max((double) b[0], span[0]) + 1;
                spans *= Math.max(1 / width, Math.min(1, covered / width));
            }
        }
        return spans * Math.pow(CONJUNCT_SELECTIVITY, filters);
    }

    /**
     * The share of a column spread evenly over stored span {@code span} that lies below
     * {@code bound} ({@code below}), or above it, in the span's units; at least one value's.
     */
    static double spanShare(long[] span, double bound, boolean below) {
        double width = (double) span[1] - span[0] + 1;
        double covered = below ? bound - span[0] : span[1] - bound;
        return Math.max(1 / width, Math.min(1, covered / width));
    }

    /**
     * Narrows {@code bounds} ({lowest, highest} stored value kept) by a comparison of a column with a
     * constant; false when the constant is not exactly a value of the column's type.
     */
    private static boolean narrow(long[] bounds, Expr.Call c) {
        boolean columnFirst = c.args().get(0) instanceof Expr.Column;
        Expr.Column column = (Expr.Column) (columnFirst ? c.args().get(0) : c.args().get(1));
        Expr constant = columnFirst ? c.args().get(1) : c.args().get(0);
        Long value = stored(constant, column.type());
        if (value == null) {
            return false;
        }
        ScalarFunction f = c.function();
        boolean lower = (f == ScalarFunction.GE || f == ScalarFunction.GT) == columnFirst;
        boolean strict = f == ScalarFunction.GT || f == ScalarFunction.LT;
        if (lower) {
            bounds[0] = Math.max(bounds[0], strict ? value + 1 : value);
        } else {
            bounds[1] = Math.min(bounds[1], strict ? value - 1 : value);
        }
        return true;
    }

    /** A constant as a column of {@code type} stores it (epoch day, unscaled decimal), or null. */
    private static Long stored(Expr constant, org.oooengine.core.sql.SqlType type) {
        try {
            return org.oooengine.core.vector.LongVector.exactly(constant.eval(new Object[0]), type);
        } catch (RuntimeException notConstant) {
            return null;
        }
    }

    /** The column {@code c} bounds from one side ({@code col < literal} and the like), or -1. */
    static int rangedColumn(Expr c) {
        if (c instanceof Expr.Call call && call.args().size() == 2 && (call.function() == ScalarFunction.LT
                || call.function() == ScalarFunction.LE || call.function() == ScalarFunction.GT
                || call.function() == ScalarFunction.GE)) {
            Expr a = call.args().get(0);
            Expr b = call.args().get(1);
            if (a instanceof Expr.Column col && Exprs.columns(b).isEmpty()) {
                return col.index();
            }
            if (b instanceof Expr.Column col && Exprs.columns(a).isEmpty()) {
                return col.index();
            }
        }
        return -1;
    }

    /**
     * The rows a share of {@code rows} is: the expected count to the nearest row, at least one where
     * any is kept (rounded up, 25 nations under an equality whose sketch counts 24.9 names would be two).
     */
    static long kept(long rows, double share) {
        if (rows <= 0 || !(share > 0)) {
            return rows < 0 ? rows : 0;
        }
        return Math.max(1, Math.round(rows * share));
    }
}
