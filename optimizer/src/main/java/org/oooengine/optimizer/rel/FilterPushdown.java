package org.oooengine.optimizer.rel;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import org.oooengine.core.sql.JoinKind;
import org.oooengine.core.sql.expr.Expr;
import org.oooengine.core.sql.expr.Exprs;

/**
 * Conditions moved as close to the rows they test as their meaning allows: through projections
 * (a column replaced by what it computes), into every input of a UNION ALL, below a GROUP BY or a
 * window when they test only its keys, below a sort and a LATERAL VIEW, into the side of a join
 * whose columns they read, and into a scan. A condition that becomes constant on the way is decided there: true goes
 * away, false or null empties that input. So a view that tags each channel's rows and groups them
 * per year, referenced with {@code WHERE sale_type = 's' AND dyear = 2002} (TPC-DS Q4, Q11, Q74),
 * reads one channel's sales of one year instead of every channel's of every year.
 *
 * <p>The analyzer already places conditions within one FROM clause; this pass carries those on a
 * derived table or view into it, and those on a join key to the other side's key
 * ({@link KeyConditions}). Expressions are deterministic, so evaluating one twice (in the
 * pushed filter and in the projection above it) changes no answer.
 */
public final class FilterPushdown {
    private FilterPushdown() {
    }

    public static RelNode apply(RelNode plan) {
        RelNode keysCarried = plan instanceof RelNode.Join j ? KeyConditions.carried(j) : plan;
        RelNode node = RelNode.mapInputs(keysCarried, FilterPushdown::apply);
        return node instanceof RelNode.Filter f ? filtered(f.input(), Exprs.conjuncts(f.condition())) : node;
    }

    /** {@code input} keeping the rows where every conjunct holds, each conjunct as low as it can go. */
    static RelNode filtered(RelNode input, List<Expr> conjuncts) {
        List<Expr> terms = new ArrayList<>();
        for (Expr c : conjuncts) {
            Boolean constant = Exprs.columns(c).isEmpty() ? constant(c) : null;
            if (constant == null) {
                terms.add(c);
            } else if (!constant) {
                return none(input);
            }
        }
        if (terms.isEmpty()) {
            return input;
        }
        if (input instanceof RelNode.Filter f) {
            List<Expr> all = new ArrayList<>(Exprs.conjuncts(f.condition()));
            all.addAll(terms);
            return filtered(f.input(), all);
        }
        if (input instanceof RelNode.Scan s) {
            List<Expr> all = new ArrayList<>(s.filter() == null ? List.of() : Exprs.conjuncts(s.filter()));
            all.addAll(terms);
            return s.withFilter(Exprs.and(all));
        }
        if (input instanceof RelNode.Project p) {
            RelNode below = filtered(p.input(), terms.stream().map(c -> substituted(c, p.exprs())).toList());
            return empty(below) ? none(p) : new RelNode.Project(below, p.exprs(), p.fields());
        }
        if (input instanceof RelNode.Sort s) {
            RelNode below = filtered(s.input(), terms);
            return empty(below) ? none(s) : new RelNode.Sort(below, s.keys());
        }
        if (input instanceof RelNode.Union u) {
            return intoUnion(u, terms);
        }
        if (input instanceof RelNode.Aggregate a) {
            return belowKeys(a, a.input(), a.keys(), terms,
                    below -> new RelNode.Aggregate(below, a.keys(), a.aggregates(), a.fields()));
        }
        if (input instanceof RelNode.Window w) {
            return belowKeys(w, w.input(), w.partitionKeys(), terms,
                    below -> new RelNode.Window(below, w.partitionKeys(), w.orderKeys(), w.calls(), w.fields()));
        }
        if (input instanceof RelNode.Join j) {
            return intoJoin(j, terms);
        }
        if (input instanceof RelNode.Generate g) {
            return belowGenerate(g, terms);
        }
        return new RelNode.Filter(input, Exprs.and(terms));
    }

    /**
     * Conjuncts that read only the keys (of a GROUP BY: its first output columns; of a window: the
     * input columns it partitions by) keep or drop whole groups, so they may test the input rows.
     */
    private static RelNode belowKeys(RelNode node, RelNode input, List<Expr> keys, List<Expr> terms,
                                     java.util.function.UnaryOperator<RelNode> over) {
        List<Expr> below = new ArrayList<>();
        List<Expr> above = new ArrayList<>();
        for (Expr c : terms) {
            Expr onInput = node instanceof RelNode.Aggregate ? onGroupKeys(c, keys) : onPartitionKeys(c, keys);
            (onInput != null ? below : above).add(onInput != null ? onInput : c);
        }
        if (below.isEmpty()) {
            return new RelNode.Filter(node, Exprs.and(terms));
        }
        RelNode kept = filtered(input, below);
        RelNode pushed = empty(kept) ? none(node) : over.apply(kept); // keyed: no input rows, no groups
        return above.isEmpty() ? pushed : new RelNode.Filter(pushed, Exprs.and(above));
    }

    /** {@code c} over an aggregate's input when it reads only key outputs, else null. */
    private static Expr onGroupKeys(Expr c, List<Expr> keys) {
        BitSet used = Exprs.columns(c);
        return !keys.isEmpty() && used.nextSetBit(keys.size()) < 0 ? substituted(c, keys) : null;
    }

    /** {@code c} as it is when every column it reads is one the window partitions by, else null. */
    private static Expr onPartitionKeys(Expr c, List<Expr> keys) {
        BitSet partitionColumns = new BitSet();
        keys.forEach(k -> {
            if (k instanceof Expr.Column col) {
                partitionColumns.set(col.index());
            }
        });
        BitSet used = Exprs.columns(c);
        used.andNot(partitionColumns);
        return used.isEmpty() ? c : null;
    }

    /**
     * Each input of the union gets the conjuncts, over its own columns; one whose column types
     * differ from the union's stays above (the analyzer casts inputs to one type, so that is rare).
     * Inputs that a conjunct empties leave the union.
     */
    private static RelNode intoUnion(RelNode.Union u, List<Expr> terms) {
        List<Expr> pushable = new ArrayList<>();
        List<Expr> above = new ArrayList<>();
        for (Expr c : terms) {
            (sameTypesInEveryInput(u, Exprs.columns(c)) ? pushable : above).add(c);
        }
        if (pushable.isEmpty()) {
            return new RelNode.Filter(u, Exprs.and(terms));
        }
        List<RelNode> inputs = new ArrayList<>();
        for (RelNode in : u.inputs()) {
            RelNode kept = filtered(in, pushable);
            if (!empty(kept)) {
                inputs.add(kept);
            }
        }
        RelNode union = inputs.isEmpty() ? none(u) : new RelNode.Union(inputs, u.fields());
        return above.isEmpty() ? union : new RelNode.Filter(union, Exprs.and(above));
    }

    private static boolean sameTypesInEveryInput(RelNode.Union u, BitSet columns) {
        for (RelNode in : u.inputs()) {
            for (int i = columns.nextSetBit(0); i >= 0; i = columns.nextSetBit(i + 1)) {
                if (!in.fields().get(i).type().equals(u.fields().get(i).type())) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * A LATERAL VIEW repeats each input row once per generated value (once with nulls when OUTER
     * and there are none): conjuncts on the row's own columns may test it before.
     */
    private static RelNode belowGenerate(RelNode.Generate g, List<Expr> terms) {
        int width = g.input().fields().size();
        List<Expr> below = terms.stream().filter(c -> Exprs.columns(c).nextSetBit(width) < 0).toList();
        List<Expr> above = terms.stream().filter(c -> !below.contains(c)).toList();
        if (below.isEmpty()) {
            return new RelNode.Filter(g, Exprs.and(terms));
        }
        RelNode kept = filtered(g.input(), below);
        RelNode pushed = empty(kept) ? none(g) : new RelNode.Generate(kept, g.generator(), g.fields());
        return above.isEmpty() ? pushed : new RelNode.Filter(pushed, Exprs.and(above));
    }

    /**
     * Conjuncts on one side's columns go into that side where the join keeps that side's rows as
     * they are: either side of an inner or cross join, the left of a left, semi or anti join; those
     * on both sides of an inner equi-join become part of its condition.
     */
    private static RelNode intoJoin(RelNode.Join j, List<Expr> terms) {
        for (Expr c : terms) {
            RelNode moved = OneRowCrossJoins.moved(j, c);
            if (moved != null) {
                List<Expr> rest = new ArrayList<>(terms);
                rest.remove(c);
                return rest.isEmpty() ? moved : filtered(moved, rest);
            }
        }
        int leftWidth = j.left().fields().size();
        boolean intoLeft = switch (j.kind()) {
            case INNER, CROSS, LEFT, SEMI, ANTI, ANTI_NULL_AWARE -> true;
            default -> false;
        };
        boolean intoRight = j.kind() == JoinKind.INNER || j.kind() == JoinKind.CROSS;
        List<Expr> left = new ArrayList<>();
        List<Expr> right = new ArrayList<>();
        List<Expr> above = new ArrayList<>();
        for (Expr c : terms) {
            BitSet used = Exprs.columns(c);
            if (intoLeft && used.nextSetBit(leftWidth) < 0) {
                left.add(c);
            } else if (intoRight && used.nextSetBit(0) >= leftWidth) {
                right.add(Exprs.remap(c, i -> i - leftWidth));
            } else {
                above.add(c);
            }
        }
        // An inner equi-join takes a condition on both sides as part of its own: the join order then
        // sees it and applies it where its relations first meet (TPC-DS Q01's returns above a store's
        // average, compared as soon as the returns meet the averages rather than after every join).
        boolean residual = j.kind() == JoinKind.INNER && j.leftKeys().length > 0 && !above.isEmpty();
        if (left.isEmpty() && right.isEmpty() && !residual) {
            return new RelNode.Filter(j, Exprs.and(terms));
        }
        RelNode leftRows = left.isEmpty() ? j.left() : filtered(j.left(), left);
        RelNode rightRows = right.isEmpty() ? j.right() : filtered(j.right(), right);
        if (empty(leftRows) || j.kind() != JoinKind.LEFT && j.kind() != JoinKind.ANTI && j.kind() != JoinKind.ANTI_NULL_AWARE
                && empty(rightRows)) {
            return none(j);
        }
        if (residual) {
            List<Expr> both = new ArrayList<>(j.residual() == null ? List.of() : Exprs.conjuncts(j.residual()));
            both.addAll(above);
            return new RelNode.Join(leftRows, rightRows, j.kind(), j.leftKeys(), j.rightKeys(), Exprs.and(both));
        }
        RelNode joined = new RelNode.Join(leftRows, rightRows, j.kind(), j.leftKeys(), j.rightKeys(), j.residual());
        return above.isEmpty() ? joined : new RelNode.Filter(joined, Exprs.and(above));
    }

    /** No rows, with the columns of {@code node}: what a condition that never holds leaves of it. */
    private static RelNode none(RelNode node) {
        return new RelNode.Values(node.fields(), List.of());
    }

    private static boolean empty(RelNode node) {
        return node instanceof RelNode.Values v && v.rows().isEmpty();
    }

    /** Whether a condition without columns holds; null when it cannot be decided here (it fails). */
    private static Boolean constant(Expr c) {
        try {
            return Boolean.TRUE.equals(c.eval(new Object[0]));
        } catch (RuntimeException e) {
            return null; // left to run, so it fails as it would have
        }
    }

    /** {@code e} with each column {@code i} replaced by {@code exprs.get(i)}. */
    private static Expr substituted(Expr e, List<Expr> exprs) {
        if (e instanceof Expr.Column c) {
            return exprs.get(c.index());
        }
        List<Expr> children = e.children();
        return children.isEmpty() ? e : e.withChildren(children.stream().map(x -> substituted(x, exprs)).toList());
    }
}
