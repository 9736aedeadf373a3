package org.oooengine.core.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.NavigableMap;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.oooengine.core.types.DataType;
import org.oooengine.core.types.KeyCodec;

/**
 * The monitor finds the key ranges that deteriorated and only those; its steps, each within the
 * budget, pack them back to a fresh load's fill; the entries and the healthy ranges' leaves stay.
 */
class ReorganizerTest {
    @TempDir
    Path dir;

    private static final KeyCodec KEY = new KeyCodec(new DataType[] {DataType.BIGINT, DataType.BIGINT});

    @Test
    void onlyTheDeterioratedRangesAreReorganizedInBudgetedSteps() {
        NavigableMap<byte[], byte[]> entries = new TreeMap<>(Arrays::compareUnsigned);
        byte[] value = new byte[50];
        for (long prefix = 0; prefix < 10; prefix++) {
            for (long seq = 0; seq < 300; seq++) {
                entries.put(KEY.encode(prefix, seq), value);
            }
        }
        Path file = dir.resolve("t");
        BTreeTest.build(file, entries, 4096, 1.0, new BufferPool(1 << 20, 4096, TestPools.IO, TestPools.CPU));
        BufferPool pool = new BufferPool(4 << 20, 4096, TestPools.IO, TestPools.CPU);
        try (BTreeWriter w = BTreeWriter.open(file, SplitPolicy.HALF, 2, KEY::sharedColumns, pool)) {
            for (long seq = 300; seq < 3_000; seq++) { // the last three prefixes grow, half full
                for (long prefix = 7; prefix < 10; prefix++) {
                    w.put(KEY.encode(prefix, seq), value);
                    entries.put(KEY.encode(prefix, seq), value);
                }
            }
            Reorganizer reorganizer = new Reorganizer("t", w, 1.25, 1.0, 16);
            TreeHealth before = reorganizer.check(10);
            List<Long> healthyLeaves = leavesBelow(w.reader(), KEY.encode(7, 0));
            assertTrue(before.deterioration() > 1.5, "grown half full: " + before.deterioration());
            assertTrue(reorganizer.pending());
            int steps = 0;
            long leaves = w.meta().leafCount();
            while (reorganizer.step()) {
                steps++;
                assertTrue(leaves - w.meta().leafCount() <= 16, "a step frees at most its budget of leaves");
                leaves = w.meta().leafCount();
            }
            TreeHealth after = TreeHealth.of(w.reader(), 10);
            assertTrue(steps > 3 && reorganizer.cost().steps() == steps, steps + " steps");
            assertTrue(after.fill() >= 0.95 * 0.99 && after.deterioration() < 1.06,
                    "fill " + after.fill() + ", deterioration " + after.deterioration());
            assertEquals(healthyLeaves, leavesBelow(w.reader(), KEY.encode(7, 0)), "healthy ranges left alone");
            assertTrue(reorganizer.cost().entriesMoved() > 0 && reorganizer.cost().leavesFreed() > 0);
            assertFalse(reorganizer.check(10).deterioration() >= 1.25 && reorganizer.pending(), "nothing left to do");
        }
        BTreeWriterTest.assertTreeHolds(file, 4096, entries);
    }

    @Test
    void aBudgetBelowTwoLeavesIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new Reorganizer("t", null, 1.25, 1.0, 1));
    }

    private static List<Long> leavesBelow(BTree tree, byte[] key) {
        List<Long> pages = new ArrayList<>();
        LeafScanner.forEachLeaf(tree, null, key, leaf -> pages.add(leaf.pageNo()));
        return pages;
    }
}
