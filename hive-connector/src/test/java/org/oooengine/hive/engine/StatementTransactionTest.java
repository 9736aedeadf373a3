package org.oooengine.hive.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.oooengine.core.net.ErrorCode;
import org.oooengine.core.net.RemoteException;
import org.oooengine.core.sql.SqlException;

/**
 * Which failures run a statement again, and how the last one reads. The attempts here touch no
 * transactional table, so their transaction is never begun and no cluster is needed.
 */
class StatementTransactionTest {
    /** A node's scan that met a row locked by a concurrent commit, as the scan reports it. */
    private static SqlException lockedRowRead() {
        return Faults.of("scan of acct#1f failed: ", new CompletionException(
                new RemoteException("n2", ErrorCode.CONFLICT, "a tuple stayed locked while being read")));
    }

    @Test
    void aReadThatMetALockedRowRunsTheStatementAgain() {
        AtomicInteger runs = new AtomicInteger();
        String result = StatementTransaction.run(null, "UPDATE of default.acct", 3, tx -> {
            if (runs.incrementAndGet() < 3) {
                throw lockedRowRead();
            }
            return "done";
        });
        assertEquals("done", result);
        assertEquals(3, runs.get());
    }

    @Test
    void theFinalConflictSaysHowManyAttemptsFailed() {
        AtomicInteger runs = new AtomicInteger();
        SqlException e = assertThrows(SqlException.class, () -> StatementTransaction.run(null,
                "UPDATE of default.acct", 4, tx -> {
                    runs.incrementAndGet();
                    throw lockedRowRead();
                }));
        assertEquals(4, runs.get());
        assertEquals(SqlException.SERIALIZATION_FAILURE, e.sqlState());
        assertFalse(Faults.conflict(e), "a statement that gave up is not run again by an enclosing one");
        assertEquals("UPDATE of default.acct conflicted with concurrent transactions in all 4 attempts and was rolled "
                + "back; run it again (the last conflict: scan of acct#1f failed: node n2: a tuple stayed locked while "
                + "being read)", e.getMessage());

        SqlException once = assertThrows(SqlException.class, () -> StatementTransaction.run(null, "query", 1, tx -> {
            throw lockedRowRead();
        }));
        assertTrue(once.getMessage().startsWith("query conflicted with concurrent transactions in its only attempt "
                + "(ooo.transaction.attempts=1)"), once.getMessage());
    }

    @Test
    void otherFailuresAreNotRunAgain() {
        AtomicInteger runs = new AtomicInteger();
        SqlException failure = Faults.of("scan of acct failed: ", new RemoteException("n2", ErrorCode.TIMEOUT, "no answer"));
        SqlException e = assertThrows(SqlException.class, () -> StatementTransaction.run(null, "query", 5, tx -> {
            runs.incrementAndGet();
            throw failure;
        }));
        assertSame(failure, e);
        assertEquals(1, runs.get());
    }

    @Test
    void pausesGrowWithTheAttemptsAndStayBounded() {
        for (int attempt = 1; attempt <= 100; attempt++) {
            long bound = Math.min(StatementTransaction.MAX_PAUSE_MILLIS, 5L << Math.min(attempt, 10));
            for (int i = 0; i < 50; i++) {
                long pause = StatementTransaction.pauseMillis(attempt);
                assertTrue(pause >= 1 && pause <= bound, "attempt " + attempt + " paused " + pause + " ms");
            }
        }
    }
}
