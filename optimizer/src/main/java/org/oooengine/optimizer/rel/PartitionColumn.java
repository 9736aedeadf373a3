package org.oooengine.optimizer.rel;

import java.util.List;
import org.oooengine.core.fragment.PipelineStep;
import org.oooengine.core.sql.JoinKind;
import org.oooengine.core.sql.expr.Expr;

/**
 * Where the column a table's rows are partitioned on is among a pipeline's columns, step after
 * step: a GROUP BY on the nodes by that column has whole groups on each node, a window
 * partitioned by it whole partitions.
 */
final class PartitionColumn {
    private PartitionColumn() {
    }

    /** The column a scanned table's rows are partitioned on (its primary key's first), or -1. */
    static int of(RelNode.Scan s) {
        List<String> key = s.table().primaryKey();
        return key.isEmpty() ? -1 : s.table().indexOf(key.get(0));
    }

    /** Where the partition key is after {@code step} (it was at {@code key}), or -1 when it is no longer a column. */
    static int after(PipelineStep step, int key) {
        if (key < 0) {
            return -1;
        }
        if (step instanceof PipelineStep.Expand e) {
            return keptByEveryCopy(e, key);
        }
        if (step instanceof PipelineStep.HashJoin j && (j.kind() == JoinKind.RIGHT_SEMI || j.kind() == JoinKind.RIGHT_ANTI)) {
            int i = j.probeKeys().indexOf(key); // the build's rows come out, each where its partner on the key is
            return i < 0 ? -1 : j.buildKeys().get(i);
        }
        List<Expr> exprs = step instanceof PipelineStep.Project p ? p.exprs()
                : step instanceof PipelineStep.Aggregate a ? a.keys()
                : step instanceof PipelineStep.PartialAggregate ? List.of() : null;
        if (exprs == null) {
            return key; // a filter keeps the columns; a join puts the probe's first
        }
        for (int i = 0; i < exprs.size(); i++) {
            if (exprs.get(i) instanceof Expr.Column c && c.index() == key) {
                return i;
            }
        }
        return -1;
    }

    /**
     * Where an expansion puts column {@code key} in every copy, or -1: a key some grouping set
     * makes null no longer keeps a group's rows on one node.
     */
    private static int keptByEveryCopy(PipelineStep.Expand e, int key) {
        for (int i = 0; i < e.width(); i++) {
            int at = i;
            if (e.projections().stream().allMatch(copy -> copy.get(at) instanceof Expr.Column c && c.index() == key)) {
                return i;
            }
        }
        return -1;
    }

    /**
     * Whether {@code steps}' aggregate at {@code index} groups by the partition column of their
     * scan ({@code key} at the start; -1: none): each group then on one node, else a node's own.
     */
    static boolean wholeGroups(List<PipelineStep> steps, int index, int key) {
        int at = key;
        for (int i = 0; i < index && at >= 0; i++) {
            at = after(steps.get(i), at);
        }
        int column = at;
        return column >= 0 && steps.get(index) instanceof PipelineStep.Aggregate a
                && a.keys().stream().anyMatch(k -> k instanceof Expr.Column c && c.index() == column);
    }
}
