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

    public record Range(String firstKey, long leaves, long freshLeaves, long entries, double fill) {
        public double deterioration() {
            return freshLeaves == 0 ? 1 : (double) leaves / freshLeaves;
        }
    }

    /** Leaves over the leaves a fresh bulk load of the same entries would take. */
    public double deterioration() {
        return freshLeaves == 0 ? 1 : (double) leaves / freshLeaves;
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
