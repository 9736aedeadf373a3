package org.oooengine.core.fragment;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A node's broadcast rows sent ahead of the pipelines that build from them ({@link JoinBuild.Staged}),
 * too many for the pipeline's own frame. Bounded in bytes, so that senders cannot fill a node's
 * heap; a pipeline removes its rows when it ends, and rows no pipeline claimed (the coordinator
 * failed in between) expire.
 */
public final class StagedRows {
    /** Rows not built from for this long are dropped. */
    static final long EXPIRY_NANOS = TimeUnit.MINUTES.toNanos(10);

    private final String node;
    private final long maxBytes;
    private final AtomicLong bytes = new AtomicLong();
    private final Map<String, Entry> entries = new ConcurrentHashMap<>();

    private static final class Entry {
        final List<Object[]> rows = new ArrayList<>();
        long bytes;
        volatile long touched = System.nanoTime();
    }

    /** @param maxBytes the most bytes (as sent) held for all pipelines together */
    public StagedRows(String node, long maxBytes) {
        this.node = node;
        this.maxBytes = maxBytes;
    }

    /** Adds a chunk of rows, {@code chunkBytes} long as sent, to those staged under {@code id}. */
    public void add(String id, List<Object[]> rows, long chunkBytes) {
        expire();
        if (bytes.addAndGet(chunkBytes) > maxBytes) {
            bytes.addAndGet(-chunkBytes);
            throw new IllegalStateException("node " + node + " already holds " + (bytes.get() >> 20)
                    + " MiB of broadcast rows, its limit is " + (maxBytes >> 20) + " MiB; a join's broadcast side is too large");
        }
        Entry e = entries.computeIfAbsent(id, k -> new Entry());
        synchronized (e) {
            e.rows.addAll(rows);
            e.bytes += chunkBytes;
            e.touched = System.nanoTime();
        }
    }

    /** The rows staged under {@code id}. */
    public List<Object[]> rows(String id) {
        Entry e = entries.get(id);
        if (e == null) {
            throw new IllegalStateException("node " + node + " has no broadcast rows " + id + " (expired or never sent)");
        }
        e.touched = System.nanoTime();
        synchronized (e) {
            return List.copyOf(e.rows);
        }
    }

    public void remove(String id) {
        Entry e = entries.remove(id);
        if (e != null) {
            bytes.addAndGet(-e.bytes);
        }
    }

    public long bytes() {
        return bytes.get();
    }

    private void expire() {
        long now = System.nanoTime();
        entries.forEach((id, e) -> {
            if (now - e.touched > EXPIRY_NANOS) {
                remove(id);
            }
        });
    }
}
