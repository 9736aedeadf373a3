package org.oooengine.core.txn;

import java.util.List;

/**
 * A committed transaction's changes on this node, shipped to the analytical copies: its commit
 * timestamp, the after-image of every row it wrote here, and when it became visible ({@link
 * System#nanoTime}), from which a copy's lag is measured.
 */
public record ShippedCommit(long commitTimestamp, List<RowChange> changes, long visibleAtNanos) {
    public ShippedCommit {
        changes = List.copyOf(changes);
    }
}
