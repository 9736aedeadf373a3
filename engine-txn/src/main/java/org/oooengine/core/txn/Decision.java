package org.oooengine.core.txn;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A two-phase commit this node decided (its {@code DECIDE_COMMIT} record is durable), kept until
 * every other participant has applied it: one still in doubt asks here and must hear "committed".
 * Not knowing a transaction means it did not commit (presumed abort).
 */
public final class Decision {
    private final TransactionId id;
    private final long commitTimestamp;
    private final Set<String> waiting = ConcurrentHashMap.newKeySet();
    private final long decidedAtNanos = System.nanoTime();

    Decision(TransactionId id, long commitTimestamp, List<String> participants) {
        this.id = id;
        this.commitTimestamp = commitTimestamp;
        this.waiting.addAll(participants);
    }

    public TransactionId id() {
        return id;
    }

    public long commitTimestamp() {
        return commitTimestamp;
    }

    /** The participants not known to have applied the commit yet. */
    public Set<String> waiting() {
        return Set.copyOf(waiting);
    }

    /** How long ago it was decided (or found by recovery). */
    public long ageNanos() {
        return System.nanoTime() - decidedAtNanos;
    }

    /** Notes that {@code participant} applied the commit; returns whether none is left waiting. */
    boolean applied(String participant) {
        waiting.remove(participant);
        return waiting.isEmpty();
    }

    /** The record a checkpoint keeps of it (the rows are in the checkpoint). */
    byte[] checkpointRecord() {
        return WalFile.payload(WalRecord.Kind.DECIDE_COMMIT, commitTimestamp, id, List.copyOf(waiting), List.of());
    }
}
