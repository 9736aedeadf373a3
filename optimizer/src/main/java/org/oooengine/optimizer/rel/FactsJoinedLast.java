package org.oooengine.optimizer.rel;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.function.Function;
import java.util.function.IntUnaryOperator;
import java.util.function.ToLongFunction;
import org.oooengine.core.sql.expr.AggregateCall;
import org.oooengine.core.sql.expr.Expr;
import org.oooengine.core.sql.expr.Exprs;

/**
 * A group of inner joins under a GROUP BY, reshaped so that its last join meets the relations the
 * grouping keys read (the dimensions, with those linking them) with the facts: the relations the
 * aggregates read and those linked to them without passing a dimension. {@link EagerAggregation}
 * can then group the facts by the columns that join them to the dimensions before that join.
 * TPC-H Q10 groups by seven columns of customer and nation and sums lineitem's prices; joined in
 * the cheapest order for the join alone, the quarter's orders met their customers first and 57,000
 * wide customer rows travelled to the lines. Split, the orders meet their returned lines where both
 * are, each node groups them by customer, and a row per customer and node meets the customers.
 * Done only where the two parts are each linked by equalities, and the join between them is of
 * equal columns alone.
 */
final class FactsJoinedLast {
    /** A GROUP BY's keys and aggregates over {@link #join}'s row. */
    record Split(RelNode.Join join, List<Expr> keys, List<AggregateCall> calls) {
    }

    private FactsJoinedLast() {
    }

    /**
     * {@code join} (a tree of inner joins under the GROUP BY of {@code keys} and {@code calls}) as
     * the join of its dimensions with its facts, each part shaped by {@code shaper}; null where the
     * relations do not part so.
     */
    static Split of(RelNode.Join join, List<Expr> keys, List<AggregateCall> calls, Function<JoinGraph, JoinGraph.Shape> shaper,
                    ToLongFunction<RelNode> rowsOf) {
        JoinGraph graph = JoinGraph.ofInnerJoins(join);
        int n = graph.leaves().size();
        if (n < 3 || n > JoinSearch.MAX_RELATIONS || graph.leaves().stream().anyMatch(l -> rowsOf.applyAsLong(l) < 0)) {
            return null; // two relations are parted already; an unknown size leaves the written order
        }
        BitSet keyed = new BitSet();
        keys.forEach(k -> keyed.or(graph.leavesOf(k)));
        BitSet aggregated = new BitSet();
        calls.stream().filter(c -> c.arg() != null).forEach(c -> aggregated.or(graph.leavesOf(c.arg())));
        if (keyed.isEmpty() || aggregated.isEmpty() || keyed.intersects(aggregated)) {
            return null;
        }
        BitSet facts = linkedFrom(graph, aggregated.nextSetBit(0), keyed);
        BitSet dimensions = new BitSet();
        dimensions.set(0, n);
        dimensions.andNot(facts);
        if (!contains(facts, aggregated) || !linkedFrom(graph, dimensions.nextSetBit(0), facts).equals(dimensions)
                || !joinedOnEqualColumns(graph, facts)) {
            return null;
        }
        JoinGraph.Shape shape = JoinGraph.Shape.join(shapeOf(graph, dimensions, shaper), shapeOf(graph, facts, shaper));
        if (!(graph.tree(shape) instanceof RelNode.Join split) || split.residual() != null) {
            return null;
        }
        IntUnaryOperator moved = movedColumns(graph, shape.order());
        return new Split(split, keys.stream().map(k -> Exprs.remap(k, moved)).toList(),
                calls.stream().map(c -> c.arg() == null ? c
                        : new AggregateCall(c.kind(), Exprs.remap(c.arg(), moved), c.distinct(), c.type())).toList());
    }

    /** The relations linked to {@code from} by equalities, passing none of {@code outside}. */
    private static BitSet linkedFrom(JoinGraph graph, int from, BitSet outside) {
        BitSet reached = new BitSet();
        reached.set(from);
        boolean grew = true;
        while (grew) {
            grew = false;
            for (int leaf = 0; leaf < graph.leaves().size(); leaf++) {
                if (!reached.get(leaf) && !outside.get(leaf) && graph.linked(leaf, reached)) {
                    reached.set(leaf);
                    grew = true;
                }
            }
        }
        return reached;
    }

    private static boolean contains(BitSet all, BitSet some) {
        BitSet rest = (BitSet) some.clone();
        rest.andNot(all);
        return rest.isEmpty();
    }

    /** Whether every conjunct reads columns, and each reading both parts equates a column of each. */
    private static boolean joinedOnEqualColumns(JoinGraph graph, BitSet facts) {
        for (Expr c : graph.conjuncts()) {
            BitSet read = graph.leavesOf(c);
            BitSet others = (BitSet) read.clone();
            others.andNot(facts);
            if (read.isEmpty() || read.intersects(facts) && !others.isEmpty() && EqualColumns.columnsOf(c) == null) {
                return false;
            }
        }
        return true;
    }

    /** The cheapest shape of {@code part}'s relations alone, in the graph's numbers. */
    private static JoinGraph.Shape shapeOf(JoinGraph graph, BitSet part, Function<JoinGraph, JoinGraph.Shape> shaper) {
        int[] leaves = part.stream().toArray();
        if (leaves.length == 1) {
            return JoinGraph.Shape.of(leaves[0]);
        }
        List<RelNode> relations = new ArrayList<>();
        int[] start = new int[graph.leaves().size()];
        int width = 0;
        for (int leaf : leaves) {
            start[leaf] = width;
            relations.add(graph.leaves().get(leaf));
            width += graph.leaves().get(leaf).fields().size();
        }
        List<Expr> within = new ArrayList<>();
        for (Expr c : graph.conjuncts()) {
            BitSet read = graph.leavesOf(c);
            if (contains(part, read)) {
                within.add(Exprs.remap(c, i -> start[graph.leafOf(i)] + i - graph.start(graph.leafOf(i))));
            }
        }
        return renumbered(shaper.apply(new JoinGraph(relations, within)), leaves);
    }

    private static JoinGraph.Shape renumbered(JoinGraph.Shape shape, int[] leaves) {
        return shape.leaf() >= 0 ? JoinGraph.Shape.of(leaves[shape.leaf()])
                : JoinGraph.Shape.join(renumbered(shape.left(), leaves), renumbered(shape.right(), leaves));
    }

    /** Where each column of the graph's concatenated row is in the row of its relations joined in {@code order}. */
    private static IntUnaryOperator movedColumns(JoinGraph graph, int[] order) {
        int[] start = new int[graph.leaves().size()];
        int at = 0;
        for (int leaf : order) {
            start[leaf] = at;
            at += graph.leaves().get(leaf).fields().size();
        }
        return c -> start[graph.leafOf(c)] + c - graph.start(graph.leafOf(c));
    }
}
