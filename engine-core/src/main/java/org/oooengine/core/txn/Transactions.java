package org.oooengine.core.txn;

import java.util.function.Function;

/** Runs a transaction body, retrying it when it aborts on a conflict. */
public final class Transactions {
    public static final int DEFAULT_ATTEMPTS = 1000;

    private Transactions() {
    }

    /** Commits {@code body}'s work and returns its result; retries up to {@link #DEFAULT_ATTEMPTS} times. */
    public static <T> T run(Function<Transaction, T> body) {
        return run(body, DEFAULT_ATTEMPTS);
    }

    public static <T> T run(Function<Transaction, T> body, int attempts) {
        TransactionAbortedException last = null;
        for (int i = 0; i < attempts; i++) {
            Transaction t = Transaction.begin();
            try {
                T result = body.apply(t);
                t.commit();
                return result;
            } catch (TransactionAbortedException e) {
                last = e;
                t.abort();
                if (i > 8) {
                    Thread.yield();
                }
            } catch (RuntimeException e) {
                t.abort();
                throw e;
            }
        }
        throw new TransactionAbortedException("gave up after " + attempts + " attempts: " + last.getMessage());
    }
}
