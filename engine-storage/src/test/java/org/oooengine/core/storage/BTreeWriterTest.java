package org.oooengine.core.storage;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
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
import org.oooengine.core.types.DataType;
import org.oooengine.core.types.KeyCodec;

/**
 * Random inserts, updates and deletes into a bulk-loaded (or empty) tree, under every split
 * policy, keep every B+tree invariant and answer like a TreeMap holding the same writes, read
 * back through a freshly opened tree.
 */
class BTreeWriterTest {
    @TempDir
    Path dir;

    private static final java.util.Comparator<byte[]> UNSIGNED = Arrays::compareUnsigned;

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16})
    void randomWritesKeepTheInvariantsAndAnswerLikeATreeMap(long seed) {
        Random r = new Random(seed);
        int pageSize = r.nextBoolean() ? 4096 : 8192;
        SplitPolicy policy = SplitPolicy.values()[(int) (seed % SplitPolicy.values().length)];
        NavigableMap<byte[], byte[]> expected = BTreeTest.randomEntries(r, new int[] {0, 1, 300, 3_000}[r.nextInt(4)]);
        Path file = dir.resolve("t" + seed);
        BTreeTest.build(file, expected, pageSize, new double[] {1.0, 0.7}[r.nextInt(2)],
                new BufferPool(1 << 20, pageSize, TestPools.IO, TestPools.CPU));
        List<byte[]> known = new ArrayList<>(expected.keySet());
        try (BTreeWriter w = BTreeWriter.open(file, policy)) {
            for (int op = 0; op < 6_000; op++) {
                int kind = r.nextInt(10);
                if (kind < 6 || known.isEmpty()) {
                    byte[] k = new byte[1 + r.nextInt(12)];
                    r.nextBytes(k);
                    byte[] v = new byte[r.nextInt(r.nextInt(20) == 0 ? 900 : 60)];
                    r.nextBytes(v);
                    assertEquals(!expected.containsKey(k), w.put(k, v));
                    if (expected.put(k, v) == null) {
                        known.add(k);
                    }
                } else if (kind < 8) {
                    byte[] k = known.get(r.nextInt(known.size()));
                    byte[] v = new byte[r.nextInt(40)];
                    r.nextBytes(v);
                    assertEquals(expected.containsKey(k), !w.put(k, v));
                    known.add(k);
                    expected.put(k, v);
                } else if (kind < 9) {
                    byte[] k = known.get(r.nextInt(known.size()));
                    assertEquals(expected.remove(k) != null, w.delete(k));
                } else { // a run of neighbours: leaves empty and leave the tree
                    byte[] from = known.get(r.nextInt(known.size()));
                    List<byte[]> run = new ArrayList<>(expected.tailMap(from, true).keySet());
                    for (byte[] k : run.subList(0, Math.min(run.size(), r.nextInt(400)))) {
                        assertTrue(w.delete(k));
                        expected.remove(k);
                    }
                }
                if (op % 1_000 == 999) {
                    w.flush(); // flushed more than once: pages written again in place
                }
            }
            w.flush();
            byte[] any = known.isEmpty() ? new byte[] {1} : known.get(0);
            assertArrayEquals(expected.get(any), w.get(any));
        }
        assertTreeHolds(file, pageSize, expected);
    }

    /**
     * A writer reading through a pool of 16 pages (so pages are evicted and read again while it
     * writes) and a reader opened on that pool after each flush: the reader sees every write, and
     * no page the pool held before the flush in its old version.
     */
    @ParameterizedTest
    @ValueSource(longs = {21, 22, 23})
    void writesThroughASmallPoolAreSeenByReadersOpenedAfterEachFlush(long seed) {
        Random r = new Random(seed);
        NavigableMap<byte[], byte[]> expected = BTreeTest.randomEntries(r, 2_000);
        Path file = dir.resolve("pooled" + seed);
        BTreeTest.build(file, expected, 4096, 1.0, new BufferPool(1 << 20, 4096, TestPools.IO, TestPools.CPU));
        BufferPool pool = new BufferPool(16 * 4096, 4096, TestPools.IO, TestPools.CPU);
        try (BTreeWriter w = BTreeWriter.open(file, SplitPolicy.values()[(int) (seed % SplitPolicy.values().length)], 1, (a, b) -> 0, pool)) {
            for (int round = 0; round < 5; round++) {
                for (int op = 0; op < 800; op++) {
                    byte[] k = new byte[1 + r.nextInt(8)];
                    r.nextBytes(k);
                    if (r.nextInt(5) == 0 && !expected.isEmpty()) {
                        byte[] victim = expected.ceilingKey(k) == null ? expected.firstKey() : expected.ceilingKey(k);
                        w.delete(victim);
                        expected.remove(victim);
                    } else {
                        byte[] v = new byte[r.nextInt(50)];
                        r.nextBytes(v);
                        w.put(k, v);
                        expected.put(k, v);
                    }
                }
                w.flush();
                BTree reader = w.reader();
                List<String> problems = BTreeChecker.problems(reader);
                assertTrue(problems.isEmpty(), String.join("\n", problems));
                List<byte[]> keys = new ArrayList<>();
                reader.scan(new byte[0], null, (leaf, slot) -> keys.add(leaf.key(slot))).join();
                assertEquals(expected.size(), keys.size(), "round " + round);
            }
            assertTrue(pool.misses() > 16, "the writer read through the pool, evicting: " + pool.misses() + " misses");
        }
        assertTreeHolds(file, 4096, expected);
    }

    /**
     * A queue per key prefix, as TPC-C's new-order table is: entries appended at each prefix's end
     * and taken from its head. The leaves the deletes empty leave the tree, so the tree stays the
     * size of what it holds and finding a prefix's head reads a leaf or two, not every emptied one;
     * under prefix, a thinning head takes in the tail of the queue before it, and the leaves stay
     * nearly as few as a fresh load's.
     */
    @ParameterizedTest
    @ValueSource(strings = {"half", "prefix"})
    void leavesEmptiedAtAQueuesHeadLeaveTheTree(String policyName) {
        KeyCodec key = new KeyCodec(new DataType[] {DataType.BIGINT, DataType.BIGINT});
        NavigableMap<byte[], byte[]> loaded = new TreeMap<>(UNSIGNED);
        byte[] value = new byte[12];
        for (long queue = 0; queue < 10; queue++) {
            for (long seq = 0; seq < 900; seq++) {
                loaded.put(key.encode(queue, seq), value);
            }
        }
        Path file = dir.resolve("queues-" + policyName);
        BTreeTest.build(file, loaded, 4096, SplitPolicy.RUN_FILL, new BufferPool(1 << 20, 4096, TestPools.IO, TestPools.CPU));
        long head = 0;
        long tail = 900;
        try (BTreeWriter w = BTreeWriter.open(file, SplitPolicy.named(policyName), 2, key::sharedColumns)) {
            long leavesLoaded = w.meta().leafCount();
            for (int round = 0; round < 20; round++) {
                for (int i = 0; i < 300; i++, tail++) {
                    for (long queue = 0; queue < 10; queue++) {
                        w.put(key.encode(queue, tail), value);
                        loaded.put(key.encode(queue, tail), value);
                    }
                }
                for (int i = 0; i < 300; i++, head++) {
                    for (long queue = 0; queue < 10; queue++) {
                        byte[][] first = new byte[1][];
                        w.scan(key.encode(queue, 0), key.encode(queue + 1, 0), (k, v) -> {
                            first[0] = k;
                            return false;
                        });
                        assertArrayEquals(key.encode(queue, head), first[0]);
                        assertTrue(w.delete(first[0]));
                        loaded.remove(first[0]);
                    }
                }
                w.flush();
            }
            assertTrue(w.unlinked() > 0);
            assertTrue(w.meta().leafCount() <= 3 * leavesLoaded, w.meta().leafCount() + " leaves, loaded " + leavesLoaded);
            if (policyName.equals("prefix")) { // each queue's thinning head took in the tail of the queue before it
                int perLeaf = (4096 - PageFormat.HEADER_SIZE) / PageFormat.entryBytes(16, 12);
                long fresh = (w.meta().entryCount() + perLeaf - 1) / perLeaf;
                assertTrue(w.merged() > 0 && w.meta().leafCount() <= 1.25 * fresh,
                        w.merged() + " merged, " + w.meta().leafCount() + " leaves for " + fresh + " fresh");
            }
            long before = w.pageAccesses();
            w.scan(key.encode(5, 0), key.encode(6, 0), (k, v) -> false);
            // down the tree to the previous queue's last leaf (the head's separator is above the key sought), then the head's
            assertTrue(w.pageAccesses() - before <= w.meta().height() + 2,
                    "a queue's head found in " + (w.pageAccesses() - before) + " page visits, height " + w.meta().height());
        }
        assertTreeHolds(file, 4096, loaded);
    }

    /**
     * A tree grown half full by 50/50 splits, compacted range by range in steps of a few dozen
     * leaves: back to its load's fill, every entry still there, every invariant kept.
     */
    @Test
    void compactionPacksADeterioratedTreeBackToItsLoadFill() {
        KeyCodec key = new KeyCodec(new DataType[] {DataType.BIGINT, DataType.BIGINT});
        NavigableMap<byte[], byte[]> loaded = new TreeMap<>(UNSIGNED);
        byte[] value = new byte[50];
        for (long prefix = 0; prefix < 10; prefix++) {
            for (long seq = 0; seq < 200; seq++) {
                loaded.put(key.encode(prefix, seq), value);
            }
        }
        Path file = dir.resolve("compacted");
        BTreeTest.build(file, loaded, 4096, 1.0, new BufferPool(1 << 20, 4096, TestPools.IO, TestPools.CPU));
        try (BTreeWriter w = BTreeWriter.open(file, SplitPolicy.HALF, 2, key::sharedColumns)) {
            for (long seq = 200; seq < 3_000; seq++) {
                for (long prefix = 0; prefix < 10; prefix++) {
                    w.put(key.encode(prefix, seq), value);
                    loaded.put(key.encode(prefix, seq), value);
                }
            }
            w.flush();
            long grown = w.meta().leafCount();
            byte[] to = null; // windows from the end of the range towards its start
            int steps = 0;
            BTreeWriter.Compaction c;
            do {
                c = w.compact(new byte[0], to, 1.0, 40);
                w.flush();
                to = c.nextEnd();
                steps++;
            } while (c.more());
            int perLeaf = (4096 - PageFormat.HEADER_SIZE) / PageFormat.entryBytes(16, 50);
            long fresh = (loaded.size() + perLeaf - 1) / perLeaf;
            assertTrue(steps > 1, "in steps: " + steps);
            assertTrue(grown > 1.8 * fresh, grown + " leaves grown half full, " + fresh + " fresh");
            assertTrue(w.meta().leafCount() <= fresh / 0.95, w.meta().leafCount() + " leaves compacted, " + fresh + " fresh");
        }
        assertTreeHolds(file, 4096, loaded);
    }

    /** The tree opened afresh: its invariants, its full scan and its lookups against {@code expected}. */
    static void assertTreeHolds(Path file, int pageSize, NavigableMap<byte[], byte[]> expected) {
        BTree tree = new BTree(PageFile.open(file, pageSize, false, new IoStats()),
                new BufferPool(1 << 20, pageSize, TestPools.IO, TestPools.CPU));
        List<String> problems = BTreeChecker.problems(tree);
        assertTrue(problems.isEmpty(), String.join("\n", problems));
        List<Map.Entry<byte[], byte[]>> scanned = new ArrayList<>();
        tree.scan(new byte[0], null, (leaf, slot) -> scanned.add(Map.entry(leaf.key(slot), leaf.value(slot)))).join();
        assertEquals(expected.size(), scanned.size());
        int i = 0;
        for (Map.Entry<byte[], byte[]> e : expected.entrySet()) {
            assertArrayEquals(e.getKey(), scanned.get(i).getKey(), "key " + i);
            assertArrayEquals(e.getValue(), scanned.get(i).getValue(), "value " + i);
            i++;
        }
        for (byte[] k : expected.keySet()) {
            assertArrayEquals(expected.get(k), tree.get(k).join());
        }
        // a full scan too: leaves split elsewhere are read along their links, in key order
        List<byte[]> leafKeys = new ArrayList<>();
        LeafScanner.forEachLeaf(tree, leaf -> {
            for (int slot = 0; slot < leaf.count(); slot++) {
                leafKeys.add(leaf.key(slot));
            }
        });
        assertEquals(expected.size(), leafKeys.size());
        assertTrue(java.util.stream.IntStream.range(0, leafKeys.size()).allMatch(k ->
                Arrays.equals(leafKeys.get(k), scanned.get(k).getKey())), "a full scan reads the keys in order");
        byte[] absent = {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF,
            (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF};
        if (!expected.containsKey(absent)) {
            assertNull(tree.get(absent).join());
        }
    }

    /**
     * TPC-C's orders, inserted after a bulk load in ascending order numbers within each
     * (warehouse, district), 40,000 after 6,000 loaded (to {@link SplitPolicy#RUN_FILL}, the room a
     * run's pages keep): the tree's leaves end little over half full under half (the grown part at
     * 50%) and at 95% or more of their loaded fill under prefix; the health report sees it (leaves
     * against a fresh load's, per key range).
     */
    @Test
    void ordersInsertedWithinPrefixesFillTheirLeavesUnderThePrefixPolicy() {
        KeyCodec key = new KeyCodec(new DataType[] {DataType.BIGINT, DataType.BIGINT, DataType.BIGINT});
        byte[] value = new byte[60];
        double[] fill = new double[SplitPolicy.values().length];
        double[] deterioration = new double[SplitPolicy.values().length];
        for (SplitPolicy policy : SplitPolicy.values()) {
            Path file = dir.resolve("orders-" + policy);
            NavigableMap<byte[], byte[]> loaded = new TreeMap<>(UNSIGNED);
            for (long district = 0; district < 20; district++) {
                for (long order = 1; order <= 300; order++) {
                    loaded.put(key.encode(district / 10, district % 10, order), value);
                }
            }
            // loaded with the room runs keep too, so that the trees compare like for like
            BTreeTest.build(file, loaded, 4096, SplitPolicy.RUN_FILL, new BufferPool(1 << 20, 4096, TestPools.IO, TestPools.CPU));
            try (BTreeWriter w = BTreeWriter.open(file, policy, 3, key::sharedColumns)) {
                for (long order = 301; order <= 2_300; order++) {
                    for (long district = 0; district < 20; district++) {
                        byte[] k = key.encode(district / 10, district % 10, order);
                        w.put(k, value);
                        loaded.put(k, value);
                    }
                }
                w.flush();
                // the entries' bytes over the leaves' room, against 100% when loaded
                fill[policy.ordinal()] = (double) w.meta().entryCount() * PageFormat.entryBytes(24, 60)
                        / (w.meta().leafCount() * (4096 - PageFormat.HEADER_SIZE));
            }
            assertTreeHolds(file, 4096, loaded);
            TreeHealth health = TreeHealth.of(new BTree(PageFile.open(file, 4096, false, new IoStats()),
                    new BufferPool(1 << 20, 4096, TestPools.IO, TestPools.CPU)), 10);
            assertEquals(loaded.size(), health.entries());
            assertEquals(10, health.ranges().size());
            assertEquals(health.leaves(), Arrays.stream(health.fillHistogram()).sum());
            deterioration[policy.ordinal()] = health.deterioration();
            if (policy == SplitPolicy.HALF) { // every range grew half full: each is a reorganization's to take on
                assertEquals(10, health.deteriorated(1.25).size(), health.ranges().toString());
            }
        }
        assertTrue(deterioration[SplitPolicy.HALF.ordinal()] > 1.5 && deterioration[SplitPolicy.PREFIX.ordinal()] < 1.08,
                Arrays.toString(deterioration));
        assertTrue(fill[SplitPolicy.HALF.ordinal()] < 0.7, "half: " + Arrays.toString(fill));
        int perLoadedPage = (int) ((4096 - PageFormat.HEADER_SIZE) * SplitPolicy.RUN_FILL / PageFormat.entryBytes(24, 60));
        double loaded = (double) perLoadedPage * PageFormat.entryBytes(24, 60) / (4096 - PageFormat.HEADER_SIZE);
        assertTrue(fill[SplitPolicy.PREFIX.ordinal()] >= 0.95 * loaded, "prefix: " + Arrays.toString(fill));
    }
}
