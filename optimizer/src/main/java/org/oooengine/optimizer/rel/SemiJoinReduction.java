package org.oooengine.optimizer.rel;

import org.oooengine.core.sql.JoinKind;
import org.oooengine.core.sql.expr.Expr;

/**
 * A semi join whose kept side holds few of the keys (TPC-DS Q95's web orders of one state, site
 * and two months, IN the orders shipped from two warehouses) has the tables its other side reads
 * semi-joined with the kept side first, where that is estimated to keep a tenth of their rows or
 * less, wherever the key column comes from unchanged: through projections, filters, a GROUP BY on
 * it, a UNION ALL's branches, and to both sides of an inner join that equates it — Q95's
 * self-join of all web sales becomes one of the few orders kept. Only whether a key occurs
 * matters to a semi join, and a row of the other side whose key the kept side lacks matches none
 * of its rows. An anti join's other side is reduced alike (TPC-H Q21's late lineitems of other
 * suppliers, NOT EXISTS for the few orders of one nation's suppliers): a row whose key the kept side
 * lacks excludes none of its rows, whatever the residual condition. Not NOT IN's, whose NULL keys
 * exclude every row. The kept side is taken without its own semi and anti joins (they only drop
 * rows: its keys are then a superset), so that it does not carry the other side into itself.
 */
final class SemiJoinReduction {
    /** How many times fewer of a table's rows the kept side's keys must be estimated to keep for it to be reduced. */
    static final int MIN_REDUCTION = 10;

    private final CardinalityModel model;

    private SemiJoinReduction(CardinalityModel model) {
        this.model = model;
    }

    static RelNode apply(RelNode plan, CardinalityModel model) {
        return new SemiJoinReduction(model).visit(plan);
    }

    private RelNode visit(RelNode node) {
        RelNode mapped = RelNode.mapInputs(node, this::visit);
        if (!(mapped instanceof RelNode.Join j) || (j.kind() != JoinKind.SEMI && j.kind() != JoinKind.ANTI)
                || j.leftKeys().length == 0) {
            return mapped;
        }
        RelNode keys = withoutSemiJoins(j.left());
        RelNode right = reduced(j.right(), j.rightKeys()[0], new Reducer(keys, j.leftKeys()[0]));
        return right == j.right() ? mapped : new RelNode.Join(j.left(), right, j.kind(), j.leftKeys(), j.rightKeys(), j.residual());
    }

    /** The rows whose column {@code column} filters a larger table's. */
    private record Reducer(RelNode keys, int column) {
    }

    /**
     * The other side of semi or anti join {@code j} without its reduction by {@code j}'s kept
     * side: where the join runs the other way round on each node (the kept rows built, the other
     * side probing them), every row of the other side meets the kept rows' keys anyway, and the
     * reduction would only compute the kept side once more (TPC-H Q21's late lineitems, whose
     * pipeline ran three times on each node, as the kept rows and as each of two reducers).
     */
    static RelNode unreduced(RelNode.Join j) {
        return withoutReductions(j.right(), withoutSemiJoins(j.left()));
    }

    private static RelNode withoutReductions(RelNode node, RelNode keys) {
        if (node instanceof RelNode.Join semi && semi.kind() == JoinKind.SEMI && semi.right().equals(keys)) {
            return semi.left();
        }
        return node instanceof RelNode.Scan ? node : RelNode.mapInputs(node, input -> withoutReductions(input, keys));
    }

    /** {@code node} without the semi and anti joins over it (under projections and filters): the same columns, more rows. */
    private static RelNode withoutSemiJoins(RelNode node) {
        if (node instanceof RelNode.Join j && (j.kind() == JoinKind.SEMI || j.kind() == JoinKind.ANTI
                || j.kind() == JoinKind.ANTI_NULL_AWARE)) {
            return withoutSemiJoins(j.left());
        }
        if (node instanceof RelNode.Project p) {
            RelNode input = withoutSemiJoins(p.input());
            return input == p.input() ? p : new RelNode.Project(input, p.exprs(), p.fields());
        }
        if (node instanceof RelNode.Filter f) {
            RelNode input = withoutSemiJoins(f.input());
            return input == f.input() ? f : new RelNode.Filter(input, f.condition());
        }
        return node;
    }

    /**
     * {@code node} with each large table it reads whose column becomes its output column
     * {@code column} unchanged semi-joined with the reducer's keys; {@code node} itself when there
     * is none.
     */
    private RelNode reduced(RelNode node, int column, Reducer r) {
        if (node instanceof RelNode.Scan s) {
            if (!s.fields().get(column).type().equals(r.keys().fields().get(r.column()).type())) {
                return s;
            }
            RelNode.Join semi = new RelNode.Join(s, r.keys(), JoinKind.SEMI, new int[] {column}, new int[] {r.column()}, null);
            long rows = model.rows(s);
            long kept = model.rows(semi);
            // worth it when the keys keep few of the table's rows, not when they are most of its keys
            return rows >= 0 && kept >= 0 && kept * MIN_REDUCTION <= rows ? semi : s;
        }
        if (node instanceof RelNode.Project p) {
            if (!(p.exprs().get(column) instanceof Expr.Column c)) {
                return p;
            }
            RelNode input = reduced(p.input(), c.index(), r);
            return input == p.input() ? p : new RelNode.Project(input, p.exprs(), p.fields());
        }
        if (node instanceof RelNode.Filter f) {
            RelNode input = reduced(f.input(), column, r);
            return input == f.input() ? f : new RelNode.Filter(input, f.condition());
        }
        if (node instanceof RelNode.Aggregate a) {
            if (column >= a.keys().size() || !(a.keys().get(column) instanceof Expr.Column c)) {
                return a;
            }
            RelNode input = reduced(a.input(), c.index(), r);
            return input == a.input() ? a : new RelNode.Aggregate(input, a.keys(), a.aggregates(), a.fields());
        }
        if (node instanceof RelNode.Union u) {
            boolean changed = false;
            java.util.List<RelNode> inputs = new java.util.ArrayList<>();
            for (RelNode in : u.inputs()) {
                RelNode branch = reduced(in, column, r);
                changed |= branch != in;
                inputs.add(branch);
            }
            return changed ? new RelNode.Union(inputs, u.fields()) : u;
        }
        if (node instanceof RelNode.Join j) {
            return reducedJoin(j, column, r);
        }
        return node;
    }

    /**
     * A join reduced on its output column {@code column}: the side it comes from, and the other
     * side through a key pair equating it, where that keeps the join's answer for the rows the
     * reducer keeps — inner joins either way, semi and anti joins on their kept side's column
     * (a row of the other side whose key is not kept meets only rows that are dropped), left
     * joins only on their left side's column (the right side's columns may be nulls it made).
     */
    private RelNode reducedJoin(RelNode.Join j, int column, Reducer r) {
        JoinKind kind = j.kind();
        int lw = j.left().fields().size();
        boolean fromLeft = column < lw;
        boolean inner = kind == JoinKind.INNER || kind == JoinKind.CROSS;
        boolean keepsLeft = kind == JoinKind.SEMI || kind == JoinKind.ANTI || kind == JoinKind.LEFT;
        if (!inner && !(keepsLeft && fromLeft)) {
            return j;
        }
        RelNode left = j.left();
        RelNode right = j.right();
        int[] mine = fromLeft ? j.leftKeys() : j.rightKeys();
        int[] partners = fromLeft ? j.rightKeys() : j.leftKeys();
        int at = fromLeft ? column : column - lw;
        int partner = -1;
        for (int i = 0; i < mine.length; i++) {
            if (mine[i] == at) {
                partner = partners[i];
            }
        }
        if (fromLeft) {
            left = reduced(left, at, r);
            right = partner >= 0 ? reduced(right, partner, r) : right;
        } else {
            right = reduced(right, at, r);
            left = partner >= 0 ? reduced(left, partner, r) : left;
        }
        return left == j.left() && right == j.right() ? j
                : new RelNode.Join(left, right, kind, j.leftKeys(), j.rightKeys(), j.residual());
    }
}
