package org.oooengine.core.storage;

import java.util.ArrayList;
import java.util.List;

/**
 * How far a B+tree's leaf level has deteriorated from a fresh bulk load (seed 001): how full its
 * leaves are (bytes of entries over the bytes a page holds for them), how many leaves it takes
 * against the leaves a bulk load of the same entries at the tree's fill factor would take, and
 * both per key range — consecutive runs of leaves — so that a reorganization can take on only the
 * ranges that deteriorated. A leaf's fill also goes into a histogram of tenths.
 */
public record TreeHealth(long leaves, long entries, double fill, long freshLeaves, List<Range> ranges,
                         long[] fillHistogram) {
    /** One run of consecutive leaves, from the key {@code firstKey} on (empty for the first range). */
    public record Range(byte[] firstKey, long firstLeaf, long leaves, long entries, double fill, long freshLeaves) {
        /** Leaves over the leaves a bulk load would take: 1 when fresh, 2 when they hold half of what they could. */
        public double deterioration() {
            return freshLeaves == 0 ? 1 : (double) leaves / freshLeaves;
        }

        /** Leaves a scan of the range reads per entry it returns. */
        public double pagesPerEntry() {
            return entries == 0 ? 0 : (double) leaves / entries;
        }
    }

    /** Leaves over the leaves a bulk load of the same entries would take. */
    public double deterioration() {
        return freshLeaves == 0 ? 1 : (double) leaves / freshLeaves;
    }

    /** The ranges whose leaves are at least {@code factor} times as many as a bulk load's (e.g. 1.25). */
    public List<Range> deteriorated(double factor) {
        return ranges.stream().filter(r -> r.deterioration() >= factor).toList();
    }

    /**
     * Walks {@code tree}'s leaves in key order (read as a scan reads them, around the buffer pool),
     * in {@code rangeCount} runs of about the same number of leaves.
     */
    public static TreeHealth of(BTree tree, int rangeCount) {
        TreeMeta meta = tree.meta();
        int room = meta.pageSize() - PageFormat.HEADER_SIZE;
        long perRange = Math.max(1, (meta.leafCount() + rangeCount - 1) / Math.max(1, rangeCount));
        long[] histogram = new long[11];
        List<Range> ranges = new ArrayList<>();
        Acc[] range = {null};
        long[] totals = new long[3]; // leaves, entries, bytes
        LeafScanner.forEachLeaf(tree, leaf -> {
            if (range[0] == null || range[0].leaves >= perRange && leaf.count() > 0) {
                if (range[0] != null) {
                    ranges.add(range[0].done(room, meta.fillFactor()));
                }
                // a range begins at a leaf with entries (but for the first): its first key bounds it
                range[0] = new Acc(range[0] == null || leaf.count() == 0 ? new byte[0] : leaf.key(0), leaf.pageNo());
            }
            long leafBytes = 0;
            for (int i = 0; i < leaf.count(); i++) {
                leafBytes += PageFormat.entryBytes(leaf.key(i).length, leaf.value(i).length);
            }
            histogram[(int) Math.min(10, leafBytes * 10 / room)]++;
            range[0].leaves++;
            range[0].entries += leaf.count();
            range[0].bytes += leafBytes;
            totals[0]++;
            totals[1] += leaf.count();
            totals[2] += leafBytes;
        });
        if (range[0] != null) {
            ranges.add(range[0].done(room, meta.fillFactor()));
        }
        long leaves = totals[0];
        long bytes = totals[2];
        return new TreeHealth(leaves, totals[1], leaves == 0 ? 0 : bytes / ((double) leaves * room),
                fresh(bytes, room, meta.fillFactor()), ranges, histogram);
    }

    /** Leaves a bulk load at {@code fillFactor} takes for {@code bytes} of entries (at least one). */
    private static long fresh(long bytes, int room, double fillFactor) {
        return Math.max(1, (long) Math.ceil(bytes / (room * Math.max(fillFactor, 0.1))));
    }

    private static final class Acc {
        final byte[] firstKey;
        final long firstLeaf;
        long leaves;
        long entries;
        long bytes;

        Acc(byte[] firstKey, long firstLeaf) {
            this.firstKey = firstKey;
            this.firstLeaf = firstLeaf;
        }

        Range done(int room, double fillFactor) {
            return new Range(firstKey, firstLeaf, leaves, entries, bytes / ((double) leaves * room),
                    fresh(bytes, room, fillFactor));
        }
    }
}
