package org.oooengine.optimizer.rel;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.oooengine.core.sql.expr.Expr;
import org.oooengine.core.sql.expr.Exprs;

/**
 * The uses of a subplan that a plan computes more than once alike, filtered apart: TPC-DS Q04's
 * year totals, a WITH query of every channel's sales per customer and year, read six times, each
 * time for one channel and one year. Filtered each on its own, every use would be computed again,
 * scanning its channel's sales; computed once under the OR of the uses' filters (both years of each
 * channel the uses read), each use then filters the rows replayed to it. A use is an outermost
 * subplan alike to another ({@link Shapes}: names aside) that groups or ranks rows — a GROUP BY or a
 * window in it, which a filter above may not pass whole; its filter is the one right above it. The
 * uses of a subplan count when one of them is filtered and not all alike: uses alike after their
 * filters are computed once as they are.
 */
final class AlikeUses {
    /** One use of a subplan: the node where it starts, and the condition of the filter right above it (null: none). */
    record Use(RelNode node, Expr filter) {
    }

    private final Shapes shapes = new Shapes();
    /** Per shape, its occurrences anywhere in the plan. */
    private final Map<Integer, Integer> occurrences = new HashMap<>();
    private final Map<RelNode, Boolean> groups = new IdentityHashMap<>();

    private AlikeUses() {
    }

    /** The plan's subplans used more than once alike and filtered apart, each as its uses. */
    static List<List<Use>> of(RelNode plan) {
        AlikeUses a = new AlikeUses();
        a.count(plan);
        Set<Integer> apart = new HashSet<>(); // shapes whose uses do not count: looked into instead
        while (true) {
            Map<Integer, List<Use>> found = new LinkedHashMap<>();
            a.collect(plan, null, apart, found);
            boolean again = false;
            for (Map.Entry<Integer, List<Use>> e : found.entrySet()) {
                if (!counts(e.getValue())) {
                    again |= apart.add(e.getKey());
                }
            }
            if (!again) {
                return List.copyOf(found.values());
            }
        }
    }

    /**
     * Each use in {@code plan}, with the condition its subplan is computed under once for all: the
     * OR of its uses' filters, the conjuncts all of them share taken out of the OR (so that they
     * prune as they would alone); null when a use reads every row.
     */
    static Map<RelNode, Expr> sharedConditions(RelNode plan) {
        Map<RelNode, Expr> conditions = new IdentityHashMap<>();
        for (List<Use> uses : of(plan)) {
            Expr shared = orOf(uses.stream().map(Use::filter).toList());
            uses.forEach(u -> conditions.put(u.node(), shared));
        }
        return conditions;
    }

    /** The OR of {@code filters} (null: every row), their common conjuncts apart. */
    static Expr orOf(List<Expr> filters) {
        if (filters.contains(null)) {
            return null;
        }
        List<Expr> common = null;
        for (Expr f : filters) {
            if (common == null) {
                common = new ArrayList<>(Exprs.conjuncts(f));
            } else {
                common.retainAll(Exprs.conjuncts(f));
            }
        }
        Set<Expr> rest = new LinkedHashSet<>();
        for (Expr f : filters) {
            List<Expr> own = new ArrayList<>(Exprs.conjuncts(f));
            own.removeAll(common);
            if (own.isEmpty()) {
                return Exprs.and(common); // this use reads all that the common conjuncts keep
            }
            rest.add(Exprs.and(own));
        }
        List<Expr> all = new ArrayList<>(common);
        all.add(rest.size() == 1 ? rest.iterator().next() : new Expr.Or(List.copyOf(rest)));
        return Exprs.and(all);
    }

    /** Whether uses count: more than one, one of them filtered, not all filtered alike. */
    private static boolean counts(List<Use> uses) {
        Set<Expr> filters = new HashSet<>();
        uses.forEach(u -> filters.add(u.filter()));
        return uses.size() > 1 && filters.size() > 1;
    }

    private void count(RelNode node) {
        occurrences.merge(shapes.of(node), 1, Integer::sum);
        shapes.inputs(node).forEach(this::count);
    }

    private void collect(RelNode node, Expr filter, Set<Integer> apart, Map<Integer, List<Use>> found) {
        int shape = shapes.of(node);
        if (occurrences.get(shape) > 1 && !apart.contains(shape) && groups(node)) {
            found.computeIfAbsent(shape, s -> new ArrayList<>()).add(new Use(node, filter));
            return;
        }
        Expr above = node instanceof RelNode.Filter f ? f.condition() : null;
        shapes.inputs(node).forEach(in -> collect(in, above, apart, found));
    }

    /** Whether {@code node} groups or ranks rows: a GROUP BY or a window in it. */
    private boolean groups(RelNode node) {
        Boolean known = groups.get(node);
        if (known == null) {
            known = node instanceof RelNode.Aggregate || node instanceof RelNode.Window
                    || shapes.inputs(node).stream().anyMatch(this::groups);
            groups.put(node, known);
        }
        return known;
    }
}
