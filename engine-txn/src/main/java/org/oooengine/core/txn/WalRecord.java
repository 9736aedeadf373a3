package org.oooengine.core.txn;

import java.util.List;

/**
 * One record of the WAL. A {@link Kind#COMMIT} is a committed transaction of this node alone: its
 * commit timestamp (or LSN) and its writes. The other kinds are the steps of a two-phase commit
 * across nodes, named by their {@link TransactionId}: a participant's vote ({@link Kind#PREPARE}:
 * its writes at the commit timestamp, and in {@code nodes} the node that decides), the outcome it
 * learned ({@link Kind#COMMIT_PREPARED}, {@link Kind#ABORT_PREPARED}), and the decision itself,
 * logged by the deciding participant with its own writes ({@link Kind#DECIDE_COMMIT}: in {@code
 * nodes} the other participants that must learn it).
 */
record WalRecord(Kind kind, long order, TransactionId txn, List<String> nodes, List<RowChange> changes) {
    enum Kind { COMMIT, PREPARE, COMMIT_PREPARED, ABORT_PREPARED, DECIDE_COMMIT }

    static WalRecord commit(long order, List<RowChange> changes) {
        return new WalRecord(Kind.COMMIT, order, null, List.of(), changes);
    }

    /** Whether replaying this record changes rows (the writes of a prepare wait for its outcome). */
    boolean appliesChanges() {
        return kind == Kind.COMMIT || kind == Kind.DECIDE_COMMIT;
    }
}
