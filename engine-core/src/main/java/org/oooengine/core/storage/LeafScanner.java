package org.oooengine.core.storage;

import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * Full scan of a tree: a bulk-loaded tree's leaves are contiguous, so they are read sequentially
 * in large requests around the buffer pool (a scan must not flush the cache of index pages), with
 * a few requests read ahead on the I/O threads so the device streams while rows are processed. A
 * tree whose writes split leaves elsewhere ({@link TreeMeta#leavesContiguous()} false) is read
 * leaf by leaf along their links instead.
 */
public final class LeafScanner {
    /** Chunks in flight ahead of the one being processed. */
    static final int READ_AHEAD = 4;

    private LeafScanner() {
    }

    /** Calls {@code action} for every leaf in key order, on the calling thread. */
    public static void forEachLeaf(BTree tree, Consumer<Page> action) {
        forEachLeaf(tree, tree.meta().firstLeaf(), tree.meta().lastLeaf(), leaf -> {
            action.accept(leaf);
            return true;
        });
    }

    /**
     * Calls {@code action} for the leaves from page {@code firstLeaf} to {@code lastLeaf} in key
     * order, until it returns false: a range of the clustered key read sequentially, as a full
     * scan is, and no page beyond it.
     */
    public static void forEachLeaf(BTree tree, long firstLeaf, long lastLeaf, Predicate<Page> action) {
        if (!tree.meta().leavesContiguous()) {
            for (long p = firstLeaf; p >= 0; ) {
                Page leaf = tree.page(p).join();
                if (!action.test(leaf) || p == lastLeaf) {
                    return;
                }
                p = leaf.next();
            }
            return;
        }
        PageFile file = tree.file();
        int pageSize = file.pageSize();
        int perChunk = Math.max(1, PageFile.SCAN_CHUNK_BYTES / pageSize);
        ArrayDeque<CompletableFuture<byte[]>> ahead = new ArrayDeque<>();
        long next = firstLeaf;
        long chunkStart = next;
        try {
            while (true) {
                while (ahead.size() < READ_AHEAD && next <= lastLeaf) {
                    long first = next;
                    int n = (int) Math.min(perChunk, lastLeaf - first + 1);
                    ahead.add(CompletableFuture.supplyAsync(() -> {
                        byte[] chunk = new byte[n * pageSize];
                        file.readPages(first, n, chunk);
                        return chunk;
                    }, tree.bufferPool().ioExecutor()));
                    next += n;
                }
                CompletableFuture<byte[]> head = ahead.poll();
                if (head == null) {
                    return;
                }
                byte[] chunk = head.join();
                for (int i = 0; i < chunk.length / pageSize; i++) {
                    byte[] data = new byte[pageSize];
                    System.arraycopy(chunk, i * pageSize, data, 0, pageSize);
                    if (!action.test(new Page(data, chunkStart + i))) {
                        ahead.forEach(f -> f.cancel(false));
                        return;
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
}
