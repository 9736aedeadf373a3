package org.oooengine.core.fragment;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Rows other members sent a node for pipelines to come, by id: bounded in bytes (as sent) over all
 * ids, so that senders cannot fill the heap, and dropped when the pipeline that used them ends or,
 * if none claims them (its query failed in between), after {@link #EXPIRY_NANOS} untouched.
 */
abstract class HeldRows<E extends HeldRows.Entry<T>, T> {
    static final long EXPIRY_NANOS = TimeUnit.MINUTES.toNanos(10);

    /** One id's rows, as they were added: rows, or chunks of them. */
    static class Entry<T> {
        final List<T> rows = new ArrayList<>();
        long bytes;
        /** About the heap bytes the rows take, held of the node's memory ({@link NodeMemory#tryHold}). */
        long heapBytes;
        volatile long touched = System.nanoTime();
    }

    final String node;
    private final long maxBytes;
    private final String what;
    private final AtomicLong bytes = new AtomicLong();
    private final Map<String, E> entries = new ConcurrentHashMap<>();
    /** What the node's statements may hold together, the rows held here included; null: no such bound. */
    private final NodeMemory memory;

    /** @param what the rows, for the message when they are too many: "broadcast rows" */
    HeldRows(String node, long maxBytes, String what) {
        this(node, maxBytes, what, null);
    }

    /** As above, the rows' heap bytes also held of {@code memory}, the node's. */
    HeldRows(String node, long maxBytes, String what, NodeMemory memory) {
        this.node = node;
        this.maxBytes = maxBytes;
        this.what = what;
        this.memory = memory;
    }

    abstract E newEntry();

    /**
     * Adds rows (or chunks of them) that take about {@code heap} bytes of heap and were
     * {@code chunkBytes} long as sent to those held under {@code id}; returns its entry.
     */
    E addRows(String id, List<T> rows, long heap, long chunkBytes) {
        expire();
        if (bytes.addAndGet(chunkBytes) > maxBytes) {
            bytes.addAndGet(-chunkBytes);
            throw new MemoryLimitExceededException("node " + node + " already holds " + (bytes.get() >> 20) + " MiB of " + what
                    + ", its limit is " + (maxBytes >> 20) + " MiB; a join's side sent there is too large");
        }
        if (memory != null && !memory.tryHold(heap)) {
            bytes.addAndGet(-chunkBytes);
            throw new MemoryLimitExceededException(memory.full(what + " held for a pipeline to come", heap));
        }
        E e = entry(id);
        synchronized (e) {
            e.rows.addAll(rows);
            e.bytes += chunkBytes;
            e.heapBytes += heap;
            e.touched = System.nanoTime();
        }
        return e;
    }

    /** Takes the rows {@code e} holds out of it (the caller holds its lock), no longer counted as held. */
    List<T> take(E e) {
        List<T> rows = new ArrayList<>(e.rows);
        e.rows.clear();
        bytes.addAndGet(-e.bytes);
        e.bytes = 0;
        unhold(e);
        return rows;
    }

    /**
     * The node's memory no longer counts {@code e}'s rows (the caller holds its lock): they were
     * taken, or the pipeline that reads them reserves them of its own memory now.
     */
    void unhold(E e) {
        if (memory != null) {
            memory.releaseHeld(e.heapBytes);
        }
        e.heapBytes = 0;
    }

    /** The entry of {@code id}, made empty on first use: rows may arrive before or after the pipeline asks. */
    E entry(String id) {
        return entries.computeIfAbsent(id, k -> newEntry());
    }

    final E existing(String id) {
        return entries.get(id);
    }

    public void remove(String id) {
        E e = entries.remove(id);
        if (e != null) {
            synchronized (e) {
                bytes.addAndGet(-e.bytes);
                e.bytes = 0;
                unhold(e);
            }
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
