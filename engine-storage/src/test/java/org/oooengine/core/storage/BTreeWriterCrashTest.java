package org.oooengine.core.storage;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.NavigableMap;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A writer killed (SIGKILL, a child JVM) at a random point while it writes and flushes leaves a
 * tree that opens, passes every check and holds every flushed batch — and the batch in flight
 * either whole or not at all.
 */
class BTreeWriterCrashTest {
    private static final int PAGE = 4096;

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12})
    void aWriterKilledAnywhereLeavesEveryFlushedBatchAndNoHalfOfOne(long seed) throws Exception {
        Path file = dir.resolve("t" + seed);
        BTreeTest.build(file, new TreeMap<>(Arrays::compareUnsigned), PAGE, 1.0,
                new BufferPool(1 << 20, PAGE, TestPools.IO, TestPools.CPU));
        int killAfter = 3 + new Random(seed).nextInt(25);
        // the client compiler and one GC thread: the child lives about a second
        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"),
                BTreeWriterCrashChild.class.getName(), file.toString(), String.valueOf(seed)).redirectErrorStream(true).start();
        int flushed = 0;
        try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while (flushed < killAfter && (line = out.readLine()) != null) {
                if (!line.startsWith("flushed ")) {
                    fail("the writer failed: " + line);
                }
                flushed = Integer.parseInt(line.substring("flushed ".length()));
            }
            Thread.sleep(new Random(seed * 31).nextInt(15)); // somewhere inside a later batch
            child.destroyForcibly();
            assertTrue(child.waitFor(30, TimeUnit.SECONDS), "the writer did not die");
        }
        // the writer's own recovery, then the tree as a reader opens it
        try (BTreeWriter w = BTreeWriter.open(file, SplitPolicy.PREFIX)) {
            w.meta();
        }
        BTree tree = new BTree(PageFile.open(file, PAGE, false, new IoStats()),
                new BufferPool(1 << 20, PAGE, TestPools.IO, TestPools.CPU));
        List<String> problems = BTreeChecker.problems(tree);
        assertTrue(problems.isEmpty(), String.join("\n", problems));
        NavigableMap<byte[], byte[]> found = new TreeMap<>(Arrays::compareUnsigned);
        tree.scan(new byte[0], null, (leaf, slot) -> {
            found.put(leaf.key(slot), leaf.value(slot));
            return true;
        }).join();
        // the seed's writes replayed: the tree must be their state after the flushed batches or some later whole batch
        Random r = new Random(seed);
        NavigableMap<byte[], byte[]> state = new TreeMap<>(Arrays::compareUnsigned);
        for (int batch = 0; batch <= flushed + 1_000; batch++) {
            if (batch >= flushed && same(found, state)) {
                return;
            }
            for (int i = 0; i < BTreeWriterCrashChild.BATCH; i++) {
                BTreeWriterCrashChild.Op op = BTreeWriterCrashChild.Op.next(r);
                if (op.value() == null) {
                    state.remove(op.key());
                } else {
                    state.put(op.key(), op.value());
                }
            }
        }
        fail("after " + flushed + " flushed batches the tree holds " + found.size()
                + " entries, which no whole number of batches from there gives");
    }

    private static boolean same(NavigableMap<byte[], byte[]> a, NavigableMap<byte[], byte[]> b) {
        if (a.size() != b.size()) {
            return false;
        }
        var ib = b.entrySet().iterator();
        for (var e : a.entrySet()) {
            var f = ib.next();
            if (!Arrays.equals(e.getKey(), f.getKey()) || !Arrays.equals(e.getValue(), f.getValue())) {
                return false;
            }
        }
        return true;
    }
}
