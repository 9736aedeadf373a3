package org.oooengine.core.storage;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * Seed 001's deterioration monitor, acting: {@link #check} measures a tree's health per key range
 * and queues the ranges whose leaves number at least {@code threshold} times a fresh load's (and
 * says so in the log); each {@link #step} then compacts at most {@code leavesPerStep} leaves of the
 * queued ranges and flushes — a budget, so that whoever calls it between its own work (a
 * transaction, a query) is never held up for longer than one step. Ranges that did not
 * deteriorate are left alone.
 */
public final class Reorganizer {
    private static final Logger LOG = LogManager.getLogger(Reorganizer.class);

    private final String name;
    private final BTreeWriter writer;
    private final double threshold;
    private final double fill;
    private final int leavesPerStep;
    /** Queued key ranges, [from, toExclusive) (toExclusive null: to the end). */
    private final ArrayDeque<byte[][]> queued = new ArrayDeque<>();
    /** The range being compacted: where its windows begin, the last first, and where the next one ends. */
    private List<byte[]> windows;
    private byte[] windowEnd;
    private final Cost cost = new Cost();

    /** What the reorganization has cost so far. */
    public static final class Cost {
        private long steps;
        private long leaves;
        private long entriesMoved;
        private long leavesFreed;
        private long nanos;

        public long steps() {
            return steps;
        }

        /** Leaves the steps looked at (each read, and written when entries moved in or out of it). */
        public long leaves() {
            return leaves;
        }

        public long entriesMoved() {
            return entriesMoved;
        }

        /** Leaves emptied and taken out of the tree. */
        public long leavesFreed() {
            return leavesFreed;
        }

        /** Time spent in steps, flushes included. */
        public double seconds() {
            return nanos / 1e9;
        }
    }

    /**
     * Reorganizes the tree {@code writer} writes (named {@code name} in the log), packing its
     * deteriorated ranges to {@code fill} of their leaves' room.
     */
    public Reorganizer(String name, BTreeWriter writer, double threshold, double fill, int leavesPerStep) {
        if (threshold < 1 || fill <= 0.5 || fill > 1 || leavesPerStep < 2) {
            throw new IllegalArgumentException("a reorganization needs a threshold of at least 1, a fill in (0.5, 1] and "
                    + "at least two leaves per step");
        }
        this.name = name;
        this.writer = writer;
        this.threshold = threshold;
        this.fill = fill;
        this.leavesPerStep = leavesPerStep;
    }

    /**
     * Measures the tree as last flushed, in {@code ranges} key ranges, and queues those that
     * deteriorated past the threshold (replacing what was queued); returns the measurement.
     */
    public TreeHealth check(int ranges) {
        writer.flush();
        windows = null;
        TreeHealth health = TreeHealth.of(writer.reader(), ranges);
        List<TreeHealth.Range> all = health.ranges();
        queued.clear();
        int deteriorated = 0;
        for (int i = 0; i < all.size(); i++) {
            TreeHealth.Range r = all.get(i);
            if (r.deterioration() < threshold) {
                continue;
            }
            deteriorated++;
            LOG.debug("{}: key range {} of {} has {} leaves, {} fresh ({}% full)", name, i + 1, all.size(), r.leaves(),
                    r.freshLeaves(), Math.round(100 * r.fill()));
            byte[] end = i + 1 < all.size() ? all.get(i + 1).firstKey() : null;
            byte[][] last = queued.peekLast();
            if (last != null && last[1] != null && Arrays.equals(last[1], r.firstKey())) {
                last[1] = end; // neighbours are compacted as one range: no partly filled leaf between them
            } else {
                queued.add(new byte[][] {r.firstKey(), end});
            }
        }
        if (deteriorated > 0) {
            LOG.info(String.format(Locale.ROOT, "%s: %d of %d key ranges deteriorated (at least %.2fx the leaves of a fresh "
                            + "load; the tree %.2fx, %.0f%% full): reorganizing them, %d leaves a step", name, deteriorated,
                    all.size(), threshold, health.deterioration(), 100 * health.fill(), leavesPerStep));
        }
        return health;
    }

    /** Whether queued ranges remain. */
    public boolean pending() {
        return windows != null || !queued.isEmpty();
    }

    /**
     * Compacts one window (at most the step's budget of leaves) of the first queued range, and
     * flushes; false when nothing was queued. A range is cut into windows when its turn comes
     * (one walk over its leaves) and compacted from its last window to its first, each step
     * reading about one window's leaves.
     */
    public boolean step() {
        if (windows == null) {
            byte[][] range = queued.poll();
            if (range == null) {
                return false;
            }
            windows = writer.windowStarts(range[0], range[1], leavesPerStep - 1);
            windowEnd = range[1];
        }
        long t0 = System.nanoTime();
        byte[] start = windows.get(windows.size() - 1);
        BTreeWriter.Compaction c = writer.compact(start, windowEnd, fill, leavesPerStep);
        writer.flush();
        cost.steps++;
        cost.leaves += c.leaves();
        cost.entriesMoved += c.entriesMoved();
        cost.leavesFreed += c.leavesFreed();
        cost.nanos += System.nanoTime() - t0;
        windowEnd = c.nextEnd();
        if (!c.more()) { // inserts since the cut may have added leaves to the window: then its start again
            windows.remove(windows.size() - 1);
        }
        if (windows.isEmpty()) {
            windows = null;
            if (queued.isEmpty()) {
                LOG.info("{}: reorganized in {} steps, {} entries moved, {} leaves freed", name, cost.steps,
                        cost.entriesMoved, cost.leavesFreed);
            }
        }
        return true;
    }

    public Cost cost() {
        return cost;
    }
}
