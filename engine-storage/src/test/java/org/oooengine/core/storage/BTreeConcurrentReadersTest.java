package org.oooengine.core.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.NavigableMap;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.oooengine.core.types.Bytes;

/**
 * Readers of a tree while a writer splits, updates, unlinks and compacts its leaves and publishes a flush
 * every few dozen writes, all through one small pool (so pages are read from the file while they
 * are being written): lookups always find the entries that are there all along, with their own
 * values; scans and full leaf scans see keys strictly ascending and every such entry in their range
 * exactly once. A torn page would fail its checksum; a stale one would lose or repeat keys.
 */
class BTreeConcurrentReadersTest {
    /** Entries that stay from start to end (even keys); the writer inserts and deletes odd ones around and beyond them. */
    private static final int STABLE = 3_000;

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3})
    void readersNeverSeeATornTree(long seed) throws Exception {
        NavigableMap<byte[], byte[]> loaded = new TreeMap<>(Arrays::compareUnsigned);
        for (int i = 0; i < STABLE; i++) {
            loaded.put(key(2 * i), value(2 * i, 0));
        }
        Path file = dir.resolve("t" + seed);
        BTreeTest.build(file, loaded, 4096, 1.0, new BufferPool(1 << 20, 4096, TestPools.IO, TestPools.CPU));
        BufferPool pool = new BufferPool(64 * 4096, 4096, TestPools.IO, TestPools.CPU);
        ExecutorService readers = Executors.newFixedThreadPool(3);
        AtomicBoolean writing = new AtomicBoolean(true);
        try (BTreeWriter w = BTreeWriter.open(file, SplitPolicy.values()[(int) (seed % SplitPolicy.values().length)], 1, (a, b) -> 0, pool)) {
            BTree openedBefore = w.reader();
            List<Future<Long>> reads = new ArrayList<>();
            reads.add(readers.submit(() -> lookups(openedBefore, writing, new Random(seed))));
            reads.add(readers.submit(() -> rangeScans(w.reader(), writing, new Random(seed + 1))));
            reads.add(readers.submit(() -> fullScans(w, writing)));
            long moved = write(w, new Random(seed));
            writing.set(false);
            for (Future<Long> f : reads) {
                assertTrue(f.get() > 0, "each reader read while the writer wrote");
            }
            assertTrue(w.splits() > 0 && w.unlinked() > 0, w.splits() + " splits, " + w.unlinked() + " unlinked");
            assertTrue(moved > 0, "compactions moved entries");
            List<String> problems = BTreeChecker.problems(w.reader());
            assertTrue(problems.isEmpty(), String.join("\n", problems));
        } finally {
            writing.set(false);
            readers.shutdownNow();
        }
    }

    /**
     * Odd keys inserted in dense bursts (splits) and deleted in runs (emptied leaves unlinked),
     * stable values updated, leaves compacted now and then; returns the entries compactions moved.
     */
    private static long write(BTreeWriter w, Random r) {
        long moved = 0;
        List<Integer> odd = new ArrayList<>();
        for (int op = 0; op < 6_000; op++) {
            int kind = r.nextInt(10);
            if (kind < 5) {
                int at = 2 * r.nextInt(STABLE + 400) + 1;
                for (int i = 0; i < 20; i++) {
                    int k = at + 2 * i; // beyond the stable keys too: leaves of odd keys alone, which deletes empty
                    w.put(key(k), new byte[40]);
                    odd.add(k);
                }
            } else if (kind < 8 && !odd.isEmpty()) {
                int from = r.nextInt(odd.size());
                List<Integer> run = odd.subList(from, Math.min(odd.size(), from + 60));
                for (int k : run) {
                    w.delete(key(k));
                }
                run.clear();
            } else {
                int k = 2 * r.nextInt(STABLE);
                w.put(key(k), value(k, op)); // grows a little: updates split full leaves too
            }
            if (op % 500 == 499) { // entries move right, into leaves readers may read next
                moved += w.compact(key(2 * r.nextInt(STABLE)), null, 1.0, 32).entriesMoved();
            }
            if (op % 40 == 39) {
                w.flush();
            }
        }
        w.flush();
        return moved;
    }

    private static long lookups(BTree tree, AtomicBoolean writing, Random r) {
        long n = 0;
        while (writing.get()) {
            int k = 2 * r.nextInt(STABLE);
            byte[] v = tree.get(key(k)).join();
            assertNotNull(v, "stable key " + k + " not found");
            assertEquals(k, Bytes.getInt(v, 0), "the value of another key under " + k);
            n++;
        }
        return n;
    }

    private static long rangeScans(BTree tree, AtomicBoolean writing, Random r) {
        long n = 0;
        while (writing.get()) {
            int from = 2 * r.nextInt(STABLE - 100);
            int to = from + 200;
            List<Integer> keys = new ArrayList<>();
            tree.scan(key(from), key(to), (leaf, slot) -> keys.add(Bytes.getInt(leaf.key(slot), 0))).join();
            assertTrue(keys.stream().allMatch(k -> k >= from && k < to), "a key outside [" + from + ", " + to + "): " + keys);
            assertStableKeysOnce(keys, from, to);
            n++;
        }
        return n;
    }

    private static long fullScans(BTreeWriter w, AtomicBoolean writing) {
        long n = 0;
        while (writing.get()) {
            List<Integer> keys = new ArrayList<>();
            LeafScanner.forEachLeaf(w.reader(), leaf -> {
                for (int i = 0; i < leaf.count(); i++) {
                    keys.add(Bytes.getInt(leaf.key(i), 0));
                }
            });
            assertStableKeysOnce(keys, 0, 2 * STABLE);
            n++;
        }
        return n;
    }

    /** Keys strictly ascending, and every even key in [from, to) among them. */
    private static void assertStableKeysOnce(List<Integer> keys, int from, int to) {
        int stable = 0;
        for (int i = 0; i < keys.size(); i++) {
            if (i > 0) {
                assertTrue(keys.get(i - 1) < keys.get(i), "keys out of order or repeated: " + keys.get(i - 1) + ", " + keys.get(i));
            }
            int k = keys.get(i);
            if (k % 2 == 0 && k >= from && k < to) {
                stable++;
            }
        }
        assertEquals((to - from) / 2, stable, "stable keys seen in [" + from + ", " + to + ")");
    }

    private static byte[] key(int k) {
        byte[] b = new byte[4];
        Bytes.putInt(b, 0, k);
        return b;
    }

    private static byte[] value(int k, int version) {
        byte[] b = new byte[8 + version % 7];
        Bytes.putInt(b, 0, k);
        Bytes.putInt(b, 4, version);
        return b;
    }
}
