package org.oooengine.core.fragment;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

/**
 * A node's inboxes of shuffled rows: every node running a shuffle's producing pipeline sends
 * this node the rows whose key it owns, then says it is done; the pipeline that builds from the
 * exchange ({@link JoinBuild.Exchanged}) waits until every producer is done. Rows may arrive
 * before that pipeline does. Bounded in bytes over all exchanges, so that senders cannot fill
 * the heap; the building pipeline removes its exchange when it ends, and an exchange nobody
 * claimed (its query failed in between) expires.
 */
public final class Exchanges {
    static final long EXPIRY_NANOS = TimeUnit.MINUTES.toNanos(10);
    private static final long WAIT_SLICE_MILLIS = 100;

    private final String node;
    private final long maxBytes;
    private final AtomicLong bytes = new AtomicLong();
    private final Map<String, Inbox> inboxes = new ConcurrentHashMap<>();

    private static final class Inbox {
        final List<Object[]> rows = new ArrayList<>();
        final Set<String> done = new HashSet<>();
        long bytes;
        volatile long touched = System.nanoTime();
    }

    public Exchanges(String node, long maxBytes) {
        this.node = node;
        this.maxBytes = maxBytes;
    }

    /** Rows from {@code producer}, {@code chunkBytes} long as sent; {@code last} when it has sent all. */
    public void add(String exchange, String producer, List<Object[]> rows, long chunkBytes, boolean last) {
        expire();
        if (bytes.addAndGet(chunkBytes) > maxBytes) {
            bytes.addAndGet(-chunkBytes);
            throw new IllegalStateException("node " + node + " already holds " + (bytes.get() >> 20)
                    + " MiB of shuffled rows, its limit is " + (maxBytes >> 20) + " MiB; a shuffled join side is too large");
        }
        Inbox in = inboxes.computeIfAbsent(exchange, k -> new Inbox());
        synchronized (in) {
            in.rows.addAll(rows);
            in.bytes += chunkBytes;
            in.touched = System.nanoTime();
            if (last) {
                in.done.add(producer);
                in.notifyAll();
            }
        }
    }

    /**
     * Every row of {@code exchange} once {@code producers} nodes have said they are done; throws
     * {@link CancellationException} as soon as {@code cancelled} (a producer failed, or the query was cancelled).
     */
    public List<Object[]> await(String exchange, int producers, BooleanSupplier cancelled) {
        Inbox in = inboxes.computeIfAbsent(exchange, k -> new Inbox());
        synchronized (in) {
            while (in.done.size() < producers) {
                if (cancelled.getAsBoolean()) {
                    throw new CancellationException("the requester cancelled the query or went away");
                }
                in.touched = System.nanoTime();
                try {
                    in.wait(WAIT_SLICE_MILLIS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new CancellationException("interrupted while waiting for shuffled rows");
                }
            }
            return List.copyOf(in.rows);
        }
    }

    public void remove(String exchange) {
        Inbox in = inboxes.remove(exchange);
        if (in != null) {
            bytes.addAndGet(-in.bytes);
        }
    }

    public long bytes() {
        return bytes.get();
    }

    private void expire() {
        long now = System.nanoTime();
        inboxes.forEach((id, in) -> {
            if (now - in.touched > EXPIRY_NANOS) {
                remove(id);
            }
        });
    }
}
