package org.oooengine.core.fragment;

import java.util.List;
import org.oooengine.core.sql.expr.Expr;
import org.oooengine.core.sql.expr.Exprs;
import org.oooengine.core.sql.expr.ScalarFunction;
import org.oooengine.core.sql.expr.WindowCall;

/**
 * What a filter right above a window asks of its ranks: a conjunct {@code rank() <= N} (or
 * {@code <}, {@code row_number()}, {@code dense_rank()}, the constant on either side) keeps only
 * rows ranked {@code max} or better in their partition, so a row that already has that many rows
 * (distinct values, for {@code dense_rank}) ahead of it in its partition need not be sorted
 * ({@link TopRankedRows}; as Trino's TopNRanking, Spark's WindowGroupLimit). Only windows whose
 * calls are all rankings qualify: the others (a count over the partition, {@code lead}, ...)
 * read the rows such a filter drops.
 *
 * @param kind the ranking the limit is on
 * @param max  the greatest rank the filter keeps (0: none)
 */
public record RankLimit(WindowCall.Kind kind, long max) {
    /** The most ranks per partition a limit holds; a filter asking for more is not one. */
    static final long MAX_RANKS = 10_000;

    /**
     * The limit {@code filter}, over the rows a window of {@code calls} makes of rows of
     * {@code width} columns, puts on them; null when it puts none (or {@code filter} is null).
     */
    public static RankLimit of(int width, List<WindowCall> calls, Expr filter) {
        if (filter == null || calls.stream().anyMatch(c -> !ranking(c.kind()))) {
            return null;
        }
        RankLimit tightest = null;
        for (Expr term : Exprs.conjuncts(filter)) {
            RankLimit limit = ofTerm(width, calls, term);
            if (limit != null && (tightest == null || limit.max < tightest.max)) {
                tightest = limit;
            }
        }
        return tightest;
    }

    private static RankLimit ofTerm(int width, List<WindowCall> calls, Expr term) {
        if (!(term instanceof Expr.Call c) || c.args().size() != 2) {
            return null;
        }
        ScalarFunction op = c.function();
        Expr call = c.args().get(0);
        Expr bound = c.args().get(1);
        if (bound instanceof Expr.Column) { // N >= rank(): as rank() <= N
            call = c.args().get(1);
            bound = c.args().get(0);
            op = op == ScalarFunction.GE ? ScalarFunction.LE : op == ScalarFunction.GT ? ScalarFunction.LT : null;
        }
        if (!(call instanceof Expr.Column column) || column.index() < width || column.index() >= width + calls.size()
                || !(bound instanceof Expr.Literal literal) || !(literal.value() instanceof Number n)
                || n instanceof Double || n instanceof Float || n instanceof java.math.BigDecimal) {
            return null;
        }
        long value = n.longValue();
        long max = op == ScalarFunction.LE ? value : op == ScalarFunction.LT ? value - 1 : -1;
        if (op != ScalarFunction.LE && op != ScalarFunction.LT || max > MAX_RANKS) {
            return null;
        }
        return new RankLimit(calls.get(column.index() - width).kind(), Math.max(0, max));
    }

    private static boolean ranking(WindowCall.Kind kind) {
        return kind == WindowCall.Kind.ROW_NUMBER || kind == WindowCall.Kind.RANK || kind == WindowCall.Kind.DENSE_RANK;
    }
}
