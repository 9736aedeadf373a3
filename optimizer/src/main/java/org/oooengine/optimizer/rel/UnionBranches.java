package org.oooengine.optimizer.rel;

import java.util.ArrayList;
import java.util.List;

/**
 * The branches of a UNION ALL as the plan above reads them: through nested unions, and with the
 * projections and filters between them and the plan above moved onto each branch (a column of a
 * union is the same column of each of its inputs). A GROUP BY over them can then be split per
 * branch — each node aggregates the rows of every branch it scans, and only groups cross the
 * network — as for one table (TPC-DS Q14's INTERSECT of three channels' items, its average over
 * three channels' sales).
 */
final class UnionBranches {
    private UnionBranches() {
    }

    /** {@code node}'s branches, or null when it is no UNION ALL (under projections and filters). */
    static List<RelNode> of(RelNode node) {
        if (node instanceof RelNode.Union u) {
            List<RelNode> out = new ArrayList<>();
            for (RelNode input : u.inputs()) {
                List<RelNode> nested = of(input);
                out.addAll(nested == null ? List.of(input) : nested);
            }
            return out;
        }
        if (node instanceof RelNode.Project p) {
            List<RelNode> below = of(p.input());
            return below == null ? null : below.stream()
                    .map(b -> (RelNode) new RelNode.Project(b, p.exprs(), p.fields())).toList();
        }
        if (node instanceof RelNode.Filter f) {
            List<RelNode> below = of(f.input());
            return below == null ? null : below.stream().map(b -> (RelNode) new RelNode.Filter(b, f.condition())).toList();
        }
        return null;
    }
}
