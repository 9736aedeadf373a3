package org.oooengine.core.txn;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The commits of a {@link TransactionalDatabase} from the moment the feed was opened, in the order
 * they became visible: each is queued after its writes are installed and before their locks are
 * released, so a commit always follows those it read from or overwrote — the order the WAL's
 * commit-timestamp merge gives at recovery. Applying the feed in turn to a copy of the rows leaves
 * the copy equal to the transactional tables at every point the feed has been drained to.
 *
 * <p>To start a copy: open the feed, then read the rows ({@link TransactionalDatabase#readRows}),
 * then apply the feed from its start, at least its first {@link #offered()} commits as counted
 * after the rows were read. A commit the rows show already is applied again with the same
 * after-images, and a commit the rows missed is in the feed: nothing is lost, and from then on
 * the copy holds whole transactions.
 *
 * <p>The feed holds at most {@code capacity} commits: a reader that falls further behind finds it
 * {@link #overflowed()} and must start its copy again. Under the NLR protocols a commit is shipped
 * once durable; under ELR once visible, which precedes durability there.
 */
public final class CommitFeed implements AutoCloseable {
    private final TransactionalDatabase db;
    private final LinkedBlockingQueue<ShippedCommit> queue;
    private final int capacity;
    private final java.util.concurrent.atomic.AtomicLong offered = new java.util.concurrent.atomic.AtomicLong();
    private volatile boolean overflowed;
    private volatile boolean closed;

    CommitFeed(TransactionalDatabase db, int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("a commit feed needs room for at least one commit, not " + capacity);
        }
        this.db = db;
        this.capacity = capacity;
        this.queue = new LinkedBlockingQueue<>(capacity);
    }

    /** Called by the committing thread, its writes installed and still locked. */
    void offer(ShippedCommit c) {
        offered.incrementAndGet();
        if (!overflowed && !queue.offer(c)) {
            overflowed = true;
            queue.clear(); // its reader starts again from the rows; what it missed must not be kept meanwhile
        }
    }

    /**
     * Up to {@code max} commits in order, waiting up to {@code timeout} for the first; empty when
     * none came.
     *
     * @throws FeedOverflowException when the reader fell more than the capacity behind
     */
    public List<ShippedCommit> poll(int max, long timeout, TimeUnit unit) throws InterruptedException {
        checkUsable();
        List<ShippedCommit> out = new ArrayList<>(Math.min(max, 256));
        ShippedCommit first = queue.poll(timeout, unit);
        if (first != null) {
            out.add(first);
            queue.drainTo(out, max - 1);
        }
        checkUsable(); // a commit lost while this one waited must not pass unnoticed
        return out;
    }

    /**
     * Commits shipped into this feed so far, taken or not. A commit is counted before any other
     * transaction can see its writes.
     */
    public long offered() {
        return offered.get();
    }

    /** Runs {@code action} on each commit waiting to be taken, oldest first, as the queue holds them now. */
    public void forEachWaiting(java.util.function.Consumer<ShippedCommit> action) {
        queue.forEach(action);
    }

    /** Commits shipped and not yet taken. */
    public int backlog() {
        return queue.size();
    }

    /** The visibility time ({@link System#nanoTime}) of the oldest commit not yet taken, or -1 when none waits. */
    public long oldestWaitingNanos() {
        ShippedCommit c = queue.peek();
        return c == null ? -1 : c.visibleAtNanos();
    }

    public int capacity() {
        return capacity;
    }

    /** Whether commits were dropped because the reader fell too far behind. */
    public boolean overflowed() {
        return overflowed;
    }

    private void checkUsable() {
        if (closed) {
            throw new IllegalStateException("the commit feed is closed");
        }
        if (overflowed) {
            throw new FeedOverflowException("the commit feed overflowed: its reader fell more than " + capacity
                    + " commits behind and missed some; start its copy again from the rows");
        }
    }

    /** Stops shipping to this feed. */
    @Override
    public void close() {
        closed = true;
        db.closeFeed(this);
        queue.clear();
    }

    /** A feed's reader fell more than its capacity behind: commits were dropped. */
    public static final class FeedOverflowException extends IllegalStateException {
        FeedOverflowException(String message) {
            super(message);
        }
    }
}
