package org.oooengine.core.fragment;

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
 * Rows may arrive before that pipeline does. Bounded and dropped as {@link HeldRows} are.
 */
public final class Exchanges extends HeldRows<Exchanges.Inbox> {
    private static final long WAIT_SLICE_MILLIS = 100;

    static final class Inbox extends HeldRows.Entry {
        final Set<String> done = new HashSet<>();
    }

    public Exchanges(String node, long maxBytes) {
        super(node, maxBytes, "shuffled rows");
    }

    @Override
    Inbox newEntry() {
        return new Inbox();
    }

    /** Rows from {@code producer}, {@code chunkBytes} long as sent; {@code last} when it has sent all. */
    public void add(String exchange, String producer, List<Object[]> rows, long chunkBytes, boolean last) {
        Inbox in = addRows(exchange, rows, chunkBytes);
        synchronized (in) {
            if (last) {
                in.done.add(producer);
            }
            in.notifyAll();
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
            if (!arrived.isEmpty()) {
                rows.accept(arrived);
            }
            if (allDone) {
                return;
            }
        }
    }
}
