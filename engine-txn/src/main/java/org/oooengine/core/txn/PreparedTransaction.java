package org.oooengine.core.txn;

import java.util.List;

/**
 * A transaction this node voted to commit in a two-phase commit, waiting for the outcome: its
 * writes stay locked (no one reads or overwrites them) until {@link Worker#commitPrepared} or
 * {@link Worker#abortPrepared}. Its prepare record is durable, so it survives a crash: recovery
 * locks its rows again, and it is still here, in doubt, until someone asks {@link #decider()}.
 */
public final class PreparedTransaction {
    private final TransactionId id;
    private final long commitTimestamp;
    private final String decider;
    private final List<Transaction.Write> writes;
    private final long preparedAtNanos = System.nanoTime();

    PreparedTransaction(TransactionId id, long commitTimestamp, String decider, List<Transaction.Write> writes) {
        this.id = id;
        this.commitTimestamp = commitTimestamp;
        this.decider = decider;
        this.writes = writes;
    }

    public TransactionId id() {
        return id;
    }

    public long commitTimestamp() {
        return commitTimestamp;
    }

    /** The participant whose log decides the outcome: the one to ask when in doubt. */
    public String decider() {
        return decider;
    }

    /** How long it has waited for its outcome (since it was prepared, or since recovery found it). */
    public long waitingNanos() {
        return System.nanoTime() - preparedAtNanos;
    }

    List<Transaction.Write> writes() {
        return writes;
    }

    /** Installs the writes at the commit timestamp, ships them to {@code db}'s feeds and releases their locks. */
    void install(TransactionalDatabase db) {
        for (Transaction.Write w : writes) {
            w.installLocked(commitTimestamp);
        }
        db.ship(commitTimestamp, id, writes);
        unlock();
    }

    void unlock() {
        for (Transaction.Write w : writes) {
            w.tuple().unlock();
        }
    }

    /** The record a checkpoint keeps of it: the WAL's prepare record. */
    byte[] checkpointRecord() {
        return WalFile.payload(WalRecord.Kind.PREPARE, commitTimestamp, id, List.of(decider), writes);
    }
}
