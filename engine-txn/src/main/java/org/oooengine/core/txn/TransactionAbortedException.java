package org.oooengine.core.txn;

/** The transaction conflicted with another and was rolled back; running it again may succeed. */
public final class TransactionAbortedException extends RuntimeException {
    public TransactionAbortedException(String reason) {
        super(reason, null, false, false);
    }
}
