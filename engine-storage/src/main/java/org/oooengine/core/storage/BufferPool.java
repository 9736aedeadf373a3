package org.oooengine.core.storage;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.LongAdder;

/**
 * Caches verified pages up to a capacity in bytes. A hit is one lock-free hash lookup plus setting a
 * reference bit; eviction runs the CLOCK algorithm over a ring of frames under a lock that only
 * misses take (an access-ordered LRU list would make every hit a write under a lock, which costs
 * more than the lookup itself at tens of thousands of probes per second). A miss becomes an asynchronous read on the
 * I/O executor; concurrent requests for a page that is being read share that one read. Completed
 * reads are handed to the completion executor, so the work that depends on a page runs on the
 * compute threads, not on the I/O threads.
 */
public final class BufferPool {
    private final int capacityPages;
    private final Executor io;
    private final Executor completion;
    private final ConcurrentHashMap<Long, Frame> resident;
    private final Frame[] ring;
    private int used;
    private int hand;
    private final ConcurrentHashMap<Long, CompletableFuture<Page>> loading = new ConcurrentHashMap<>();
    private final LongAdder hits = new LongAdder();
    private final LongAdder misses = new LongAdder();
    private final LongAdder shared = new LongAdder();

    public BufferPool(long capacityBytes, int pageSize, Executor io, Executor completion) {
        this.capacityPages = (int) Math.max(16, Math.min(Integer.MAX_VALUE, capacityBytes / pageSize));
        this.io = io;
        this.completion = completion;
        this.resident = new ConcurrentHashMap<>(Math.min(capacityPages, 1 << 16));
        this.ring = new Frame[capacityPages];
    }

    /** A resident page and its CLOCK reference bit. */
    private static final class Frame {
        final long key;
        final Page page;
        volatile boolean referenced;

        Frame(long key, Page page) {
            this.key = key;
            this.page = page;
        }
    }

    private static long key(PageFile file, long pageNo) {
        return ((long) file.id() << 40) | pageNo;
    }

    /**
     * The page if it is resident, else null; never starts a read. While a writer publishes pages of
     * the file (they are being replaced one by one), none is: the caller reads it, which waits for
     * the publication, so that it never meets an old page beside a new one.
     */
    public Page getIfResident(PageFile file, long pageNo) {
        if (file.publishing()) {
            return null;
        }
        Frame f = resident.get(key(file, pageNo));
        if (f == null) {
            return null;
        }
        if (!f.referenced) {
            f.referenced = true;
        }
        hits.increment();
        return f.page;
    }

    /** The page, from memory or by one asynchronous read shared by all who ask meanwhile. */
    public CompletableFuture<Page> get(PageFile file, long pageNo) {
        Page p = getIfResident(file, pageNo);
        if (p != null) {
            return CompletableFuture.completedFuture(p);
        }
        long k = key(file, pageNo);
        CompletableFuture<Page> mine = new CompletableFuture<>();
        CompletableFuture<Page> pending = loading.putIfAbsent(k, mine);
        if (pending != null) {
            shared.increment();
            return pending;
        }
        // A read may have finished between the residency check and our claim.
        p = getIfResident(file, pageNo);
        if (p != null) {
            loading.remove(k, mine);
            mine.complete(p);
            return mine;
        }
        misses.increment();
        io.execute(() -> load(file, pageNo, k, mine));
        return mine;
    }

    private void load(PageFile file, long pageNo, long k, CompletableFuture<Page> target) {
        try {
            // cached before a writer can publish a newer version, which then replaces it
            Page page = file.readConsistently(() -> {
                Page p = new Page(file.readPage(pageNo), pageNo);
                admit(k, p);
                loading.remove(k, target); // nobody joins this read once a publication may have replaced its page
                return p;
            });
            completion.execute(() -> target.complete(page));
        } catch (Throwable t) {
            loading.remove(k, target);
            completion.execute(() -> target.completeExceptionally(t));
        }
    }

    /** The executor that issues this pool's reads; scans use it for read-ahead. */
    Executor ioExecutor() {
        return io;
    }

    /** Places a page in a free frame, or in the first unreferenced one the clock hand finds. */
    private synchronized void admit(long k, Page page) {
        Frame frame = new Frame(k, page);
        int slot;
        if (used < ring.length) {
            slot = used++;
        } else {
            while (ring[hand].referenced) {
                ring[hand].referenced = false;
                hand = (hand + 1) % ring.length;
            }
            slot = hand;
            resident.remove(ring[slot].key, ring[slot]);
            hand = (hand + 1) % ring.length;
        }
        ring[slot] = frame;
        resident.put(k, frame);
    }

    /**
     * A writer wrote a new version of a page in place: a resident copy of it becomes the new one,
     * so no reader of this pool sees the old version again.
     */
    synchronized void replace(PageFile file, long pageNo, Page page) {
        long k = key(file, pageNo);
        Frame old = resident.get(k);
        if (old == null) {
            return;
        }
        Frame frame = new Frame(k, page);
        for (int slot = 0; slot < used; slot++) {
            if (ring[slot] == old) {
                ring[slot] = frame;
                break;
            }
        }
        resident.put(k, frame);
    }

    /** Drops the cached pages of {@code file} (a writer rewrote some without saying which). */
    public synchronized void forget(PageFile file) {
        for (int slot = 0; slot < used; slot++) {
            Frame f = ring[slot];
            if (f != null && (f.key >>> 40) == file.id()) {
                resident.remove(f.key, f);
            }
        }
    }

    /** Drops every cached page (for cold runs). */
    public synchronized void clear() {
        resident.clear();
        java.util.Arrays.fill(ring, null);
        used = 0;
        hand = 0;
    }

    public int capacityPages() {
        return capacityPages;
    }

    public long hits() {
        return hits.sum();
    }

    public long misses() {
        return misses.sum();
    }

    /** Requests that joined a read already in progress instead of issuing their own. */
    public long sharedReads() {
        return shared.sum();
    }
}
