package org.oooengine.optimizer.rel;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The windows and groupings that a plan computes more than once alike, one of the times under a
 * filter: TPC-DS Q47's monthly sums ranked, read as this month (filtered to one year and to the
 * months far from their average) and as the month before and after (unfiltered). Filtered on the
 * nodes, the one occurrence differs from the others and is computed again; placed whole, with
 * the columns any of them reads, and filtered (and projected) on the coordinator over its rows, all
 * occurrences are alike and the executor computes them once. So are the uses of a subplan that
 * {@link FilterPushdown} computed alike for the filters of all of them ({@link AlikeUses}: Q04's
 * year totals). Alike means of one {@link Shapes shape}: the same operators, tables and
 * expressions, compared by value, whatever the columns are called.
 */
final class FilteredRepeats {
    private FilteredRepeats() {
    }

    /** The occurrences in {@code plan} to place whole: each alike to another, one of them under a filter. */
    static Set<RelNode> of(RelNode plan) {
        return reads(plan).keySet();
    }

    /**
     * The occurrences in {@code plan} to place whole, each with the columns read of it: one set,
     * empty at first, shared by the occurrences alike, so that what one reads the others make too.
     */
    static Map<RelNode, BitSet> reads(RelNode plan) {
        List<RelNode> candidates = new ArrayList<>();
        List<RelNode> filtered = new ArrayList<>();
        collect(plan, candidates, filtered);
        Set<RelNode> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        seen.addAll(candidates);
        AlikeUses.of(plan).forEach(uses -> uses.forEach(u -> {
            if (seen.add(u.node())) {
                candidates.add(u.node());
            }
            filtered.add(u.node());
        }));
        Shapes shapes = new Shapes();
        Map<Integer, Integer> occurrences = new java.util.HashMap<>();
        Set<Integer> underFilter = new java.util.HashSet<>();
        candidates.forEach(c -> occurrences.merge(shapes.of(c), 1, Integer::sum));
        filtered.forEach(f -> underFilter.add(shapes.of(f)));
        Map<RelNode, BitSet> reads = new IdentityHashMap<>();
        Map<Integer, BitSet> byShape = new java.util.HashMap<>();
        for (RelNode c : candidates) {
            int shape = shapes.of(c);
            if (occurrences.get(shape) > 1 && underFilter.contains(shape)) {
                reads.put(c, byShape.computeIfAbsent(shape, s -> new BitSet()));
            }
        }
        return reads;
    }

    /** Windows and groupings under a filter or projection, and apart those under a filter. */
    private static void collect(RelNode node, List<RelNode> candidates, List<RelNode> filtered) {
        RelNode below = node instanceof RelNode.Filter f ? f.input() : node instanceof RelNode.Project p ? p.input() : null;
        if (below instanceof RelNode.Window || below instanceof RelNode.Aggregate) {
            candidates.add(below);
            if (node instanceof RelNode.Filter) {
                filtered.add(below);
            }
        }
        RelNode.mapInputs(node, input -> {
            collect(input, candidates, filtered);
            return input;
        });
    }

    /** Whether two plans are alike: of one shape. */
    static boolean alike(RelNode a, RelNode b) {
        Shapes shapes = new Shapes();
        return shapes.of(a) == shapes.of(b);
    }
}
