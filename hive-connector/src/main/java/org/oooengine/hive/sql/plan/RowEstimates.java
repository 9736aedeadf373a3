package org.oooengine.hive.sql.plan;

import org.oooengine.core.sql.expr.Expr;
import org.oooengine.core.sql.expr.Exprs;

/** How physical planning guesses row counts until it plans with the optimizer's column statistics. */
final class RowEstimates {
    /** The share of rows a filter's conjunct, or a GROUP BY, is taken to keep. */
    static final double CONJUNCT_SELECTIVITY = 0.25;

    private RowEstimates() {
    }

    /** {@code rows} under {@code condition} (null: none). */
    static long filtered(long rows, Expr condition) {
        return condition == null ? rows : kept(rows, Math.pow(CONJUNCT_SELECTIVITY, Exprs.conjuncts(condition).size()));
    }

    static long kept(long rows, double share) {
        return rows < 0 ? rows : (long) Math.ceil(rows * share);
    }
}
