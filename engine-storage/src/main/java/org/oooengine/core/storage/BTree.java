package org.oooengine.core.storage;

import java.util.concurrent.CompletableFuture;

/**
 * Read access to a B+tree, bulk-loaded and perhaps written since by a {@link BTreeWriter} that
 * publishes its flushes to this tree's pool. Every page access goes through the buffer pool and returns a
 * future, so a caller can have many lookups in flight; pages already in memory are used without
 * leaving the calling thread.
 */
public final class BTree {
    private final PageFile file;
    private final BufferPool pool;
    /** The meta page as of {@link PageFile#version} {@code metaVersion}; read again when a writer has published since. */
    private volatile TreeMeta meta;
    private volatile long metaVersion;

    public BTree(PageFile file, BufferPool pool) {
        this.file = file;
        this.pool = pool;
        this.metaVersion = file.version();
        this.meta = TreeMeta.readFrom(file.readPage(0), file.path());
        if (meta.pageSize() != file.pageSize()) {
            throw new PageCorruptedException(file.path(), 0, "tree was written with " + meta.pageSize()
                    + "-byte pages but is read with " + file.pageSize());
        }
    }

    /** Receives entries of a scan; returns false to stop early. */
    @FunctionalInterface
    public interface EntryVisitor {
        boolean visit(Page leaf, int slot);
    }

    /** The tree's meta page as last published. */
    public TreeMeta meta() {
        if (file.version() == metaVersion) {
            return meta;
        }
        return file.readConsistently(() -> { // no publication in progress: the version is that of the page read
            TreeMeta m = TreeMeta.readFrom(file.readPage(0), file.path());
            meta = m;
            metaVersion = file.version();
            return m;
        });
    }

    BufferPool bufferPool() {
        return pool;
    }

    public PageFile file() {
        return file;
    }

    public CompletableFuture<Page> page(long pageNo) {
        return pool.get(file, pageNo);
    }

    /** The leaf where the first key >= {@code key} is, or would be. */
    public CompletableFuture<Page> seek(byte[] key) {
        return descend(meta().root(), key);
    }

    private CompletableFuture<Page> descend(long pageNo, byte[] key) {
        long next = pageNo;
        while (true) {
            Page p = pool.getIfResident(file, next);
            if (p == null) {
                return pool.get(file, next).thenCompose(q -> q.isLeaf() ? CompletableFuture.completedFuture(q)
                        : descend(q.child(q.childFor(key)), key));
            }
            if (p.isLeaf()) {
                return CompletableFuture.completedFuture(p);
            }
            next = p.child(p.childFor(key));
        }
    }

    /**
     * Visits entries with keys in [{@code from}, {@code toExclusive}) in key order ({@code
     * toExclusive} null: to the end). Completes when the range is exhausted or the visitor stops.
     * Reads at most one page at a time: a scan is one out-of-order task.
     */
    public CompletableFuture<Void> scan(byte[] from, byte[] toExclusive, EntryVisitor visitor) {
        return seek(from).thenCompose(leaf -> walk(leaf, leaf.lowerBound(from), from, null, toExclusive, visitor));
    }

    /** Continues a scan at {@code slot} of {@code leaf}. */
    public CompletableFuture<Void> walk(Page leaf, int slot, byte[] toExclusive, EntryVisitor visitor) {
        return walk(leaf, slot, null, null, toExclusive, visitor);
    }

    /**
     * Continues a scan at {@code slot} of {@code leaf}, then on each next leaf where
     * {@link Page#resumeSlot} says for {@code from} (null: any) and the last key passed so far
     * ({@code seen}; null while only empty leaves were passed).
     */
    private CompletableFuture<Void> walk(Page leaf, int slot, byte[] from, byte[] seen, byte[] toExclusive,
                                         EntryVisitor visitor) {
        Page p = leaf;
        int i = slot;
        byte[] last = seen;
        while (true) {
            int n = p.count();
            for (; i < n; i++) {
                if (toExclusive != null && p.compareKey(i, toExclusive) >= 0) {
                    return CompletableFuture.completedFuture(null);
                }
                if (!visitor.visit(p, i)) {
                    return CompletableFuture.completedFuture(null);
                }
            }
            last = p.lastKeyPast(last);
            long next = p.next();
            if (next < 0) {
                return CompletableFuture.completedFuture(null);
            }
            Page q = pool.getIfResident(file, next);
            if (q == null) {
                CompletableFuture<Page> read = pool.get(file, next);
                if (!read.isDone() || read.isCompletedExceptionally()) {
                    byte[] seenSoFar = last;
                    return read.thenCompose(
                            r -> walk(r, r.resumeSlot(from, seenSoFar), from, seenSoFar, toExclusive, visitor));
                }
                q = read.join(); // read already: go on in this loop, not one stack frame deeper per page
            }
            p = q;
            i = p.resumeSlot(from, last);
        }
    }

    /** The value stored under exactly {@code key}, or null. */
    public CompletableFuture<byte[]> get(byte[] key) {
        long version = file.version();
        return seek(key).thenCompose(leaf -> find(leaf, key, version));
    }

    /**
     * The value under {@code key} from {@code leaf} on. When a writer published pages while the
     * leaf was being found ({@code version} odd or passed), the key may have moved right of it, so
     * a key beyond the leaf's entries is looked for along the links.
     */
    private CompletableFuture<byte[]> find(Page leaf, byte[] key, long version) {
        Page p = leaf;
        while (true) {
            int i = p.lowerBound(key);
            if (i < p.count()) {
                return CompletableFuture.completedFuture(p.compareKey(i, key) == 0 ? p.value(i) : null);
            }
            long next = p.next();
            if (next < 0 || (version & 1) == 0 && version == file.version()) {
                return CompletableFuture.completedFuture(null);
            }
            Page q = pool.getIfResident(file, next);
            if (q == null) {
                return pool.get(file, next).thenCompose(r -> find(r, key, version));
            }
            p = q;
        }
    }
}
