package org.oooengine.optimizer.rel;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import org.oooengine.core.sql.JoinKind;
import org.oooengine.core.sql.expr.Expr;
import org.oooengine.core.sql.expr.Exprs;

/**
 * A comparison with an uncorrelated scalar subquery's value (TPC-DS Q06's {@code d.d_month_seq =
 * (SELECT DISTINCT d_month_seq ...)}) is planned as a cross join of the FROM clause's inner joins
 * with the subquery's one row, then a filter, so it applied after every join. A cross join
 * commutes with inner joins, so when the comparison reads one input of those joins besides the
 * value, the row joins that input instead and the comparison filters it there: Q06 then joins
 * one month of dates with the sales, not all of them.
 */
final class OneRowCrossJoins {
    private OneRowCrossJoins() {
    }

    /**
     * {@code j}, a cross join of an inner join with at most one row, rebuilt with the row crossed
     * into the input of that join that {@code c} reads, {@code c} applied there and the columns in
     * {@code j}'s order; null when {@code c} reads both inputs, or only the row, or {@code j} is not
     * of that shape. {@code filtered}: an input with conjuncts applied, as the pass that moves them applies them.
     */
    static RelNode moved(RelNode.Join j, Expr c, java.util.function.BiFunction<RelNode, List<Expr>, RelNode> filtered) {
        if (j.kind() != JoinKind.CROSS || j.residual() != null || !PipelinePlanner.atMostOneRow(j.right())
                || !(j.left() instanceof RelNode.Join inner)
                || inner.kind() != JoinKind.INNER && inner.kind() != JoinKind.CROSS) {
            return null;
        }
        int a = inner.left().fields().size();
        int b = inner.right().fields().size();
        int s = j.right().fields().size();
        BitSet read = Exprs.columns(c).get(0, a + b);
        if (read.isEmpty()) {
            return null;
        }
        if (read.nextSetBit(0) >= a) { // the right input: its columns and the row's keep their places
            RelNode crossed = filtered.apply(cross(inner.right(), j.right()), List.of(Exprs.remap(c, i -> i - a)));
            return new RelNode.Join(inner.left(), crossed, inner.kind(), inner.leftKeys(), inner.rightKeys(), inner.residual());
        }
        if (read.nextSetBit(a) < 0) { // the left input: the row's columns come before the right input's
            RelNode crossed = filtered.apply(cross(inner.left(), j.right()),
                    List.of(Exprs.remap(c, i -> i < a ? i : i - b)));
            Expr residual = inner.residual() == null ? null : Exprs.remap(inner.residual(), i -> i < a ? i : i + s);
            RelNode joined = new RelNode.Join(crossed, inner.right(), inner.kind(), inner.leftKeys(), inner.rightKeys(), residual);
            List<Expr> order = new ArrayList<>();
            for (int i = 0; i < a + b + s; i++) {
                int from = i < a ? i : i < a + b ? i + s : i - b;
                order.add(new Expr.Column(from, j.fields().get(i).type()));
            }
            return new RelNode.Project(joined, order, j.fields());
        }
        return null;
    }

    private static RelNode.Join cross(RelNode rows, RelNode row) {
        return new RelNode.Join(rows, row, JoinKind.CROSS, new int[0], new int[0], null);
    }
}
