package org.oooengine.optimizer.rel;

import java.util.ArrayList;
import java.util.List;
import org.oooengine.core.sql.JoinKind;

/**
 * A join of a UNION ALL with one table (TPC-DS Q05's sales and returns of each channel, joined
 * with the dates and the stores) becomes the UNION ALL of each branch joined with that table.
 * A join distributes over UNION ALL: inner joins on either side; left, semi and anti joins with
 * the union on their left, whose rows are kept or dropped one by one. Joined branch by branch,
 * each branch is a scan the nodes join with the table and filter where it lies, rather than every
 * row of the union gathered for the coordinator to join. The table is read once per branch,
 * which is why only a single table (with its filters and projections) is pushed: a join or an
 * aggregate on that side would be computed again for every branch.
 */
public final class UnionJoinPushdown {
    private UnionJoinPushdown() {
    }

    public static RelNode apply(RelNode plan) {
        RelNode node = RelNode.mapInputs(plan, UnionJoinPushdown::apply);
        return node instanceof RelNode.Join j ? distributed(j) : node;
    }

    /**
     * {@code j} as the union of each branch joined, when one side is a UNION ALL and the other one
     * table it distributes over; else {@code j} itself. Its inputs are taken as they are.
     */
    static RelNode distributed(RelNode.Join j) {
        RelNode node = j;
        JoinKind kind = j.kind();
        boolean leftUnion = union(j.left()) != null && oneTable(j.right())
                && (kind == JoinKind.INNER || kind == JoinKind.LEFT || kind == JoinKind.SEMI || kind == JoinKind.ANTI);
        if (leftUnion) {
            List<RelNode> joined = new ArrayList<>();
            for (RelNode branch : branches(j.left())) {
                joined.add(new RelNode.Join(branch, j.right(), kind, j.leftKeys(), j.rightKeys(), j.residual()));
            }
            return new RelNode.Union(joined, j.fields());
        }
        if (kind == JoinKind.INNER && union(j.right()) != null && oneTable(j.left())) {
            List<RelNode> joined = new ArrayList<>();
            for (RelNode branch : branches(j.right())) {
                joined.add(new RelNode.Join(j.left(), branch, kind, j.leftKeys(), j.rightKeys(), j.residual()));
            }
            return new RelNode.Union(joined, j.fields());
        }
        return node;
    }

    /** The UNION ALL under {@code node}'s filters and projections, or null. */
    private static RelNode.Union union(RelNode node) {
        if (node instanceof RelNode.Union u) {
            return u;
        }
        if (node instanceof RelNode.Project p) {
            return union(p.input());
        }
        if (node instanceof RelNode.Filter f) {
            return union(f.input());
        }
        return null;
    }

    /** Each branch of the union under {@code node}, with {@code node}'s filters and projections over it. */
    private static List<RelNode> branches(RelNode node) {
        if (node instanceof RelNode.Union u) {
            return u.inputs();
        }
        if (node instanceof RelNode.Project p) {
            return branches(p.input()).stream().map(b -> (RelNode) new RelNode.Project(b, p.exprs(), p.fields())).toList();
        }
        RelNode.Filter f = (RelNode.Filter) node;
        return branches(f.input()).stream().map(b -> (RelNode) new RelNode.Filter(b, f.condition())).toList();
    }

    /** Whether {@code node} reads one table, with filters and projections only: cheap to read once per branch. */
    private static boolean oneTable(RelNode node) {
        if (node instanceof RelNode.Scan) {
            return true;
        }
        if (node instanceof RelNode.Project p) {
            return oneTable(p.input());
        }
        return node instanceof RelNode.Filter f && oneTable(f.input());
    }
}
