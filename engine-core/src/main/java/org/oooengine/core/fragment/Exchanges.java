package org.oooengine.core.fragment;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * A node's inboxes of shuffled rows: every node running a shuffle's producing pipeline sends
 * this node the rows whose key it owns, then says it is done; the pipeline that builds from the
 * exchange ({@link JoinBuild.Exchanged}) takes them as they come until every producer is done.
 * Rows may arrive before that pipeline does. Bounded and dropped as {@link HeldRows} are; a
 * pipeline slower than its producers holds them back ({@link #acknowledge}, {@link #awaitRoom}).
 * Rows that come when the node's statements hold all the memory it gives them go to a spill file
 * of their inbox, within the node's spill space, and reach the pipeline after the others: a
 * pipeline that has not started yet (its statement waits its turn) no longer fails the statements
 * beside it, nor its own.
 */
public final class Exchanges extends HeldRows<Exchanges.Inbox> {
    private static final long WAIT_SLICE_MILLIS = 100;
    static final long MIN_SHARE_BYTES = 4L << 20;
    static final long MAX_SHARE_BYTES = 64L << 20;

    static final class Inbox extends HeldRows.Entry {
        final Set<String> done = new HashSet<>();
        /** Acknowledgements of chunks held back while the inbox holds more than its share. */
        final List<Runnable> heldBack = new ArrayList<>();
        /** Rows that came when the node had no memory left for them; null until then. */
        SpillFile overflow;
        long overflowRows;
    }

    /** What one inbox holds (heap bytes) before its producers are held back; 0: never. */
    private final long shareBytes;
    /** Where inboxes spill, and whose space that takes; null: they do not spill. */
    private final Path spillDirectory;
    private final SpillSpace spillSpace;

    public Exchanges(String node, long maxBytes) {
        super(node, maxBytes, "shuffled rows");
        this.shareBytes = 0;
        this.spillDirectory = null;
        this.spillSpace = null;
    }

    /** As above, their heap bytes held of {@code memory}, the node's, until a pipeline takes them. */
    public Exchanges(String node, long maxBytes, NodeMemory memory) {
        this(node, maxBytes, memory, null, null);
    }

    /** As above; rows that find the node's memory full spill to {@code spillDirectory}, taking {@code spillSpace}. */
    public Exchanges(String node, long maxBytes, NodeMemory memory, Path spillDirectory, SpillSpace spillSpace) {
        super(node, maxBytes, "shuffled rows", memory);
        this.shareBytes = Math.max(MIN_SHARE_BYTES, Math.min(MAX_SHARE_BYTES, memory.limit() / 16));
        this.spillDirectory = spillDirectory;
        this.spillSpace = spillSpace;
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
            synchronized (in) {
                closeOverflow(in);
            }
        }
    }

    /** Deletes {@code in}'s spill file, giving its space back (the caller holds its lock). */
    private static void closeOverflow(Inbox in) {
        if (in.overflow != null) {
            in.overflow.close();
            in.overflow = null;
            in.overflowRows = 0;
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
        Inbox in;
        try {
            in = addRows(exchange, rows, chunkBytes);
        } catch (MemoryLimitExceededException full) {
            if (spillDirectory == null) {
                throw full;
            }
            in = entry(exchange);
            spill(in, exchange, rows);
        }
        synchronized (in) {
            if (last) {
                in.done.add(producer);
            }
            in.notifyAll();
        }
    }

    /** Once every producer is done: the rows that went to disk, read back and the file deleted. */
    private static void handOverflow(Inbox in, Consumer<List<Object[]>> rows) {
        SpillFile overflow;
        synchronized (in) {
            overflow = in.overflow;
            in.overflow = null;
            in.overflowRows = 0;
        }
        if (overflow != null) {
            try (overflow) {
                overflow.readAll(rows);
            }
        }
    }

    /** Appends {@code rows} to the spill file of {@code in}, made on first use. */
    private void spill(Inbox in, String exchange, List<Object[]> rows) {
        synchronized (in) {
            if (in.overflow == null) {
                try {
                    org.oooengine.core.storage.Directories.createPrivate(spillDirectory);
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException("cannot make the spill directory " + spillDirectory, e);
                }
                in.overflow = new SpillFile(spillDirectory, spillSpace, "the shuffled rows of exchange " + exchange
                        + " held for a pipeline to come on node " + node);
            }
            in.overflow.append(rows);
            in.overflowRows += rows.size();
            in.touched = System.nanoTime();
        }
    }

    /**
     * Hands {@code rows} the rows of {@code exchange} as they arrive, taking them out of the inbox
     * (which then holds no more than what is in flight), until {@code producers} nodes have said
     * they are done; throws {@link CancellationException} as soon as {@code cancelled} (a producer
     * failed, or the query was cancelled).
     */
    public void drain(String exchange, int producers, BooleanSupplier cancelled, Consumer<List<Object[]>> rows) {
        Inbox in = entry(exchange);
        while (true) {
            List<Object[]> arrived;
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
            if (!arrived.isEmpty()) {
                rows.accept(arrived);
            }
            if (allDone) {
                handOverflow(in, rows);
                return;
            }
        }
    }
}
