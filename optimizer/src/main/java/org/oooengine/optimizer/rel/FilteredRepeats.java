package org.oooengine.optimizer.rel;

import java.lang.reflect.RecordComponent;
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
 * occurrences are alike and the executor computes them once. Alike means the same operators,
 * tables and expressions, compared by value.
 */
final class FilteredRepeats {
    private FilteredRepeats() {
    }

    /** The occurrences in {@code plan} to place whole: each alike to another, one of them under a filter. */
    static Set<RelNode> of(RelNode plan) {
        List<RelNode> candidates = new ArrayList<>();
        List<RelNode> filtered = new ArrayList<>();
        collect(plan, candidates, filtered);
        Set<RelNode> whole = Collections.newSetFromMap(new IdentityHashMap<>());
        for (RelNode f : filtered) {
            List<RelNode> alike = new ArrayList<>();
            for (RelNode c : candidates) {
                if (c != f && alike(c, f)) {
                    alike.add(c);
                }
            }
            if (!alike.isEmpty()) {
                whole.add(f);
                whole.addAll(alike);
            }
        }
        return whole;
    }

    /**
     * The occurrences in {@code plan} to place whole, each with the columns read of it: one set,
     * empty at first, shared by the occurrences alike, so that what one reads the others make too.
     */
    static Map<RelNode, BitSet> reads(RelNode plan) {
        Map<RelNode, BitSet> reads = new IdentityHashMap<>();
        for (RelNode occurrence : of(plan)) {
            BitSet shared = reads.entrySet().stream().filter(e -> alike(e.getKey(), occurrence)).map(Map.Entry::getValue)
                    .findFirst().orElseGet(BitSet::new);
            reads.put(occurrence, shared);
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

    /** Whether two values are alike: records component by component, lists and arrays item by item, others by equals. */
    static boolean alike(Object a, Object b) {
        if (a == b) {
            return true;
        }
        if (a == null || b == null || a.getClass() != b.getClass()) {
            return false;
        }
        if (a instanceof Record) {
            for (RecordComponent c : a.getClass().getRecordComponents()) {
                try {
                    c.getAccessor().setAccessible(true);
                    if (!alike(c.getAccessor().invoke(a), c.getAccessor().invoke(b))) {
                        return false;
                    }
                } catch (ReflectiveOperationException | RuntimeException e) {
                    return false;
                }
            }
            return true;
        }
        if (a instanceof List<?> x) {
            List<?> y = (List<?>) b;
            if (x.size() != y.size()) {
                return false;
            }
            for (int i = 0; i < x.size(); i++) {
                if (!alike(x.get(i), y.get(i))) {
                    return false;
                }
            }
            return true;
        }
        if (a instanceof int[] x) {
            return java.util.Arrays.equals(x, (int[]) b);
        }
        if (a.getClass().isArray()) {
            int n = java.lang.reflect.Array.getLength(a);
            if (n != java.lang.reflect.Array.getLength(b)) {
                return false;
            }
            for (int i = 0; i < n; i++) {
                if (!alike(java.lang.reflect.Array.get(a, i), java.lang.reflect.Array.get(b, i))) {
                    return false;
                }
            }
            return true;
        }
        return a.equals(b);
    }
}
