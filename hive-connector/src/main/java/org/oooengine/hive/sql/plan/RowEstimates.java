package org.oooengine.hive.sql.plan;

import java.util.BitSet;
import org.oooengine.core.sql.expr.Expr;
import org.oooengine.core.sql.expr.Exprs;
import org.oooengine.core.sql.expr.ScalarFunction;

/** How physical planning guesses row counts until it plans with the optimizer's column statistics. */
final class RowEstimates {
    /** The share of rows a filter's conjunct, or a GROUP BY, is taken to keep. */
    static final double CONJUNCT_SELECTIVITY = 0.25;

    private RowEstimates() {
    }

    /** {@code rows} under {@code condition} (null: none). */
    static long filtered(long rows, Expr condition) {
        return condition == null ? rows : kept(rows, share(condition));
    }

    /**
     * The share of rows {@code condition} is taken to keep: {@link #CONJUNCT_SELECTIVITY} per
     * conjunct, the bounds of one column's range counting once (a year of dates is one filter, not two).
     */
    static double share(Expr condition) {
        int filters = 0;
        BitSet ranged = new BitSet();
        for (Expr c : Exprs.conjuncts(condition)) {
            int column = rangedColumn(c);
            if (column < 0 || !ranged.get(column)) {
                filters++;
            }
            if (column >= 0) {
                ranged.set(column);
            }
        }
        return Math.pow(CONJUNCT_SELECTIVITY, filters);
    }

    /** The column {@code c} bounds from one side ({@code col < literal} and the like), or -1. */
    private static int rangedColumn(Expr c) {
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

    static long kept(long rows, double share) {
        return rows < 0 ? rows : (long) Math.ceil(rows * share);
    }
}
