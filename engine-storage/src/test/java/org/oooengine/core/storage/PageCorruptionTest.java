package org.oooengine.core.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.RandomAccessFile;
import java.nio.file.Path;
import java.util.NavigableMap;
import java.util.Random;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A damaged page is reported with file, page number and checksums, and never yields rows. */
class PageCorruptionTest {

    @TempDir
    Path dir;

    private Path buildTree(NavigableMap<byte[], byte[]> entries) {
        Path file = dir.resolve("t.data");
        try (BTreeBuilder b = new BTreeBuilder(file, 4096, 1.0)) {
            entries.forEach(b::add);
            b.finish();
        }
        return file;
    }

    private static void flipByte(Path file, long offset) throws Exception {
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.seek(offset);
            int b = raf.read();
            raf.seek(offset);
            raf.write(b ^ 0x40);
        }
    }

    @Test
    void flippedByteInALeafIsNamedOnLookupAndScan() throws Exception {
        NavigableMap<byte[], byte[]> entries = BTreeTest.randomEntries(new Random(5), 3000);
        Path file = buildTree(entries);
        long victim = 2;
        flipByte(file, victim * 4096 + 1000);

        BTree tree = new BTree(PageFile.open(file, 4096, false, new IoStats()), new BufferPool(1 << 20, 4096, TestPools.IO, TestPools.CPU));
        Page leaf = tree.page(1).join();
        // The last key before the victim page plus one byte lands on the victim page.
        byte[] probe = java.util.Arrays.copyOf(leaf.key(leaf.count() - 1), leaf.key(leaf.count() - 1).length + 1);

        CompletionException e = assertThrows(CompletionException.class, () -> {
            tree.scan(probe, null, (p, s) -> true).join();
        });
        PageCorruptedException pce = assertInstanceOf(PageCorruptedException.class, e.getCause());
        assertEquals(victim, pce.pageNo());
        assertEquals(file, pce.file());
        assertTrue(pce.getMessage().contains("checksum mismatch: expected 0x"), pce.getMessage());
        assertTrue(pce.getMessage().contains("actual 0x"), pce.getMessage());
        assertTrue(pce.getMessage().contains("page " + victim + " in " + file), pce.getMessage());

        // A full scan stops at the damaged page instead of returning its rows.
        long[] seen = {0};
        PageCorruptedException scanError = assertThrows(PageCorruptedException.class,
                () -> LeafScanner.forEachLeaf(tree, p -> seen[0] += p.count()));
        assertEquals(victim, scanError.pageNo());
        assertEquals(0, seen[0]);
    }

    @Test
    void damagedMetaPageAndTruncatedFileAreRefused() throws Exception {
        Path file = buildTree(BTreeTest.randomEntries(new Random(6), 500));
        flipByte(file, 40);
        PageCorruptedException e = assertThrows(PageCorruptedException.class,
                () -> new BTree(PageFile.open(file, 4096, false, new IoStats()), new BufferPool(1 << 20, 4096, TestPools.IO, TestPools.CPU)));
        assertEquals(0, e.pageNo());

        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.setLength(raf.length() - 100);
        }
        StorageException t = assertThrows(StorageException.class, () -> PageFile.open(file, 4096, false, new IoStats()));
        assertTrue(t.getMessage().contains("not a whole number of 4096-byte pages"), t.getMessage());
    }

    @Test
    void pageWrittenAtTheWrongPlaceIsDetected() throws Exception {
        Path file = buildTree(BTreeTest.randomEntries(new Random(8), 3000));
        byte[] page1 = new byte[4096];
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.seek(4096);
            raf.readFully(page1);
            raf.seek(2 * 4096);
            raf.write(page1);
        }
        PageFile pf = PageFile.open(file, 4096, false, new IoStats());
        PageCorruptedException e = assertThrows(PageCorruptedException.class, () -> pf.readPage(2));
        assertTrue(e.getMessage().contains("header says page 1"), e.getMessage());
        pf.close();
    }
}
