package org.oooengine.core.htap;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import org.oooengine.core.txn.ShippedCommit;

/**
 * The commits the applying copy's trees lack, in commit order, between the thread that takes
 * commits from the feed (it owes them) and the thread that writes them into the trees (it takes
 * them a chunk at a time).
 */
final class OwedCommits {
    private final ArrayDeque<ShippedCommit> owed = new ArrayDeque<>();
    /** A chunk taken and not yet written. */
    private int writing;

    /** Owes {@code commits}, after those already owed. */
    synchronized void owe(List<ShippedCommit> commits) {
        owed.addAll(commits);
        notifyAll();
    }

    /** Commits owed or being written. */
    synchronized int count() {
        return owed.size() + writing;
    }

    /**
     * The next {@code max} commits owed, waiting up to {@code waitMillis} for some; empty when none
     * came. Call {@link #written} once they are in the trees.
     */
    synchronized List<ShippedCommit> take(int max, long waitMillis) throws InterruptedException {
        if (owed.isEmpty()) {
            wait(waitMillis);
        }
        List<ShippedCommit> chunk = new ArrayList<>(Math.min(max, owed.size()));
        while (chunk.size() < max && !owed.isEmpty()) {
            chunk.add(owed.poll());
        }
        writing = chunk.size();
        return chunk;
    }

    /** The chunk taken last is in the trees (or was given up after a failure). */
    synchronized void written() {
        writing = 0;
        notifyAll();
    }

    /**
     * Stops owing, unless a chunk is being written: returns what is still owed, in order (at a
     * switch, what the copy becoming the read copy lacks), or null while a chunk is in hand.
     */
    synchronized List<ShippedCommit> drainIfIdle() {
        if (writing > 0) {
            return null;
        }
        List<ShippedCommit> rest = new ArrayList<>(owed);
        owed.clear();
        return rest;
    }

    /**
     * Once the chunk being written is done, stops owing: returns what is still owed, in order
     * (when a new pair replaces the old, nothing anyone needs).
     */
    synchronized List<ShippedCommit> drain() throws InterruptedException {
        while (writing > 0) {
            wait();
        }
        List<ShippedCommit> rest = new ArrayList<>(owed);
        owed.clear();
        return rest;
    }
}
