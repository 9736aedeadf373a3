package org.oooengine.hive.engine;

import java.util.concurrent.ThreadLocalRandom;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.oooengine.core.cluster.DistributedTransaction;
import org.oooengine.core.cluster.Peers;
import org.oooengine.core.sql.SqlException;
import org.oooengine.core.txn.TransactionAbortedException;

/**
 * The transaction one statement runs in on the transactional tables it reads or writes: begun when
 * it first touches one, committed when the statement is done (a statement is a transaction), so a
 * query reads them serializably and a DML statement changes them on every node or on none. Its
 * scans may run on several threads: they take turns on the transaction.
 */
final class StatementTransaction {
    private static final Logger LOG = LogManager.getLogger(StatementTransaction.class);
    /** How often a statement that conflicted runs again before its conflict reaches the client (SQLSTATE 40001). */
    static final int ATTEMPTS = 5;

    private final Peers peers;
    private DistributedTransaction tx;

    StatementTransaction(Peers peers) {
        this.peers = peers;
    }

    Peers peers() {
        return peers;
    }

    /** The transaction, begun on first use; hold this object's lock while using it. */
    synchronized DistributedTransaction get() {
        if (tx == null) {
            tx = new DistributedTransaction(peers);
        }
        return tx;
    }

    private synchronized void commit() {
        if (tx != null) {
            tx.commit();
        }
    }

    private synchronized void abort() {
        if (tx != null) {
            tx.abort();
        }
    }

    /** One attempt at a statement, and how to let go of what it produced when its transaction aborted (e.g. spooled rows). */
    @FunctionalInterface
    interface Attempt<T> {
        T run(StatementTransaction tx);

        default void discard(T result) {
        }
    }

    /**
     * Runs a statement in a transaction of its own and commits it; a conflict runs it again from
     * scratch, at most {@link #ATTEMPTS} times in all, then fails with SQLSTATE 40001. Any other
     * failure aborts the transaction and goes on.
     */
    static <T> T run(Peers peers, String what, Attempt<T> attempt) {
        TransactionAbortedException last = null;
        for (int i = 1; i <= ATTEMPTS; i++) {
            StatementTransaction tx = new StatementTransaction(peers);
            T result = null;
            try {
                result = attempt.run(tx);
                tx.commit();
                return result;
            } catch (TransactionAbortedException e) {
                last = e;
                tx.abort();
                if (result != null) {
                    attempt.discard(result);
                }
                LOG.debug("{}: attempt {} conflicted: {}", what, i, e.getMessage());
                sleepBeforeRetry(i);
            } catch (RuntimeException | Error e) {
                tx.abort();
                if (result != null) {
                    attempt.discard(result);
                }
                throw e;
            }
        }
        throw new SqlException(SqlException.SERIALIZATION_FAILURE, what + " conflicted with concurrent transactions "
                + ATTEMPTS + " times and was rolled back; run it again (" + last.getMessage() + ")", last);
    }

    /** A random pause growing with the attempts, so that conflicting statements stop meeting. */
    private static void sleepBeforeRetry(int attempt) {
        try {
            Thread.sleep(ThreadLocalRandom.current().nextLong(1, 5L << attempt));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SqlException(SqlException.CANCELLED, "interrupted while waiting to run a statement again", e);
        }
    }
}
