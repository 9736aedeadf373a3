package org.oooengine.core.txn;

/**
 * A transaction body a {@link Worker} runs, and re-runs from scratch when it aborts; it must not
 * have effects outside the transaction.
 */
@FunctionalInterface
public interface StoredProcedure {
    void run(Transaction tx);
}
