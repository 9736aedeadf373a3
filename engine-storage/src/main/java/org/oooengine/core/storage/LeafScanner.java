package org.oooengine.core.storage;

import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * Full and range scans of a tree's leaves. A bulk-loaded tree's leaves are contiguous, so they are
 * read sequentially in large requests around the buffer pool (a scan must not flush the cache of
 * index pages), with a few requests read ahead on the I/O threads so the device streams while rows
 * are processed. From a leaf not linked to the page after it on (a write split or unlinked leaves
 * there, before the scan or while it runs), the leaves are read one by one along their links. A
 * scan ends at the end of the chain or at a leaf whose keys are all past its range: never at a page
 * number, which a concurrent split could leave short of the range's end. Pages read ahead are
 * trusted only while no writer publishes ({@link PageFile#version}); after a publication the scan
 * goes on along the links, and skips entries it saw already (a reorganization moves entries right).
 */
public final class LeafScanner {
    /** Chunks in flight ahead of the one being processed. */
    static final int READ_AHEAD = 4;

    private LeafScanner() {
    }

    /** Calls {@code action} for every leaf in key order, on the calling thread. */
    public static void forEachLeaf(BTree tree, Consumer<Page> action) {
        forEachLeaf(tree, null, null, leaf -> {
            action.accept(leaf);
            return true;
        });
    }

    /**
     * Calls {@code action} for the leaves that may hold keys in [{@code from}, {@code toExclusive})
     * (null: unbounded) in key order, until it returns false: a range of the clustered key read
     * sequentially, as a full scan is, and no page beyond it.
     */
    public static void forEachLeaf(BTree tree, byte[] from, byte[] toExclusive, Predicate<Page> action) {
        TreeMeta meta = tree.meta();
        long first = from == null ? meta.firstLeaf() : tree.seek(from).join().pageNo();
        Predicate<Page> inRange = toExclusive == null ? action
                : leaf -> (leaf.count() == 0 || leaf.compareKey(0, toExclusive) < 0) && action.test(leaf);
        inRange = new SkipSeen(inRange);
        if (!meta.leavesContiguous()) {
            followLinks(tree, first, inRange);
            return;
        }
        // the leaves to read ahead in file order; the chain decides where the scan really goes
        long last = toExclusive == null ? meta.lastLeaf() : tree.seek(toExclusive).join().pageNo();
        long next = readSequentially(tree, first, Math.max(first, last), inRange);
        if (next >= 0) {
            followLinks(tree, next, inRange);
        }
    }

    /**
     * Reads the leaves from {@code first} to {@code last} in file order while each links to the
     * page after it; returns the leaf to go on to along the links (-1: the scan is over).
     */
    private static long readSequentially(BTree tree, long first, long last, Predicate<Page> action) {
        PageFile file = tree.file();
        int pageSize = file.pageSize();
        int perChunk = Math.max(1, PageFile.SCAN_CHUNK_BYTES / pageSize);
        ArrayDeque<CompletableFuture<Chunk>> ahead = new ArrayDeque<>();
        long version = -1;
        long next = first;
        long chunkStart = next;
        try {
            while (true) {
                while (ahead.size() < READ_AHEAD && next <= last) {
                    long from = next;
                    int n = (int) Math.min(perChunk, last - from + 1);
                    ahead.add(CompletableFuture.supplyAsync(() -> file.readConsistently(() -> {
                        byte[] chunk = new byte[n * pageSize];
                        file.readPages(from, n, chunk);
                        return new Chunk(file.version(), chunk);
                    }), tree.bufferPool().ioExecutor()));
                    next += n;
                }
                CompletableFuture<Chunk> head = ahead.poll();
                if (head == null) {
                    return last + 1;
                }
                Chunk read = head.join();
                if (version < 0) {
                    version = read.version();
                } else if (read.version() != version) { // a writer published pages: what was read ahead may be stale
                    ahead.forEach(f -> f.cancel(false));
                    return chunkStart;
                }
                byte[] chunk = read.pages();
                for (int i = 0; i < chunk.length / pageSize; i++) {
                    byte[] data = new byte[pageSize];
                    System.arraycopy(chunk, i * pageSize, data, 0, pageSize);
                    Page leaf = new Page(data, chunkStart + i);
                    if (!action.test(leaf)) {
                        ahead.forEach(f -> f.cancel(false));
                        return -1;
                    }
                    if (leaf.next() != leaf.pageNo() + 1) {
                        ahead.forEach(f -> f.cancel(false));
                        return leaf.next();
                    }
                }
                chunkStart += chunk.length / pageSize;
            }
        } catch (CompletionException e) {
            ahead.forEach(f -> f.cancel(false));
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw e;
        }
    }

    /** Pages read together, and the file's version they were read in. */
    private record Chunk(long version, byte[] pages) {
    }

    /**
     * Passes leaves on without the entries a leaf before them already held: a reorganization that
     * moved entries right while the scan ran may have the scan read them twice.
     */
    private static final class SkipSeen implements Predicate<Page> {
        private final Predicate<Page> action;
        private byte[] last;

        SkipSeen(Predicate<Page> action) {
            this.action = action;
        }

        @Override
        public boolean test(Page leaf) {
            Page fresh = last == null ? leaf : leaf.after(last);
            if (fresh.count() > 0) {
                last = fresh.key(fresh.count() - 1);
            }
            return action.test(fresh);
        }
    }

    private static void followLinks(BTree tree, long firstLeaf, Predicate<Page> action) {
        for (long p = firstLeaf; p >= 0; ) {
            Page leaf = tree.page(p).join();
            if (!action.test(leaf)) {
                return;
            }
            p = leaf.next();
        }
    }
}
