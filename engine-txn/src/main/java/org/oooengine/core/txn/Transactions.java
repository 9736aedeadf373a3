package org.oooengine.core.txn;

import java.util.function.Function;
import java.util.function.Supplier;

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
        return retry(Transaction::begin, (t, attempt) -> {
            T result = body.apply(t);
            t.commit();
            return result;
        }, () -> { }, attempts);
    }

    /** One attempt on a fresh transaction; it commits, or throws {@link TransactionAbortedException} to be retried. */
    @FunctionalInterface
    interface Attempt<T> {
        T run(Transaction tx, int attempt);
    }

    /**
     * The retry loop every entry point shares: aborted attempts are rolled back and retried
     * (yielding the processor after a few, so the conflicting writer can finish); any other
     * failure rolls back and propagates.
     */
    static <T> T retry(Supplier<Transaction> begin, Attempt<T> attempt, Runnable afterAbort, int attempts) {
        TransactionAbortedException last = null;
        for (int i = 1; i <= attempts; i++) {
            Transaction t = begin.get();
            try {
                return attempt.run(t, i);
            } catch (TransactionAbortedException e) {
                last = e;
                t.abort();
                afterAbort.run();
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
