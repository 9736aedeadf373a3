package org.oooengine.optimizer.rel;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.oooengine.core.sql.JoinKind;
import org.oooengine.core.sql.expr.Expr;
import org.oooengine.core.sql.expr.Exprs;

/**
 * A condition on one side's join key holds for the other side's key in every row that matches:
 * with {@code ss_sold_year = 2000} on the left of {@code ss LEFT JOIN ws ON ws_sold_year =
 * ss_sold_year}, only web sales of 2000 can match, so the right side may drop the other years
 * before it joins (TPC-DS Q78 then aggregates one year of each channel instead of all of them).
 * Conditions travel from a side whose rows the join may drop to the side it matches them with:
 * either way for an inner join, left to right for a left, semi or anti join, right to left for a
 * right join. Not into the build side of NOT IN, whose null keys change the answer.
 */
final class KeyConditions {
    private KeyConditions() {
    }

    /** {@code j} with each side also filtered by what the other side's conditions say of their common keys. */
    static RelNode.Join carried(RelNode.Join j) {
        if (j.leftKeys().length == 0) {
            return j;
        }
        JoinKind kind = j.kind();
        boolean toRight = kind == JoinKind.INNER || kind == JoinKind.LEFT || kind == JoinKind.SEMI || kind == JoinKind.ANTI;
        boolean toLeft = kind == JoinKind.INNER || kind == JoinKind.RIGHT;
        RelNode right = toRight ? carried(j.left(), j.leftKeys(), j.right(), j.rightKeys()) : j.right();
        RelNode left = toLeft ? carried(j.right(), j.rightKeys(), j.left(), j.leftKeys()) : j.left();
        return left == j.left() && right == j.right() ? j
                : new RelNode.Join(left, right, kind, j.leftKeys(), j.rightKeys(), j.residual());
    }

    private static RelNode carried(RelNode from, int[] fromKeys, RelNode to, int[] toKeys) {
        Set<Expr> present = new HashSet<>(onOneColumn(to));
        List<Expr> added = new ArrayList<>();
        for (Expr c : onOneColumn(from)) {
            int column = Exprs.columns(c).nextSetBit(0);
            for (int k = 0; k < fromKeys.length; k++) {
                int target = toKeys[k];
                if (fromKeys[k] == column
                        && from.fields().get(column).type().equals(to.fields().get(target).type())) {
                    Expr there = Exprs.remap(c, i -> target);
                    if (present.add(there)) {
                        added.add(there);
                    }
                }
            }
        }
        return added.isEmpty() ? to : new RelNode.Filter(to, Exprs.and(added));
    }

    /**
     * Conditions on a single column that hold in every row {@code node} produces: its filters and
     * its scan's, through projections that pass the column on and the kept side of joins.
     */
    static List<Expr> onOneColumn(RelNode node) {
        List<Expr> out = new ArrayList<>();
        if (node instanceof RelNode.Filter f) {
            out.addAll(single(Exprs.conjuncts(f.condition())));
            out.addAll(onOneColumn(f.input()));
        } else if (node instanceof RelNode.Scan s && s.filter() != null) {
            out.addAll(single(Exprs.conjuncts(s.filter())));
        } else if (node instanceof RelNode.Project p) {
            for (Expr c : onOneColumn(p.input())) {
                int column = Exprs.columns(c).nextSetBit(0);
                int passedAs = p.exprs().indexOf(new Expr.Column(column, p.input().fields().get(column).type()));
                if (passedAs >= 0) {
                    out.add(Exprs.remap(c, i -> passedAs));
                }
            }
        } else if (node instanceof RelNode.Join j) {
            JoinKind kind = j.kind();
            if (kind == JoinKind.INNER || kind == JoinKind.CROSS || kind == JoinKind.LEFT || kind.leftOnly()) {
                out.addAll(onOneColumn(j.left()));
            }
            if (kind == JoinKind.INNER || kind == JoinKind.CROSS) {
                int shift = j.left().fields().size();
                onOneColumn(j.right()).forEach(c -> out.add(Exprs.remap(c, i -> i + shift)));
            }
        }
        return out;
    }

    private static List<Expr> single(List<Expr> conjuncts) {
        return conjuncts.stream().filter(c -> Exprs.columns(c).cardinality() == 1).toList();
    }
}
