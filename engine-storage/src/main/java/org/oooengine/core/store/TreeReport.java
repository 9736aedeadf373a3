package org.oooengine.core.store;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.oooengine.core.storage.BTree;
import org.oooengine.core.storage.TreeHealth;
import org.oooengine.core.types.KeyCodec;

/**
 * How one tree of a table partition (its clustered tree, {@code "data"}, or an index) has
 * deteriorated, as {@link TreeHealth} measures it, whole and per key range, each range's first key
 * written out as values: what {@code sys.tree_health}, {@code DESCRIBE FORMATTED} and
 * {@code ooo analyze} show.
 */
public record TreeReport(String table, String tree, long leaves, long freshLeaves, long entries, double fill,
                         List<Range> ranges) {
    /** The clustered tree's name in reports. */
    public static final String DATA = "data";
    /** Key ranges at least this many times a fresh load's leaves are reported as deteriorated (and reorganized). */
    public static final double DETERIORATED = 1.25;
    /** Key ranges a tree is cut into in reports. */
    public static final int RANGES = 20;

    public record Range(String firstKey, long leaves, long freshLeaves, long entries, double fill) {
        @com.fasterxml.jackson.annotation.JsonIgnore
        public double deterioration() {
            return freshLeaves == 0 ? 1 : (double) leaves / freshLeaves;
        }
    }

    /** Leaves over the leaves a fresh bulk load of the same entries would take. */
    @com.fasterxml.jackson.annotation.JsonIgnore
    public double deterioration() {
        return freshLeaves == 0 ? 1 : (double) leaves / freshLeaves;
    }

    /** The ranges whose leaves number at least {@code factor} times a fresh load's. */
    public long deterioratedRanges(double factor) {
        return ranges.stream().filter(r -> r.deterioration() >= factor).count();
    }

    /** One line: leaves against a fresh load's, fill, entries and the deteriorated ranges. */
    public String describe(double factor) {
        return String.format(java.util.Locale.ROOT, "%,d leaves, %,d as loaded fresh (%.2fx), %.1f%% full, %,d entries; "
                + "%d of %d key ranges at %.2fx or more", leaves, freshLeaves, deterioration(), 100 * fill, entries,
                deterioratedRanges(factor), ranges.size(), factor);
    }

    /**
     * The reports of the same tables' trees from several nodes, one per (table, tree): counts
     * summed, fill weighted by leaves, every node's ranges kept.
     */
    public static List<TreeReport> summed(java.util.Collection<List<TreeReport>> byNode) {
        java.util.Map<String, TreeReport> sums = new java.util.LinkedHashMap<>();
        for (List<TreeReport> reports : byNode) {
            for (TreeReport t : reports) {
                sums.merge(t.table() + "\u0000" + t.tree(), t, (a, b) -> {
                    List<Range> ranges = new ArrayList<>(a.ranges());
                    ranges.addAll(b.ranges());
                    long leaves = a.leaves() + b.leaves();
                    double fill = leaves == 0 ? 0 : (a.fill() * a.leaves() + b.fill() * b.leaves()) / leaves;
                    return new TreeReport(a.table(), a.tree(), leaves, a.freshLeaves() + b.freshLeaves(),
                            a.entries() + b.entries(), fill, ranges);
                });
            }
        }
        return new ArrayList<>(sums.values());
    }

    /** The table's trees, each cut into {@code ranges} key ranges. */
    public static List<TreeReport> of(Table table, int ranges) {
        List<TreeReport> out = new ArrayList<>();
        out.add(of(table.name(), DATA, table.tree(), table.keyCodec(), ranges));
        for (SecondaryIndex ix : table.indexes().values()) {
            out.add(of(table.name(), ix.name(), ix.tree(), ix.codec(), ranges));
        }
        return out;
    }

    private static TreeReport of(String table, String tree, BTree btree, KeyCodec keys, int rangeCount) {
        TreeHealth h = TreeHealth.of(btree, rangeCount);
        List<Range> ranges = new ArrayList<>();
        for (TreeHealth.Range r : h.ranges()) {
            String first = r.firstKey().length == 0 ? "" : Arrays.toString(keys.decode(r.firstKey()));
            ranges.add(new Range(first, r.leaves(), r.freshLeaves(), r.entries(), r.fill()));
        }
        return new TreeReport(table, tree, h.leaves(), h.freshLeaves(), h.entries(), h.fill(), ranges);
    }
}
