package org.oooengine.core.txn;

import java.nio.ByteBuffer;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * Follows the two-phase commit records during recovery: a prepare waits for its outcome (its
 * writes are applied when its commit comes, dropped when its abort does), and a decided commit is
 * applied like any commit and remembered until its participants have applied it. Starts from what
 * the last checkpoint kept of both.
 */
final class TwoPhaseReplay {
    private static final Logger LOG = LogManager.getLogger(TwoPhaseReplay.class);

    private final Map<TransactionId, WalRecord> prepared = new LinkedHashMap<>();
    private final Map<TransactionId, WalRecord> decisions = new LinkedHashMap<>();

    /** @param checkpointed the payloads a checkpoint kept (prepare and decision records, format 2) */
    TwoPhaseReplay(List<byte[]> checkpointed) {
        for (byte[] payload : checkpointed) {
            WalRecord r = WalReader.decode(ByteBuffer.wrap(payload), WalHeader.CURRENT_VERSION);
            (r.kind() == WalRecord.Kind.PREPARE ? prepared : decisions).put(r.txn(), r);
        }
    }

    /** Takes the next record in replay order; what changes rows goes to {@code apply}. */
    void accept(WalRecord r, Consumer<WalRecord> apply) {
        switch (r.kind()) {
            case COMMIT -> apply.accept(r);
            case DECIDE_COMMIT -> {
                apply.accept(r);
                if (!r.nodes().isEmpty()) {
                    decisions.put(r.txn(), r);
                }
            }
            case PREPARE -> prepared.put(r.txn(), r);
            case COMMIT_PREPARED -> {
                WalRecord p = prepared.remove(r.txn());
                if (p != null) {
                    apply.accept(p);
                } else {
                    LOG.debug("commit of {} in the WAL without its prepare: applied before the last checkpoint", r.txn());
                }
            }
            case ABORT_PREPARED -> prepared.remove(r.txn());
        }
    }

    /** Prepares whose outcome the log does not hold. */
    Collection<WalRecord> inDoubt() {
        return prepared.values();
    }

    /** Decided commits some participant may not have applied. */
    Collection<WalRecord> decisions() {
        return decisions.values();
    }
}
