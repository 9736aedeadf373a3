package org.oooengine.optimizer.rel;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToLongFunction;
import org.oooengine.core.sql.expr.Expr;
import org.oooengine.core.sql.expr.ScalarFunction;
import org.oooengine.optimizer.rel.JoinGraph.Shape;

/**
 * The shape of a group of inner joins: which relations meet first and which side of each join is
 * held in a hash table, chosen by cost — bushy where a relation's own partners shrink it before
 * it meets a larger one (TPC-DS Q72: catalog_sales joined with its dates and demographics first,
 * then held for inventory to probe, rather than inventory meeting catalog_sales on the item alone).
 *
 * <p>Every subset of the relations linked by equalities gets its cheapest plan, smallest subsets
 * first (dynamic programming over subsets; joins without an equality only where the relations
 * have none), up to {@value #EXHAUSTIVE_MAX} relations; beyond, the pair whose join gives the fewest
 * rows is joined first, again and again (greedy operator ordering). Rows come from the
 * {@link CardinalityModel}, one estimate per subset. A join costs the rows it makes, holds and
 * moves, counted as one machine handles them: what the nodes do is shared among them, what
 * the coordinator does is not. The nodes join a side partitioned alike on the key with their own
 * partitions, a side shuffled to the other's partitions, or a small side sent to every node
 * (which each then holds whole, also when the coordinator computes it: a subquery's groups); else
 * both sides gather on the coordinator, and so does every join above it.
 */
final class JoinSearch {
    static final int EXHAUSTIVE_MAX = 10;
    /** Relations a search takes: subsets are bits of a long. */
    static final int MAX_RELATIONS = 63;
    /**
     * Bytes a joined row is taken to carry per relation in it — its key and a column read above —
     * at least; a table's own columns count at their stored width (a tiny table's strings are wide).
     */
    private static final int ROW_BYTES_PER_RELATION = 16;

    private final JoinGraph graph;
    private final ToLongFunction<RelNode> rowsOf;
    private final TableLayouts layouts;
    private final long broadcastMaxBytes;
    private final int nodes;
    private final long[] adjacent;
    /** Bytes each relation is taken to add to a joined row: two of its columns at their stored width. */
    private final double[] rowBytes;
    private final Map<Long, Plan> best = new HashMap<>();

    /**
     * A subset's plan: its shape, rows, cost, the column of the concatenated row its rows are
     * partitioned on across the nodes (-1: none, or not as a table is), and whether the nodes make
     * its rows (a table's scan and what joins there) rather than the coordinator (a subquery's
     * groups, and any join that had to gather its sides).
     */
    private record Plan(long set, Shape shape, long rows, double cost, int partition, boolean onNodes) {
    }

    private JoinSearch(JoinGraph graph, ToLongFunction<RelNode> rowsOf, TableLayouts layouts, long broadcastMaxBytes) {
        this.graph = graph;
        this.rowsOf = rowsOf;
        this.layouts = layouts;
        this.broadcastMaxBytes = broadcastMaxBytes;
        int n = graph.leaves().size();
        this.adjacent = new long[n];
        for (Expr c : graph.conjuncts()) {
            BitSet used = graph.leavesOf(c);
            if (c instanceof Expr.Call call && call.function() == ScalarFunction.EQ && used.cardinality() == 2) {
                int a = used.nextSetBit(0);
                int b = used.nextSetBit(a + 1);
                adjacent[a] |= 1L << b;
                adjacent[b] |= 1L << a;
            }
        }
        this.rowBytes = new double[n];
        for (int i = 0; i < n; i++) {
            rowBytes[i] = ROW_BYTES_PER_RELATION;
            if (RelNode.belowFiltersAndProjections(graph.leaves().get(i)) instanceof RelNode.Scan s) {
                long rows = layouts.rows(s.table()).orElse(0);
                long bytes = layouts.bytes(s.table()).orElse(0);
                if (rows > 0 && bytes > 0) {
                    rowBytes[i] = Math.max(ROW_BYTES_PER_RELATION, 2.0 * bytes / rows / s.table().columns().size());
                }
            }
        }
        int most = 1;
        for (RelNode leaf : graph.leaves()) {
            if (leaf instanceof RelNode.Scan s) {
                most = Math.max(most, layouts.nodes(s.table()));
            }
        }
        this.nodes = most;
    }

    /**
     * The cheapest shape joining all of {@code graph}'s relations (at most {@value #MAX_RELATIONS}), whose rows
     * {@code rowsOf} estimates (each known).
     */
    static Shape search(JoinGraph graph, ToLongFunction<RelNode> rowsOf, TableLayouts layouts, long broadcastMaxBytes) {
        return new JoinSearch(graph, rowsOf, layouts, broadcastMaxBytes).search();
    }

    private Shape search() {
        int n = graph.leaves().size();
        List<Plan> singles = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            RelNode leaf = graph.leaves().get(i);
            Plan p = new Plan(1L << i, Shape.of(i), rowsOf.applyAsLong(leaf), 0, partitionColumn(i), scanned(leaf));
            best.put(p.set(), p);
            singles.add(p);
        }
        return n <= EXHAUSTIVE_MAX ? exhaustive(n, singles) : greedy(singles);
    }

    /** Every connected subset's cheapest plan, by increasing subset; the components crossed at the end. */
    private Shape exhaustive(int n, List<Plan> singles) {
        long all = (1L << n) - 1;
        for (long set = 1; set <= all; set++) {
            if (Long.bitCount(set) < 2) {
                continue;
            }
            long lowest = Long.lowestOneBit(set);
            // each split once: the part holding the lowest relation, and the rest
            for (long part = (set - 1) & set; part > 0; part = (part - 1) & set) {
                if ((part & lowest) == 0) {
                    continue;
                }
                Plan a = best.get(part);
                Plan b = best.get(set & ~part);
                if (a != null && b != null && linked(part, set & ~part)) {
                    consider(a, b);
                }
            }
        }
        if (best.containsKey(all)) {
            return best.get(all).shape();
        }
        return crossed(components(all));
    }

    /** The largest connected subsets that partition {@code all}. */
    private List<Plan> components(long all) {
        List<Plan> out = new ArrayList<>();
        long left = all;
        while (left != 0) {
            long component = Long.lowestOneBit(left);
            long grown = component;
            do {
                component = grown;
                for (long rest = component; rest != 0; rest &= rest - 1) {
                    grown |= adjacent[Long.numberOfTrailingZeros(rest)];
                }
                grown &= all;
            } while (grown != component);
            out.add(best.get(component));
            left &= ~component;
        }
        return out;
    }

    /** The pair joining into the fewest rows joined first, until one plan is left. */
    private Shape greedy(List<Plan> singles) {
        List<Plan> plans = new ArrayList<>(singles);
        while (plans.size() > 1) {
            Plan chosen = null;
            for (int i = 0; i < plans.size(); i++) {
                for (int j = i + 1; j < plans.size(); j++) {
                    if (linked(plans.get(i).set(), plans.get(j).set())) {
                        Plan p = consider(plans.get(i), plans.get(j));
                        if (chosen == null || p.rows() < chosen.rows()
                                || (p.rows() == chosen.rows() && p.cost() < chosen.cost())) {
                            chosen = p;
                        }
                    }
                }
            }
            if (chosen == null) {
                return crossed(plans);
            }
            long merged = chosen.set();
            plans.removeIf(p -> (p.set() & merged) != 0);
            plans.add(chosen);
        }
        return plans.get(0).shape();
    }

    /** Plans with no equality between them joined as a cross product, the largest flowing. */
    private Shape crossed(List<Plan> parts) {
        List<Plan> sorted = new ArrayList<>(parts);
        sorted.sort((x, y) -> Long.compare(y.rows(), x.rows()));
        Shape shape = sorted.get(0).shape();
        for (int i = 1; i < sorted.size(); i++) {
            shape = Shape.join(shape, sorted.get(i).shape());
        }
        return shape;
    }

    /** The plan joining {@code a} and {@code b}, kept as the best of their union when it is the cheapest yet. */
    private Plan consider(Plan a, Plan b) {
        long set = a.set() | b.set();
        Plan known = best.get(set);
        long rows = known != null ? known.rows() : rowsOf.applyAsLong(graph.subtree(Shape.join(a.shape(), b.shape())));
        // the side with more rows flows; the other is held
        Plan probe = a.rows() >= b.rows() ? a : b;
        Plan build = probe == a ? b : a;
        // in rows one machine handles: the nodes share what they do, the coordinator does its part alone
        double n = nodes;
        double work = rows + build.rows() + (probe.onNodes() ? probe.rows() : 0) + (build.onNodes() ? build.rows() : 0);
        int partition = -1;
        boolean onNodes = false; // gathered, unless the nodes can do better
        // a held side the coordinator computes (a subquery's groups, a join that gathered its sides)
        // is sent to every node when it is small, as the planner does: the probe stays on the nodes
        if (probe.onNodes() && (build.onNodes() || oneRow(build) || broadcasts(build))) {
            int partnerOfProbe = partner(probe.partition(), build.set());
            if (broadcasts(build) && rows / n + 2.0 * build.rows() < work) {
                work = rows / n + 2.0 * build.rows(); // gathered once, then held by every node
                partition = probe.partition();
                onNodes = true;
            }
            if (partnerOfProbe >= 0 && build.onNodes()) {
                double held = partnerOfProbe == build.partition() ? (rows + build.rows()) / n // co-located
                        : (rows + 2.0 * build.rows()) / n; // the held side shuffled to the probe's partitions
                if (held < work) {
                    work = held;
                    partition = probe.partition();
                    onNodes = true;
                }
            }
            if (build.onNodes() && partner(build.partition(), probe.set()) >= 0
                    && (rows + build.rows() + probe.rows()) / n < work) {
                work = (rows + build.rows() + probe.rows()) / n; // the probe shuffled to the held side's partitions
                partition = build.partition();
                onNodes = true;
            }
        }
        double cost = a.cost() + b.cost() + work;
        Plan p = new Plan(set, Shape.join(probe.shape(), build.shape()), rows, cost, partition, onNodes);
        if (known == null || cost < known.cost()) {
            best.put(set, p);
        }
        return p;
    }

    /** Whether the nodes scan {@code leaf}: a table, under filters and projections. */
    private static boolean scanned(RelNode leaf) {
        return RelNode.belowFiltersAndProjections(leaf) instanceof RelNode.Scan;
    }

    /** A relation of one row at most (a scalar subquery's), which goes to every node whatever computes it. */
    private boolean oneRow(Plan p) {
        return p.shape().leaf() >= 0 && PipelinePlanner.atMostOneRow(graph.leaves().get(p.shape().leaf()));
    }

    private boolean broadcasts(Plan build) {
        double bytes = 0;
        for (long rest = build.set(); rest != 0; rest &= rest - 1) {
            bytes += rowBytes[Long.numberOfTrailingZeros(rest)];
        }
        return build.rows() * bytes <= broadcastMaxBytes;
    }

    /**
     * The column of a relation in {@code set} that a conjunct equates with {@code column}, the column
     * rows are partitioned on, choosing one that is itself a partition column of a table laid out
     * alike when there is one; -1 when none.
     */
    private int partner(int column, long set) {
        if (column < 0) {
            return -1;
        }
        int found = -1;
        int leaf = graph.leafOf(column);
        for (int other = 0; other < graph.leaves().size(); other++) {
            if ((set & (1L << other)) == 0) {
                continue;
            }
            for (int[] pair : graph.equalities(leaf, other)) {
                if (graph.start(leaf) + pair[0] != column) {
                    continue;
                }
                int partnerColumn = graph.start(other) + pair[1];
                if (partnerColumn == partitionColumn(other) && alike(leaf, other)) {
                    return partnerColumn;
                }
                found = partnerColumn;
            }
        }
        return found;
    }

    private boolean alike(int a, int b) {
        return graph.leaves().get(a) instanceof RelNode.Scan x && graph.leaves().get(b) instanceof RelNode.Scan y
                && layouts.partitionedAlike(x.table(), y.table());
    }

    /** The column of the concatenated row relation {@code leaf}'s rows are partitioned on: its table's first key column. */
    private int partitionColumn(int leaf) {
        if (!(graph.leaves().get(leaf) instanceof RelNode.Scan s) || s.table().primaryKey().isEmpty()) {
            return -1;
        }
        return graph.start(leaf) + s.table().indexOf(s.table().primaryKey().get(0));
    }

    private boolean linked(long a, long b) {
        for (long rest = a; rest != 0; rest &= rest - 1) {
            if ((adjacent[Long.numberOfTrailingZeros(rest)] & b) != 0) {
                return true;
            }
        }
        return false;
    }
}
