package org.oooengine.core.txn;

import java.util.List;

/**
 * A committed transaction's changes on this node, shipped to the analytical copies: its commit
 * timestamp, its id when it committed on several nodes by two-phase commit (null for one that ran
 * here alone), the after-image of every row it wrote here, and when it became visible ({@link
 * System#nanoTime}), from which a copy's lag is measured.
 */
public record ShippedCommit(long commitTimestamp, TransactionId distributed, List<RowChange> changes,
                            long visibleAtNanos) {
    public ShippedCommit {
        changes = List.copyOf(changes);
    }

    /** A commit of a transaction that ran here alone. */
    public ShippedCommit(long commitTimestamp, List<RowChange> changes, long visibleAtNanos) {
        this(commitTimestamp, null, changes, visibleAtNanos);
    }
}
