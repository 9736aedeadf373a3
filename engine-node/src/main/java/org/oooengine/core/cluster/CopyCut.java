package org.oooengine.core.cluster;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.oooengine.core.net.OpCode;
import org.oooengine.core.txn.TransactionId;
import org.oooengine.core.wire.PayloadReader;
import org.oooengine.core.wire.PayloadWriter;

/**
 * Cuts a statement's snapshot of the analytical copies across the nodes so that it shows every
 * two-phase transaction on all its nodes or on none: each node pins its copies, then, round by
 * round, the transactions some pin shows and another node has yet to show (prepared there, on
 * their way, or shown after its pin) are waited for there and that node's pin moved past them,
 * until no pin shows a transaction another lacks. A quiet cluster needs one round; a busy one
 * seldom more than two.
 */
public final class CopyCut {
    /** The steps a node takes for a cut ({@link TxnOp#COPY_CUT}). */
    enum Step {
        /** Pin the copies under the snapshot number. Answer: none. */
        OPEN,
        /** Answer the two-phase transactions that may commit here and that the pin does not show. */
        UNSHOWN,
        /** Answer those of the given transactions the pin shows. */
        SHOWS,
        /** Wait for the given transactions that commit here to show and move the pin past them. Answer: none. */
        EXTEND
    }

    /** Rounds after which a cut gives up: commits on every node that long means something is wrong. */
    static final int MAX_ROUNDS = 16;

    private CopyCut() {
    }

    /**
     * Pins the copies on every node under {@code snapshot} as one cut; a statement's scans then
     * read those pins ({@link TransactionalReads#copySnapshot}) until it releases them ({@link
     * TransactionalTables#releaseCopySnapshot}).
     *
     * @throws IllegalStateException when no cut was found in {@link #MAX_ROUNDS} rounds, or a node
     *     could not take its step (named)
     */
    public static void take(Peers peers, long snapshot) {
        onEveryNode(peers, snapshot, Step.OPEN, Set.of());
        for (int round = 0; round < MAX_ROUNDS; round++) {
            Set<TransactionId> unshown = onEveryNode(peers, snapshot, Step.UNSHOWN, Set.of());
            if (unshown.isEmpty()) {
                return;
            }
            Set<TransactionId> shownSomewhere = onEveryNode(peers, snapshot, Step.SHOWS, unshown);
            if (shownSomewhere.isEmpty()) {
                return;
            }
            onEveryNode(peers, snapshot, Step.EXTEND, shownSomewhere);
        }
        throw new IllegalStateException("could not cut a snapshot of the analytical copies that shows each two-phase "
                + "transaction on all its nodes or none in " + MAX_ROUNDS + " rounds; run the statement again");
    }

    /** Every node's answer to {@code step}, together. */
    private static Set<TransactionId> onEveryNode(Peers peers, long snapshot, Step step, Collection<TransactionId> ids) {
        PayloadWriter w = new PayloadWriter(16 + 16 * ids.size()).put(TxnOp.COPY_CUT.code()).putLong(snapshot)
                .put((byte) step.ordinal());
        writeIds(w, ids);
        byte[] payload = w.toByteArray();
        List<CompletableFuture<Set<TransactionId>>> answers = new ArrayList<>();
        for (ClusterSpec.NodeSpec n : peers.spec().nodes()) {
            answers.add(peers.client(n.id()).call(OpCode.TXN, payload).thenApply(r -> readIds(r.reader())));
        }
        Set<TransactionId> all = new HashSet<>();
        answers.forEach(a -> all.addAll(a.join()));
        return all;
    }

    static void writeIds(PayloadWriter w, Collection<TransactionId> ids) {
        w.putVarInt(ids.size());
        for (TransactionId id : ids) {
            w.putLong(id.high()).putLong(id.low());
        }
    }

    static Set<TransactionId> readIds(PayloadReader r) {
        int n = r.getCount(16);
        Set<TransactionId> ids = new HashSet<>(n);
        for (int i = 0; i < n; i++) {
            ids.add(TransactionService.readId(r));
        }
        return ids;
    }

    static Step step(PayloadReader r) {
        int s = r.get();
        if (s < 0 || s >= Step.values().length) {
            throw new org.oooengine.core.wire.ProtocolException("no copy cut step " + s);
        }
        return Step.values()[s];
    }
}
