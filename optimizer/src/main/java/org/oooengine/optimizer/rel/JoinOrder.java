package org.oooengine.optimizer.rel;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.OptionalLong;
import java.util.stream.IntStream;
import org.oooengine.core.sql.JoinKind;
import org.oooengine.core.sql.expr.Expr;
import org.oooengine.core.sql.expr.Exprs;

/**
 * Reorders each group of inner joins, the analyzer having joined them in the order they were
 * written: {@link JoinSearch} chooses the shape by cost. A group with a relation of unknown size
 * (or of more relations than the search takes) keeps its order. A projection above a reordered group puts the columns back in their written
 * order.
 */
public final class JoinOrder {
    private final TableLayouts layouts;
    private final PipelinePlanner.Limits limits;
    private final CardinalityModel model;

    private JoinOrder(TableLayouts layouts, PipelinePlanner.Limits limits, CardinalityModel model) {
        this.layouts = layouts;
        this.limits = limits;
        this.model = model;
    }

    public static RelNode reorder(RelNode plan, TableLayouts layouts, PipelinePlanner.Limits limits) {
        return new JoinOrder(layouts, limits, CardinalityModel.of(layouts, plan)).visit(plan);
    }

    private RelNode visit(RelNode node) {
        if (node instanceof RelNode.Join j && j.kind().leftOnly() && j.left() instanceof RelNode.Join group
                && isInner(group)) {
            RelNode pushed = pushedToRelation(j, group);
            if (pushed != null) {
                return visit(pushed);
            }
        }
        if (node instanceof RelNode.Join j && isInner(j)) {
            JoinGraph graph = JoinGraph.ofInnerJoins(j).withLeaves(this::visit);
            if (graph.leaves().size() < 3) {
                JoinGraph reduced = reducedAggregates(graph);
                return reduced == graph || !(reduced.leftDeep(new int[] {0, 1}) instanceof RelNode.Join r)
                        ? rebuildBinary(j) : rebuildBinary(r);
            }
            return ordered(graph.closed(), j.fields());
        }
        if (node instanceof RelNode.Join j) {
            return rebuildBinary(j);
        }
        return RelNode.mapInputs(node, this::visit);
    }

    /**
     * A semi or anti join of a group of inner joins that reads one relation of the group (TPC-H
     * Q18's orders whose key is IN a subquery) moved onto that relation, where it filters rows
     * before they are joined — and where the nodes may run it with that relation's scan. Null when
     * it reads more than one relation, or its subquery is estimated to hold more rows than the
     * relation (TPC-H Q21's EXISTS over all of lineitem).
     */
    private RelNode pushedToRelation(RelNode.Join semi, RelNode.Join group) {
        JoinGraph graph = JoinGraph.ofInnerJoins(group);
        List<RelNode> leaves = graph.leaves();
        int width = group.fields().size();
        BitSet read = new BitSet();
        IntStream.of(semi.leftKeys()).forEach(read::set);
        if (semi.residual() != null) {
            read.or(Exprs.columns(semi.residual()).get(0, width));
        }
        if (read.isEmpty()) {
            return null;
        }
        int leaf = graph.leafOf(read.nextSetBit(0));
        if (read.stream().anyMatch(c -> graph.leafOf(c) != leaf)) {
            return null;
        }
        long keys = estimate(semi.right());
        if (keys < 0 || keys > estimate(leaves.get(leaf))) {
            return null; // its hash table would hold more rows than it filters: build it last, where fewest probe
        }
        int start = graph.start(leaf);
        int leafWidth = leaves.get(leaf).fields().size();
        Expr residual = semi.residual() == null ? null
                : Exprs.remap(semi.residual(), c -> c < width ? c - start : c - width + leafWidth);
        RelNode filtered = new RelNode.Join(leaves.get(leaf), semi.right(), semi.kind(),
                IntStream.of(semi.leftKeys()).map(k -> k - start).toArray(), semi.rightKeys(), residual);
        return replaceLeaf(group, new int[] {leaf}, filtered);
    }

    /** The inner-join tree with its leaf number {@code countdown[0]} (left to right) replaced. */
    private static RelNode replaceLeaf(RelNode node, int[] countdown, RelNode replacement) {
        if (node instanceof RelNode.Join j && isInner(j)) {
            RelNode left = replaceLeaf(j.left(), countdown, replacement);
            RelNode right = replaceLeaf(j.right(), countdown, replacement);
            return new RelNode.Join(left, right, j.kind(), j.leftKeys(), j.rightKeys(), j.residual());
        }
        return countdown[0]-- == 0 ? replacement : node;
    }

    private RelNode rebuildBinary(RelNode.Join j) {
        return new RelNode.Join(visit(j.left()), visit(j.right()), j.kind(), j.leftKeys(), j.rightKeys(), j.residual());
    }

    private static boolean isInner(RelNode.Join j) {
        return JoinGraph.isInnerJoin(j);
    }

    private RelNode ordered(JoinGraph written, List<Field> fields) {
        JoinGraph graph = reducedAggregates(written);
        int n = graph.leaves().size();
        for (int i = 0; i < n; i++) {
            if (estimate(graph.leaves().get(i)) < 0 || n > JoinSearch.MAX_RELATIONS) {
                return graph.leftDeep(IntStream.range(0, n).toArray());
            }
        }
        JoinGraph.Shape shape = JoinSearch.search(graph, this::estimate, layouts, limits.broadcastMaxBytes());
        return restoreColumns(graph.tree(shape), graph, shape.order(), fields);
    }

    /**
     * Each GROUP BY relation of the group joined on grouping keys to a relation estimated smaller
     * than the aggregate's input has that input first semi-joined with it on those keys, so that
     * only groups that can find a match are computed (TPC-H Q17: lineitem's average quantity per
     * part, for the few parts of a brand and container only; Q20: lineitem's sums per part and
     * supplier, for the part-suppliers of forest parts only).
     */
    private JoinGraph reducedAggregates(JoinGraph graph) {
        for (int a = 0; a < graph.leaves().size(); a++) {
            for (int b = 0; b < graph.leaves().size(); b++) {
                RelNode other = graph.leaves().get(b);
                if (a == b || aggregateBelow(other) || !(other instanceof RelNode.Scan s && s.filter() != null
                        || other instanceof RelNode.Join || other instanceof RelNode.Filter)) {
                    continue;
                }
                List<int[]> pairs = graph.equalities(a, b);
                if (pairs.isEmpty()) {
                    continue;
                }
                RelNode reduced = semiJoinedInput(graph.leaves().get(a), pairs.stream().mapToInt(p -> p[0]).toArray(), other,
                        pairs.stream().mapToInt(p -> p[1]).toArray());
                if (reduced != null) {
                    graph = graph.withLeaf(a, reduced);
                }
            }
        }
        return graph;
    }

    /** Whether a relation computes a GROUP BY (under projections and filters). */
    private static boolean aggregateBelow(RelNode node) {
        return RelNode.belowFiltersAndProjections(node) instanceof RelNode.Aggregate;
    }

    /**
     * {@code node} — projections over an aggregate — with the aggregate's input semi-joined with
     * {@code other} on the grouping keys that outputs {@code columns} are, and {@code other}'s
     * {@code otherColumns}; null when an output is not a plain grouping key or {@code other} is not
     * estimated to hold fewer rows than the input.
     */
    private RelNode semiJoinedInput(RelNode node, int[] columns, RelNode other, int[] otherColumns) {
        if (node instanceof RelNode.Project p) {
            int[] below = new int[columns.length];
            for (int i = 0; i < columns.length; i++) {
                if (!(p.exprs().get(columns[i]) instanceof Expr.Column c)) {
                    return null;
                }
                below[i] = c.index();
            }
            RelNode reduced = semiJoinedInput(p.input(), below, other, otherColumns);
            return reduced == null ? null : new RelNode.Project(reduced, p.exprs(), p.fields());
        }
        if (!(node instanceof RelNode.Aggregate a)) {
            return null;
        }
        int[] keys = new int[columns.length];
        for (int i = 0; i < columns.length; i++) {
            if (columns[i] >= a.keys().size() || !(a.keys().get(columns[i]) instanceof Expr.Column key)) {
                return null;
            }
            keys[i] = key.index();
        }
        long input = estimate(a.input());
        long kept = estimate(other);
        if (input < 0 || kept < 0 || kept >= input) {
            return null;
        }
        RelNode.Join semi = new RelNode.Join(a.input(), other, JoinKind.SEMI, keys, otherColumns, null);
        if (!shrinks(semi, input)) {
            return null;
        }
        // over a UNION ALL (TPC-DS Q02's web and catalog sales), each branch is semi-joined: the
        // GROUP BY above can still be split per branch, each node aggregating its own rows
        return new RelNode.Aggregate(UnionJoinPushdown.distributed(semi), a.keys(), a.aggregates(), a.fields());
    }

    /**
     * Whether a semi join is estimated to drop at least a tenth of its input's rows. One that keeps
     * them all (TPC-DS Q01's returns per store, semi-joined with the stores of a state that every
     * store is in) only costs a join, and makes a WITH query referenced twice unlike its other
     * reference, which is then computed twice instead of once.
     */
    private boolean shrinks(RelNode semi, long input) {
        long kept = estimate(semi);
        return kept >= 0 && kept <= input * 0.9;
    }

    /** A projection from the columns in {@code order} back to the written order, unless that is the order. */
    private static RelNode restoreColumns(RelNode tree, JoinGraph graph, int[] order, List<Field> fields) {
        int n = order.length;
        int[] start = new int[n];
        int at = 0;
        for (int leaf : order) {
            start[leaf] = at;
            at += graph.leaves().get(leaf).fields().size();
        }
        List<Expr> exprs = new ArrayList<>();
        boolean identity = true;
        for (int leaf = 0; leaf < n; leaf++) {
            for (int c = 0; c < graph.leaves().get(leaf).fields().size(); c++) {
                int from = start[leaf] + c;
                identity &= from == exprs.size();
                exprs.add(new Expr.Column(from, fields.get(exprs.size()).type()));
            }
        }
        return identity ? tree : new RelNode.Project(tree, exprs, fields);
    }

    /** Rows a relation is estimated to produce, or -1 when unknown. */
    private long estimate(RelNode node) {
        return model.rows(node);
    }
}
