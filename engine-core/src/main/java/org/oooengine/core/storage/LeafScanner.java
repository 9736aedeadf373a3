package org.oooengine.core.storage;

import java.util.function.Consumer;

/**
 * Full scan of a bulk-loaded tree: its leaves are contiguous, so they are read sequentially in
 * large requests around the buffer pool (a scan must not flush the cache of index pages).
 */
public final class LeafScanner {
    private LeafScanner() {
    }

    /** Calls {@code action} for every leaf in key order. */
    public static void forEachLeaf(BTree tree, Consumer<Page> action) {
        PageFile file = tree.file();
        TreeMeta meta = tree.meta();
        int perChunk = Math.max(1, PageFile.SCAN_CHUNK_BYTES / file.pageSize());
        byte[] chunk = new byte[perChunk * file.pageSize()];
        for (long first = meta.firstLeaf(); first <= meta.lastLeaf(); first += perChunk) {
            int n = (int) Math.min(perChunk, meta.lastLeaf() - first + 1);
            file.readPages(first, n, chunk);
            for (int i = 0; i < n; i++) {
                byte[] data = new byte[file.pageSize()];
                System.arraycopy(chunk, i * file.pageSize(), data, 0, file.pageSize());
                action.accept(new Page(data, first + i));
            }
        }
    }
}
