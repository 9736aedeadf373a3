package org.oooengine.core.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BufferPoolTest {

    @TempDir
    Path dir;

    private Path tree(String name) {
        Path file = dir.resolve(name);
        try (BTreeBuilder b = new BTreeBuilder(file, 4096, 1.0)) {
            BTreeTest.randomEntries(new Random(2), 2000).forEach(b::add);
            b.finish();
        }
        return file;
    }

    @Test
    void concurrentRequestsForOnePageShareOneRead() throws Exception {
        IoStats stats = new IoStats();
        PageFile file = PageFile.open(tree("t"), 4096, false, stats);
        CountDownLatch gate = new CountDownLatch(1);
        ExecutorService io = Executors.newFixedThreadPool(4);
        // Hold the I/O thread until every request is queued, so they all meet the same pending read.
        BufferPool pool = new BufferPool(1 << 20, 4096, r -> io.execute(() -> {
            try {
                gate.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            r.run();
        }), TestPools.CPU);
        List<CompletableFuture<Page>> requests = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            requests.add(pool.get(file, 3));
        }
        gate.countDown();
        Page first = requests.get(0).join();
        for (CompletableFuture<Page> f : requests) {
            assertSame(first, f.join());
        }
        assertEquals(1, stats.pageReads());
        assertEquals(1, pool.misses());
        assertEquals(49, pool.sharedReads());
        assertSame(first, pool.get(file, 3).join());
        assertEquals(1, stats.pageReads());
        io.shutdownNow();
        file.close();
    }

    @Test
    void capacityIsRespected() {
        IoStats stats = new IoStats();
        PageFile file = PageFile.open(tree("c"), 4096, false, stats);
        BufferPool pool = new BufferPool(16 * 4096, 4096, Runnable::run, Runnable::run);
        for (long p = 0; p < file.pageCount(); p++) {
            pool.get(file, p).join();
        }
        long reads = stats.pageReads();
        assertEquals(file.pageCount(), reads);
        pool.get(file, file.pageCount() - 1).join();
        assertEquals(reads, stats.pageReads(), "most recent page stays resident");
        pool.get(file, 0).join();
        assertEquals(reads + 1, stats.pageReads(), "oldest page was evicted");
        file.close();
    }

    @Test
    void directIoReadsTheSamePages() {
        Path f = tree("d");
        PageFile buffered = PageFile.open(f, 4096, false, new IoStats());
        PageFile direct;
        try {
            direct = PageFile.open(f, 4096, true, new IoStats());
        } catch (DirectIoUnsupportedException e) {
            assumeTrue(false, "filesystem of the temp dir refuses O_DIRECT: " + e.getMessage());
            return;
        }
        for (long p = 0; p < buffered.pageCount(); p++) {
            assertTrue(java.util.Arrays.equals(buffered.readPage(p), direct.readPage(p)));
        }
        buffered.close();
        direct.close();
    }

    private static boolean kernelAllowsDirectIo(Path f) {
        try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(f,
                java.nio.file.StandardOpenOption.READ, com.sun.nio.file.ExtendedOpenOption.DIRECT)) {
            return ch.isOpen();
        } catch (Exception e) {
            return false;
        }
    }

    @Test
    void filesystemWithoutDirectIoGetsAClearMessage() throws Exception {
        Path shm = Path.of("/dev/shm");
        assumeTrue(Files.isDirectory(shm) && Files.isWritable(shm), "no tmpfs at /dev/shm");
        Path d = Files.createTempDirectory(shm, "ooo-direct");
        Path f = d.resolve("t");
        try (BTreeBuilder b = new BTreeBuilder(f, 4096, 1.0)) {
            b.add(new byte[] {1}, new byte[] {2});
            b.finish();
        }
        try {
            assumeTrue(!kernelAllowsDirectIo(f), "this kernel's tmpfs accepts O_DIRECT; nothing to refuse");
            DirectIoUnsupportedException e = assertThrows(DirectIoUnsupportedException.class,
                    () -> PageFile.open(f, 4096, true, new IoStats()));
            assertTrue(e.getMessage().contains("direct I/O (O_DIRECT) is not supported for " + f), e.getMessage());
        } finally {
            Files.deleteIfExists(f);
            Files.deleteIfExists(d);
        }
    }
}
