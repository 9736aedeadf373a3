package org.oooengine.optimizer.rel;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.oooengine.core.fragment.PipelineStep;
import org.oooengine.core.sql.expr.Expr;

/**
 * ROLLUP, and GROUPING SETS each of whose sets holds the next, need not group every copy of every
 * row: grouped by the finest set once, each coarser set's groups are the groups of the set before
 * it grouped again, their partial states merged (counts and sums added, extremes compared, exact).
 * TPC-DS Q67's ROLLUP of 8 keys copies each row 9 times into groups of hardly more than one row;
 * set by set, the rows are grouped once and each next set from fewer groups. The copies are put
 * finest first ({@link #apply}), and a node's partial aggregate right after them goes set by set
 * ({@link PipelineStep.Expand#cascaded}); the merge of the nodes' groups is the same.
 */
final class CascadedGroupingSets {
    private CascadedGroupingSets() {
    }

    /** {@code plan} with each GROUP BY's copies ordered by the keys their sets keep, most first (ties as written). */
    static RelNode apply(RelNode plan) {
        RelNode node = RelNode.mapInputs(plan, CascadedGroupingSets::apply);
        if (node instanceof RelNode.Aggregate a && a.input() instanceof RelNode.Expand e) {
            List<List<Expr>> ordered = e.projections().stream()
                    .sorted(Comparator.comparingInt((List<Expr> copy) -> -kept(copy, a.keys()))).toList();
            if (!ordered.equals(e.projections())) {
                return new RelNode.Aggregate(new RelNode.Expand(e.input(), ordered, e.fields()), a.keys(), a.aggregates(),
                        a.fields());
            }
        }
        return node;
    }

    /** How many of {@code keys} (columns of the copies) {@code copy} keeps: makes other than a literal. */
    private static int kept(List<Expr> copy, List<Expr> keys) {
        return (int) keys.stream().filter(k -> k instanceof Expr.Column c && c.index() < copy.size()
                && !(copy.get(c.index()) instanceof Expr.Literal)).count();
    }

    /**
     * A node's {@code steps} with the grouping sets' copies before the partial aggregate that ends
     * them marked cascaded, when their sets nest and the aggregates merge ({@link PipelineStep.Expand#cascades});
     * else as they are.
     */
    static List<PipelineStep> cascaded(List<PipelineStep> steps) {
        int last = steps.size() - 1;
        if (last < 1 || !(steps.get(last) instanceof PipelineStep.PartialAggregate a)
                || !(steps.get(last - 1) instanceof PipelineStep.Expand e) || e.cascaded()
                || !e.cascades(a.keys(), a.aggregates())) {
            return steps;
        }
        List<PipelineStep> marked = new ArrayList<>(steps);
        marked.set(last - 1, new PipelineStep.Expand(e.projections(), true));
        return marked;
    }
}
