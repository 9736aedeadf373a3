package org.oooengine.optimizer.rel;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.oooengine.core.sql.JoinKind;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.sql.expr.Expr;
import org.oooengine.core.sql.expr.Exprs;

/**
 * Conditions moved as close to the rows they test as their meaning allows: through projections
 * (a column replaced by what it computes), into every input of a UNION ALL, below a GROUP BY or a
 * window when they test only its keys, below a sort and a LATERAL VIEW, into the side of a join
 * whose columns they read, and into a scan. A condition that becomes constant on the way is decided there: true goes
 * away, false or null empties that input (so does each term of an AND or OR that does). So a view that tags each channel's rows and groups them
 * per year, referenced with {@code WHERE sale_type = 's' AND dyear = 2002} (TPC-DS Q4, Q11, Q74),
 * reads one channel's sales of one year instead of every channel's of every year. An OR that
 * cannot cross whole leaves behind it what each of its terms says of the other side: {@code (dyear
 * = 2001 AND year_total > 0) OR dyear = 2002} above a GROUP BY filters the groups' input by
 * {@code dyear = 2001 OR dyear = 2002}.
 *
 * <p>The uses of a subplan alike but filtered apart ({@link AlikeUses}: Q4's year totals read for
 * each channel and year) are pushed the OR of their filters, all alike, and each keeps its own
 * filter above: the executor computes the subplan once and filters the rows it replays to each.
 * No condition goes into such a use afterwards, which would make it unlike the others.
 *
 * <p>The analyzer already places conditions within one FROM clause; this pass carries those on a
 * derived table or view into it, and those on a join key to the other side's key
 * ({@link KeyConditions}). Expressions are deterministic, so evaluating one twice (in the
 * pushed filter and in the projection above it) changes no answer.
 */
public final class FilterPushdown {
    /** Per use of a subplan filtered apart, the condition all its uses are computed under (null: none). */
    private final Map<RelNode, Expr> alikeUses;
    /** The uses pushed, each with the conjuncts it was computed under: nothing goes into them. */
    private final Map<RelNode, List<Expr>> held = new IdentityHashMap<>();

    private FilterPushdown(Map<RelNode, Expr> alikeUses) {
        this.alikeUses = alikeUses;
    }

    public static RelNode apply(RelNode plan) {
        return new FilterPushdown(AlikeUses.sharedConditions(plan)).pushed(plan);
    }

    private RelNode pushed(RelNode plan) {
        if (!alikeUses.containsKey(plan)) {
            return pushedInto(plan);
        }
        Expr shared = alikeUses.get(plan);
        List<Expr> conjuncts = shared == null ? List.of() : Exprs.conjuncts(shared);
        RelNode use = filtered(pushedInto(plan), conjuncts);
        held.put(use, conjuncts);
        return use;
    }

    private RelNode pushedInto(RelNode plan) {
        RelNode keysCarried = plan instanceof RelNode.Join j ? KeyConditions.carried(j) : plan;
        RelNode node = RelNode.mapInputs(keysCarried, this::pushed);
        return node instanceof RelNode.Filter f ? filtered(f.input(), Exprs.conjuncts(f.condition())) : node;
    }

    /** {@code input} keeping the rows where every conjunct holds, each conjunct as low as it can go. */
    RelNode filtered(RelNode input, List<Expr> conjuncts) {
        List<Expr> terms = new ArrayList<>();
        for (Expr written : conjuncts) {
            Expr c = asInList(folded(written));
            Boolean constant = Exprs.columns(c).isEmpty() ? constant(c) : null;
            if (constant == null) {
                if (!terms.contains(c)) {
                    terms.add(c);
                }
            } else if (!constant) {
                return none(input);
            }
        }
        List<Expr> computedUnder = held.get(input);
        if (computedUnder != null) {
            terms.removeAll(computedUnder);
        }
        if (terms.isEmpty()) {
            return input;
        }
        if (computedUnder != null) {
            return new RelNode.Filter(input, Exprs.and(terms));
        }
        if (input instanceof RelNode.Filter f) {
            List<Expr> all = new ArrayList<>(Exprs.conjuncts(f.condition()));
            all.addAll(terms);
            return filtered(f.input(), all);
        }
        if (input instanceof RelNode.Scan s) {
            List<Expr> all = new ArrayList<>(s.filter() == null ? List.of() : Exprs.conjuncts(s.filter()));
            terms.stream().filter(t -> !all.contains(t)).forEach(all::add);
            return s.withFilter(Exprs.and(all));
        }
        if (input instanceof RelNode.Project p) {
            RelNode below = filtered(p.input(), terms.stream().map(c -> Exprs.substitute(c, p.exprs())).toList());
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
    private RelNode belowKeys(RelNode node, RelNode input, List<Expr> keys, List<Expr> terms,
                                     java.util.function.UnaryOperator<RelNode> over) {
        java.util.function.UnaryOperator<Expr> onInput = c -> node instanceof RelNode.Aggregate ? onGroupKeys(c, keys)
                : onPartitionKeys(c, keys);
        List<Expr> below = new ArrayList<>();
        List<Expr> above = new ArrayList<>();
        for (Expr c : terms) {
            Expr keyed = onInput.apply(c);
            (keyed != null ? below : above).add(keyed != null ? keyed : c);
            Expr implied = keyed == null && c instanceof Expr.Or or ? Exprs.implied(or, t -> onInput.apply(t) != null) : null;
            if (implied != null) { // what it says of the keys alone filters the input; the OR itself stays above
                below.add(onInput.apply(implied));
            }
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
        return !keys.isEmpty() && used.nextSetBit(keys.size()) < 0 ? Exprs.substitute(c, keys) : null;
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
    private RelNode intoUnion(RelNode.Union u, List<Expr> terms) {
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
    private RelNode belowGenerate(RelNode.Generate g, List<Expr> terms) {
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
    private RelNode intoJoin(RelNode.Join j, List<Expr> terms) {
        for (Expr c : terms) {
            RelNode moved = OneRowCrossJoins.moved(j, c, this::filtered);
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
                if (c instanceof Expr.Or or) { // what it says of one side alone filters that side; the OR itself stays above
                    Expr onLeft = intoLeft ? Exprs.implied(or, t -> Exprs.columns(t).nextSetBit(leftWidth) < 0) : null;
                    Expr onRight = intoRight ? Exprs.implied(or, t -> Exprs.columns(t).nextSetBit(0) >= leftWidth) : null;
                    if (onLeft != null) {
                        left.add(onLeft);
                    }
                    if (onRight != null) {
                        right.add(Exprs.remap(onRight, i -> i - leftWidth));
                    }
                }
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

    /**
     * {@code c} with the terms of its ANDs and ORs that read no column decided: an AND with a term
     * that does not hold is false, an OR with one that holds is true (a filter keeps a row only where
     * its condition holds, so a null term counts as false there, within ANDs and ORs).
     */
    private static Expr folded(Expr c) {
        boolean or = c instanceof Expr.Or;
        if (!or && !(c instanceof Expr.And)) {
            return c;
        }
        List<Expr> kept = new ArrayList<>();
        for (Expr term : c.children()) {
            Expr t = folded(term);
            Boolean holds = Exprs.columns(t).isEmpty() ? constant(t) : null;
            if (holds == null) {
                kept.add(t);
            } else if (holds == or) {
                return new Expr.Literal(or, SqlType.BOOLEAN);
            }
        }
        if (kept.isEmpty()) {
            return new Expr.Literal(!or, SqlType.BOOLEAN);
        }
        return kept.size() == 1 ? kept.get(0) : kept.equals(c.children()) ? c : c.withChildren(kept);
    }

    /**
     * {@code x = a OR x = b ...} (constants of x's type) as {@code x IN (a, b, ...)}: the same rows,
     * and the statistics read it as a set of x's values, the least of those a filter keeps (TPC-DS
     * Q74's {@code d_year IN (2001, 2002)} with the OR of its uses' years).
     */
    private static Expr asInList(Expr c) {
        if (!(c instanceof Expr.Or or)) {
            return c;
        }
        Expr column = null;
        List<Expr> values = new ArrayList<>();
        for (Expr term : Exprs.disjuncts(or)) {
            int at = CardinalityModel.valuesColumn(term);
            if (!(term instanceof Expr.Call eq) || at < 0) {
                return c;
            }
            Expr x = eq.args().get(0) instanceof Expr.Column ? eq.args().get(0) : eq.args().get(1);
            Expr value = x == eq.args().get(0) ? eq.args().get(1) : eq.args().get(0);
            if (column != null && !column.equals(x) || !value.type().equals(x.type())) {
                return c;
            }
            column = x;
            values.add(value);
        }
        return new Expr.InList(column, List.copyOf(values), false);
    }

    /** Whether a condition without columns holds; null when it cannot be decided here (it fails). */
    private static Boolean constant(Expr c) {
        try {
            return Boolean.TRUE.equals(c.eval(new Object[0]));
        } catch (RuntimeException e) {
            return null; // left to run, so it fails as it would have
        }
    }
}
