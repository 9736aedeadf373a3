package org.oooengine.core.storage;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.LongAdder;

/**
 * Caches verified pages up to a capacity in bytes (LRU). A miss becomes an asynchronous read on the
 * I/O executor; concurrent requests for a page that is being read share that one read. Completed
 * reads are handed to the completion executor, so the work that depends on a page runs on the
 * compute threads, not on the I/O threads.
 */
public final class BufferPool {
    private final int capacityPages;
    private final Executor io;
    private final Executor completion;
    private final LinkedHashMap<Long, Page> resident;
    private final ConcurrentHashMap<Long, CompletableFuture<Page>> loading = new ConcurrentHashMap<>();
    private final LongAdder hits = new LongAdder();
    private final LongAdder misses = new LongAdder();
    private final LongAdder shared = new LongAdder();

    public BufferPool(long capacityBytes, int pageSize, Executor io, Executor completion) {
        this.capacityPages = (int) Math.max(16, Math.min(Integer.MAX_VALUE, capacityBytes / pageSize));
        this.io = io;
        this.completion = completion;
        this.resident = new LinkedHashMap<>(Math.min(capacityPages, 1 << 16), 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Long, Page> eldest) {
                return size() > capacityPages;
            }
        };
    }

    private static long key(PageFile file, long pageNo) {
        return ((long) file.id() << 40) | pageNo;
    }

    /** The page if it is resident, else null; never starts a read. */
    public Page getIfResident(PageFile file, long pageNo) {
        long k = key(file, pageNo);
        synchronized (resident) {
            Page p = resident.get(k);
            if (p != null) {
                hits.increment();
            }
            return p;
        }
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
            Page page = new Page(file.readPage(pageNo), pageNo);
            synchronized (resident) {
                resident.put(k, page);
            }
            loading.remove(k, target);
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

    /** Drops every cached page (for cold runs). */
    public void clear() {
        synchronized (resident) {
            resident.clear();
        }
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
