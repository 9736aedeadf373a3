package org.oooengine.core.fragment;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.oooengine.core.wire.ColumnarRows;

/**
 * A node's inboxes of shuffled rows: every node running a shuffle's producing pipeline sends
 * this node the rows whose key it owns, then says it is done; the pipeline that builds from the
 * exchange ({@link JoinBuild.Exchanged}) takes them as they come until every producer is done.
 * Rows may arrive before that pipeline does. Bounded and dropped as {@link HeldRows} are; a
 * pipeline slower than its producers holds them back ({@link #acknowledge}, {@link #awaitRoom}).
 */
public final class Exchanges extends HeldRows<Exchanges.Inbox, ColumnarRows.Chunk> {
    private static final long WAIT_SLICE_MILLIS = 100;
    static final long MIN_SHARE_BYTES = 4L << 20;
    static final long MAX_SHARE_BYTES = 64L << 20;

    static final class Inbox extends HeldRows.Entry<ColumnarRows.Chunk> {
        final Set<String> done = new HashSet<>();
        /** Acknowledgements of chunks held back while the inbox holds more than its share. */
        final List<Runnable> heldBack = new ArrayList<>();
    }

    /** What one inbox holds (heap bytes) before its producers are held back; 0: never. */
    private final long shareBytes;

    public Exchanges(String node, long maxBytes) {
        super(node, maxBytes, "shuffled rows");
        this.shareBytes = 0;
    }

    /** As above, their heap bytes held of {@code memory}, the node's, until a pipeline takes them. */
    public Exchanges(String node, long maxBytes, NodeMemory memory) {
        super(node, maxBytes, "shuffled rows", memory);
        this.shareBytes = Math.max(MIN_SHARE_BYTES, Math.min(MAX_SHARE_BYTES, memory.limit() / 16));
    }

    /**
     * Runs {@code ack}, the acknowledgement of a chunk to the producer that sent it (who sends
     * this node no more of the exchange before it), once the inbox of {@code exchange} holds no
     * more than its share: at once, or when its pipeline takes rows from it, or at the latest
     * after {@code maxDelayMillis} on {@code timer} (the producer must hear before its request
     * times out). A pipeline slower than its producers so holds them back instead of its inbox
     * growing.
     */
    public void acknowledge(String exchange, Runnable ack, long maxDelayMillis,
                            java.util.concurrent.ScheduledExecutorService timer) {
        Runnable once = once(ack);
        Inbox in = existing(exchange);
        boolean now = true;
        if (in != null && shareBytes > 0) {
            synchronized (in) {
                if (in.heapBytes > shareBytes) {
                    in.heldBack.add(once);
                    now = false;
                }
            }
        }
        if (now) {
            once.run();
        } else {
            timer.schedule(once, maxDelayMillis, java.util.concurrent.TimeUnit.MILLISECONDS);
        }
    }

    /**
     * For a producer on this node, whose rows reach the inbox without an acknowledgement: waits
     * while the inbox of {@code exchange} holds more than its share, {@code maxDelayMillis} at most.
     */
    public void awaitRoom(String exchange, long maxDelayMillis, BooleanSupplier cancelled) {
        Inbox in = existing(exchange);
        if (in == null || shareBytes == 0) {
            return;
        }
        long deadline = System.nanoTime() + maxDelayMillis * 1_000_000;
        synchronized (in) {
            while (in.heapBytes > shareBytes && deadline - System.nanoTime() > 0) {
                if (cancelled.getAsBoolean()) {
                    throw new CancellationException("the requester cancelled the query or went away");
                }
                try {
                    in.wait(WAIT_SLICE_MILLIS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new CancellationException("interrupted while waiting for room in an exchange");
                }
            }
        }
    }

    @Override
    public void remove(String id) {
        Inbox in = existing(id);
        super.remove(id);
        if (in != null) {
            release(in);
        }
    }

    /** Sends the acknowledgements held back by {@code in} and wakes the producers waiting for room. */
    private static void release(Inbox in) {
        List<Runnable> acks;
        synchronized (in) {
            acks = new ArrayList<>(in.heldBack);
            in.heldBack.clear();
            in.notifyAll();
        }
        acks.forEach(Runnable::run);
    }

    private static Runnable once(Runnable r) {
        java.util.concurrent.atomic.AtomicBoolean ran = new java.util.concurrent.atomic.AtomicBoolean();
        return () -> {
            if (ran.compareAndSet(false, true)) {
                r.run();
            }
        };
    }

    @Override
    Inbox newEntry() {
        return new Inbox();
    }

    /** Rows from {@code producer}, {@code chunkBytes} long as sent; {@code last} when it has sent all. */
    public void add(String exchange, String producer, List<Object[]> rows, long chunkBytes, boolean last) {
        add(exchange, producer, ColumnarRows.Chunk.ofRows(rows), chunkBytes, last);
    }

    /** A chunk of rows from {@code producer}, {@code chunkBytes} long as sent; {@code last} when it has sent all. */
    public void add(String exchange, String producer, ColumnarRows.Chunk chunk, long chunkBytes, boolean last) {
        Inbox in = addRows(exchange, chunk.size() == 0 ? List.of() : List.of(chunk), QueryMemory.chunkBytes(chunk),
                chunkBytes);
        synchronized (in) {
            if (last) {
                in.done.add(producer);
            }
            in.notifyAll();
        }
    }

    /** As {@link #drainChunks}, each chunk as rows of SQL values. */
    public void drain(String exchange, int producers, BooleanSupplier cancelled, Consumer<List<Object[]>> rows) {
        drainChunks(exchange, producers, cancelled, chunk -> rows.accept(chunk.rows()));
    }

    /**
     * Hands {@code chunks} the rows of {@code exchange} as they arrive, taking them out of the inbox
     * (which then holds no more than what is in flight), until {@code producers} nodes have said
     * they are done; throws {@link CancellationException} as soon as {@code cancelled} (a producer
     * failed, or the query was cancelled).
     */
    public void drainChunks(String exchange, int producers, BooleanSupplier cancelled,
                            Consumer<ColumnarRows.Chunk> chunks) {
        Inbox in = entry(exchange);
        while (true) {
            List<ColumnarRows.Chunk> arrived;
            boolean allDone;
            synchronized (in) {
                while (true) {
                    // checked also while rows keep coming: a flood must not keep a cancelled query alive
                    if (cancelled.getAsBoolean()) {
                        throw new CancellationException("the requester cancelled the query or went away");
                    }
                    if (!in.rows.isEmpty() || in.done.size() >= producers) {
                        break;
                    }
                    in.touched = System.nanoTime();
                    try {
                        in.wait(WAIT_SLICE_MILLIS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new CancellationException("interrupted while waiting for shuffled rows");
                    }
                }
                allDone = in.done.size() >= producers;
                arrived = take(in);
            }
            release(in);
            arrived.forEach(chunks);
            if (allDone) {
                return;
            }
        }
    }
}
