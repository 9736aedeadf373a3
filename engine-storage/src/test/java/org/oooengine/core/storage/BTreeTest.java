package org.oooengine.core.storage;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Randomized bulk loads checked against a TreeMap: structure invariants, lookups and range scans. */
class BTreeTest {

    @TempDir
    Path dir;

    private static final java.util.Comparator<byte[]> UNSIGNED = Arrays::compareUnsigned;

    static NavigableMap<byte[], byte[]> randomEntries(Random r, int n) {
        NavigableMap<byte[], byte[]> m = new TreeMap<>(UNSIGNED);
        while (m.size() < n) {
            byte[] k = new byte[1 + r.nextInt(r.nextInt(10) == 0 ? 200 : 12)];
            r.nextBytes(k);
            byte[] v = new byte[r.nextInt(r.nextInt(20) == 0 ? 1500 : 60)];
            r.nextBytes(v);
            m.put(k, v);
        }
        return m;
    }

    static BTree build(Path file, NavigableMap<byte[], byte[]> entries, int pageSize, double fill, BufferPool pool) {
        try (BTreeBuilder b = new BTreeBuilder(file, pageSize, fill)) {
            entries.forEach(b::add);
            TreeMeta meta = b.finish();
            assertEquals(entries.size(), meta.entryCount());
        }
        return new BTree(PageFile.open(file, pageSize, false, new IoStats()), pool);
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12})
    void randomizedLoadsKeepInvariantsAndAnswerLikeATreeMap(long seed) {
        Random r = new Random(seed);
        int pageSize = r.nextBoolean() ? 4096 : 8192;
        double fill = new double[] {1.0, 0.9, 0.7, 0.5}[r.nextInt(4)];
        int n = new int[] {0, 1, 17, 500, 5_000, 30_000}[r.nextInt(6)];
        NavigableMap<byte[], byte[]> expected = randomEntries(r, n);
        BufferPool pool = new BufferPool(r.nextBoolean() ? 1 << 20 : 64 << 20, pageSize, TestPools.IO, TestPools.CPU);
        BTree tree = build(dir.resolve("t" + seed), expected, pageSize, fill, pool);

        checkStructure(tree, expected, pageSize, fill);

        List<byte[]> keys = new ArrayList<>(expected.keySet());
        for (int i = 0; i < 300 && !keys.isEmpty(); i++) {
            byte[] k = keys.get(r.nextInt(keys.size()));
            assertArrayEquals(expected.get(k), tree.get(k).join());
        }
        for (int i = 0; i < 200; i++) {
            byte[] probe = new byte[1 + r.nextInt(6)];
            r.nextBytes(probe);
            assertArrayEquals(expected.get(probe), tree.get(probe).join());
        }
        for (int i = 0; i < 100; i++) {
            byte[] a = new byte[1 + r.nextInt(3)];
            byte[] b = new byte[1 + r.nextInt(3)];
            r.nextBytes(a);
            r.nextBytes(b);
            if (UNSIGNED.compare(a, b) > 0) {
                byte[] t = a;
                a = b;
                b = t;
            }
            List<byte[]> got = new ArrayList<>();
            tree.scan(a, b, (leaf, slot) -> got.add(leaf.key(slot))).join();
            List<byte[]> want = new ArrayList<>(expected.subMap(a, true, b, false).keySet());
            assertEquals(want.size(), got.size());
            for (int j = 0; j < want.size(); j++) {
                assertArrayEquals(want.get(j), got.get(j));
            }
        }
    }

    /** Leaves are contiguous, ordered, chained, filled to the fill factor; every level is consistent. */
    private static void checkStructure(BTree tree, NavigableMap<byte[], byte[]> expected, int pageSize, double fill) {
        TreeMeta meta = tree.meta();
        List<Map.Entry<byte[], byte[]>> all = new ArrayList<>(expected.entrySet());
        int[] idx = {0};
        long[] leaves = {0};
        long[] expectNext = {meta.firstLeaf()};
        LeafScanner.forEachLeaf(tree, leaf -> {
            assertTrue(leaf.isLeaf());
            assertEquals(expectNext[0], leaf.pageNo());
            assertTrue(leaf.count() > 0 || expected.isEmpty());
            for (int i = 0; i < leaf.count(); i++) {
                assertArrayEquals(all.get(idx[0]).getKey(), leaf.key(i));
                assertArrayEquals(all.get(idx[0]).getValue(), leaf.value(i));
                idx[0]++;
            }
            leaves[0]++;
            expectNext[0] = leaf.next() < 0 ? -1 : leaf.next();
            if (leaf.pageNo() != meta.lastLeaf()) {
                assertEquals(leaf.pageNo() + 1, leaf.next());
            } else {
                assertEquals(-1, leaf.next());
            }
        });
        assertEquals(expected.size(), idx[0]);
        assertEquals(meta.leafCount(), leaves[0]);
        // Height is logarithmic and every root-to-leaf path has the same length.
        Page root = tree.page(meta.root()).join();
        assertEquals(meta.height() - 1, root.level());
        checkSubtree(tree, root, null, null);
        // Leaves other than the last are filled close to the target (one max-size entry of slack).
        if (meta.leafCount() > 2 && fill >= 0.7) {
            assertTrue(meta.leafCount() <= Math.ceil(bytes(expected) / ((pageSize - 32) * fill - 1700)) + 1,
                    "too many leaves for fill factor " + fill + ": " + meta.leafCount());
        }
    }

    private static double bytes(NavigableMap<byte[], byte[]> m) {
        double b = 0;
        for (Map.Entry<byte[], byte[]> e : m.entrySet()) {
            b += 2 + 2 + e.getKey().length + 2 + e.getValue().length;
        }
        return b;
    }

    private static void checkSubtree(BTree tree, Page page, byte[] low, byte[] high) {
        for (int i = 0; i < page.count(); i++) {
            byte[] k = page.key(i);
            if (low != null) {
                assertTrue(UNSIGNED.compare(k, low) >= 0, "key below its separator on page " + page.pageNo());
            }
            if (high != null) {
                assertTrue(UNSIGNED.compare(k, high) < 0, "key above the next separator on page " + page.pageNo());
            }
            if (i > 0) {
                assertTrue(UNSIGNED.compare(page.key(i - 1), k) < 0, "keys out of order on page " + page.pageNo());
            }
        }
        if (page.isLeaf()) {
            return;
        }
        for (int i = 0; i < page.count(); i++) {
            Page child = tree.page(page.child(i)).join();
            assertEquals(page.level() - 1, child.level());
            checkSubtree(tree, child, i == 0 ? low : page.key(i), i + 1 < page.count() ? page.key(i + 1) : high);
        }
    }

    @Test
    void unsortedInputIsRefused() {
        try (BTreeBuilder b = new BTreeBuilder(dir.resolve("bad"), 4096, 1.0)) {
            b.add(new byte[] {2}, new byte[0]);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> b.add(new byte[] {1}, new byte[0]));
            assertTrue(e.getMessage().contains("not in strictly increasing key order"));
            assertThrows(IllegalArgumentException.class, () -> b.add(new byte[] {2}, new byte[0]));
        }
    }

    /**
     * A scan over pages a pool reads on the calling thread (each read already done when the scan
     * asks for it) goes on in a loop: thousands of leaves deep it would otherwise overflow the stack.
     */
    @Test
    void aScanOfPagesReadOnTheCallingThreadDoesNotRecursePerPage() {
        BufferPool pool = new BufferPool(64 * 1024, 4096, Runnable::run, Runnable::run);
        NavigableMap<byte[], byte[]> entries = randomEntries(new Random(2), 200_000);
        BTree tree = build(dir.resolve("deep"), entries, 4096, 1.0, pool);
        long[] seen = {0};
        tree.scan(entries.firstKey(), null, (leaf, slot) -> ++seen[0] > 0).join();
        assertEquals(entries.size(), seen[0]);
    }

    @Test
    void missingKeyIsNull() {
        BufferPool pool = new BufferPool(1 << 20, 4096, TestPools.IO, TestPools.CPU);
        BTree tree = build(dir.resolve("small"), randomEntries(new Random(1), 10), 4096, 1.0, pool);
        assertNull(tree.get(new byte[] {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}).join());
    }
}
