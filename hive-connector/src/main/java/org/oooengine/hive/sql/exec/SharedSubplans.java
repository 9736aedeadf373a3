package org.oooengine.hive.sql.exec;

import java.util.BitSet;
import java.util.HashMap;
import java.util.Map;
import org.oooengine.optimizer.rel.PlanPrinter;
import org.oooengine.optimizer.rel.RelNode;
import org.oooengine.optimizer.rel.Shapes;

/**
 * The parts of a plan that occur more than once alike — a WITH query referenced twice, the same
 * scalar subquery in each branch of a UNION ALL (TPC-DS Q14's average sales, Q23's frequent items),
 * the uses of a WITH query filtered apart that the planner computes once under the OR of their
 * filters (Q04's year totals): the executor computes each once per statement and replays its rows
 * where it occurs again, as Spark reuses an exchange and Hive materializes a CTE. Alike means of one
 * {@link Shapes shape} and, for a table the coordinator scans itself, the same columns read of it.
 */
final class SharedSubplans implements PlanPrinter.Shared {
    private final Shapes shapes;
    /** Per shape, the places it is computed: inside a shape's later occurrence, nothing is counted again. */
    private final Map<Integer, Integer> occurrences = new HashMap<>();
    /** Per shape, the occurrence a run computed. */
    private final Map<Integer, RelNode> computedAt = new HashMap<>();

    private SharedSubplans(Map<RelNode.Scan, BitSet> usage) {
        this.shapes = new Shapes(n -> n instanceof RelNode.Scan s ? " reads " + usage.getOrDefault(s, new BitSet()) : "");
    }

    /** The plan's shared subplans; {@code usage}: the columns read of each table the coordinator scans. */
    static SharedSubplans of(RelNode root, Map<RelNode.Scan, BitSet> usage) {
        SharedSubplans s = new SharedSubplans(usage);
        s.count(root);
        return s;
    }

    /** The shape under which {@code node}'s rows are computed once and replayed, or -1 when it occurs once. */
    @Override
    public int key(RelNode node) {
        int shape = shapes.known(node);
        return occurrences.getOrDefault(shape, 0) > 1 && !(node instanceof RelNode.Values) ? shape : -1;
    }

    /** How many times the subplan of shape {@code key} is computed in the plan. */
    @Override
    public int uses(int key) {
        return occurrences.getOrDefault(key, 0);
    }

    /** Notes that {@code node}, an occurrence of {@code key}, is the one computed. */
    void computing(int key, RelNode node) {
        computedAt.putIfAbsent(key, node);
    }

    @Override
    public RelNode computedAt(int key) {
        return computedAt.get(key);
    }

    private void count(RelNode node) {
        if (occurrences.merge(shapes.of(node), 1, Integer::sum) == 1) {
            shapes.inputs(node).forEach(this::count);
        }
    }
}
