package org.oooengine.hive.sql.analyze;

import java.util.BitSet;
import org.oooengine.core.sql.expr.Expr;

/**
 * Whether a condition is null-rejecting for some columns: never true when all of them are NULL,
 * as on the rows an outer join pads with NULLs. Such a condition in WHERE drops every padded row,
 * so the outer join it sits above may as well be an inner one. Conservative: what it cannot show
 * rejects nothing ({@code IS NULL}, {@code COALESCE}, {@code CASE}, an {@code OR} with one branch
 * that does not reject, a constant).
 */
final class NullRejection {
    private NullRejection() {
    }

    static boolean rejects(Expr e, BitSet nullColumns) {
        if (nullWhenNull(e, nullColumns)) {
            return true; // NULL is not TRUE
        }
        if (e instanceof Expr.And a) {
            return a.terms().stream().anyMatch(t -> rejects(t, nullColumns));
        }
        if (e instanceof Expr.Or o) {
            return o.terms().stream().allMatch(t -> rejects(t, nullColumns));
        }
        return e instanceof Expr.IsNull n && n.negated() && nullWhenNull(n.term(), nullColumns);
    }

    /** Whether {@code e} is NULL whenever every column of {@code nullColumns} is. */
    private static boolean nullWhenNull(Expr e, BitSet nullColumns) {
        if (e instanceof Expr.Column c) {
            return nullColumns.get(c.index());
        }
        if (e instanceof Expr.Call call && call.function().nullIntolerant()) {
            return call.args().stream().anyMatch(a -> nullWhenNull(a, nullColumns));
        }
        if (e instanceof Expr.InList in) {
            return nullWhenNull(in.value(), nullColumns);
        }
        if (e instanceof Expr.Like like) {
            return nullWhenNull(like.value(), nullColumns);
        }
        if (e instanceof Expr.Not not) {
            return nullWhenNull(not.term(), nullColumns);
        }
        return false;
    }
}
