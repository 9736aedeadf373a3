package org.oooengine.core.sql.expr;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.IntUnaryOperator;
import java.util.function.Predicate;

/** Structural helpers over bound expressions: which columns they read, moving them to another row layout, conjuncts. */
public final class Exprs {
    private Exprs() {
    }

    /** The input columns {@code e} reads. */
    public static BitSet columns(Expr e) {
        BitSet out = new BitSet();
        collect(e, out);
        return out;
    }

    private static void collect(Expr e, BitSet out) {
        if (e instanceof Expr.Column c) {
            out.set(c.index());
        }
        e.children().forEach(x -> collect(x, out));
    }

    /** {@code e} with every column {@code i} replaced by column {@code map(i)}. */
    public static Expr remap(Expr e, IntUnaryOperator map) {
        if (e instanceof Expr.Column c) {
            return new Expr.Column(map.applyAsInt(c.index()), c.type());
        }
        List<Expr> children = e.children();
        return children.isEmpty() ? e : e.withChildren(children.stream().map(x -> remap(x, map)).toList());
    }

    /** {@code e} with each column {@code i} replaced by {@code exprs.get(i)}: an expression over a projection's input. */
    public static Expr substitute(Expr e, List<Expr> exprs) {
        if (e instanceof Expr.Column c) {
            return exprs.get(c.index());
        }
        List<Expr> children = e.children();
        return children.isEmpty() ? e : e.withChildren(children.stream().map(x -> substitute(x, exprs)).toList());
    }

    /** The terms of a conjunction, flattened. */
    public static List<Expr> conjuncts(Expr e) {
        List<Expr> out = new ArrayList<>();
        if (e instanceof Expr.And a) {
            a.terms().forEach(t -> out.addAll(conjuncts(t)));
        } else {
            out.add(e);
        }
        return out;
    }

    /**
     * The conjuncts every disjunct of an OR shares, e.g. the join condition written into each
     * branch of TPC-H Q19: pulled out, they become a join key instead of a filter on a cross product.
     */
    public static List<Expr> commonConjuncts(Expr.Or or) {
        List<Expr> common = null;
        for (Expr d : disjuncts(or)) {
            List<Expr> c = conjuncts(d);
            if (common == null) {
                common = new ArrayList<>(c);
            } else {
                common.retainAll(c);
            }
        }
        return common == null ? List.of() : common;
    }

    /**
     * A condition that {@code or} implies and that only {@code own} terms make up: the OR of each
     * branch's own conjuncts, or null when a branch has none. {@code (n1 = 'FRANCE' AND n2 =
     * 'GERMANY') OR (n1 = 'GERMANY' AND n2 = 'FRANCE')} implies {@code n1 = 'FRANCE' OR n1 =
     * 'GERMANY'}, a condition on n1 alone; where the OR holds, so does it.
     */
    public static Expr implied(Expr.Or or, Predicate<Expr> own) {
        Set<Expr> branches = new LinkedHashSet<>();
        for (Expr branch : disjuncts(or)) {
            List<Expr> kept = conjuncts(branch).stream().filter(own).toList();
            if (kept.isEmpty()) {
                return null;
            }
            branches.add(and(kept));
        }
        return branches.size() == 1 ? branches.iterator().next() : new Expr.Or(List.copyOf(branches));
    }

    /** The terms of a disjunction, flattened. */
    public static List<Expr> disjuncts(Expr e) {
        List<Expr> out = new ArrayList<>();
        if (e instanceof Expr.Or o) {
            o.terms().forEach(t -> out.addAll(disjuncts(t)));
        } else {
            out.add(e);
        }
        return out;
    }

    public static Expr and(List<Expr> terms) {
        if (terms.isEmpty()) {
            return null;
        }
        return terms.size() == 1 ? terms.get(0) : new Expr.And(List.copyOf(terms));
    }
}
