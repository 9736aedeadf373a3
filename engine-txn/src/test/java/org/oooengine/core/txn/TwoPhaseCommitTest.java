package org.oooengine.core.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two databases as two nodes: a transfer from an account on one to an account on the other commits
 * on both or neither, through crashes of either between the phases and checkpoints in between.
 * Node a decides; node b votes.
 */
class TwoPhaseCommitTest {
    private static final int ACCOUNT = 1;

    @TempDir
    Path dir;
    private TransactionalDatabase a;
    private TransactionalDatabase b;

    @BeforeEach
    void open() {
        a = openNode("a");
        b = openNode("b");
        for (TransactionalDatabase db : List.of(a, b)) {
            TransactionalTable t = db.createTable("accounts");
            db.load(t, List.<byte[][]>of(new byte[][] {TransactionalDatabaseTest.key(ACCOUNT), TransactionalDatabaseTest.amount(100)}));
        }
    }

    @AfterEach
    void close() {
        a.close();
        b.close();
    }

    private TransactionalDatabase openNode(String name) {
        return openNode(name, LogProtocol.NLR);
    }

    private TransactionalDatabase openNode(String name, LogProtocol protocol) {
        return TransactionalDatabase.open(dir.resolve(name), protocol, Durability.NONE);
    }

    private static long balance(TransactionalDatabase db) {
        return TransactionalDatabaseTest.amount(Transaction.begin().get(db.table("accounts"), TransactionalDatabaseTest.key(ACCOUNT)));
    }

    /** Moves {@code amount} from a's account to b's: each side's worker reads and writes its own row. */
    private static Transaction withdraw(Worker w, TransactionalDatabase db, long amount) {
        Transaction tx = w.begin();
        TransactionalTable t = db.table("accounts");
        byte[] k = TransactionalDatabaseTest.key(ACCOUNT);
        tx.put(t, k, TransactionalDatabaseTest.amount(TransactionalDatabaseTest.amount(tx.get(t, k)) - amount));
        return tx;
    }

    private static Transaction deposit(Worker w, TransactionalDatabase db, long amount) {
        return withdraw(w, db, -amount);
    }

    /** A transfer of {@code amount} from a to b through lock, b's vote and a's decision; b has not learned it yet. */
    private void voteAndDecide(Worker wa, Worker wb, TransactionId id, long amount) {
        Transaction ta = withdraw(wa, a, amount);
        Transaction tb = deposit(wb, b, amount);
        long ts = Math.max(wa.lock(ta), wb.lock(tb));
        wb.prepare(tb, id, ts, "a");
        wa.decide(ta, id, ts, List.of("b"));
    }

    /** A flag that turns true once everything {@code w} logged so far is durable. */
    private static boolean[] durableFlag(Worker w) {
        boolean[] durable = {false};
        w.whenDurable(() -> durable[0] = true);
        return durable;
    }

    @Test
    void commitsOnBothThroughTheThreePhases() {
        TransactionId id = TransactionId.next();
        try (Worker wa = a.newWorker(); Worker wb = b.newWorker()) {
            Transaction ta = withdraw(wa, a, 30);
            Transaction tb = deposit(wb, b, 30);
            long ts = Math.max(wa.lock(ta), wb.lock(tb));
            PreparedTransaction p = wb.prepare(tb, id, ts, "a");
            assertNotNull(p);
            assertTrue(b.isPrepared(id));
            assertThrows(TransactionAbortedException.class, () -> balance(b), "a prepared row is locked");
            wa.decide(ta, id, ts, List.of("b"));
            assertEquals(70, balance(a));
            assertEquals(ts, a.decision(id).commitTimestamp());
            assertTrue(wb.commitPrepared(id));
            assertFalse(wb.commitPrepared(id), "learned once");
            assertEquals(130, balance(b));
            a.applied(id, "b");
            assertNull(a.decision(id), "forgotten once every participant applied it");
        }
    }

    /**
     * A node's lane must not wait for a row a prepared transaction holds: the step that releases it
     * may be queued behind on that lane. Its reads and locks that do not wait say so at once,
     * leaving nothing locked, and succeed once the holder has committed.
     */
    @Test
    void readsAndLocksThatDoNotWaitGiveWayToAPreparedTransaction() {
        TransactionId id = TransactionId.next();
        TransactionalTable t = b.table("accounts");
        byte[] k = TransactionalDatabaseTest.key(ACCOUNT);
        try (Worker holder = b.newWorker(); Worker other = b.newWorker()) {
            Transaction held = deposit(holder, b, 30);
            holder.prepare(held, id, holder.lock(held), "a");

            Transaction reader = other.begin();
            long t0 = System.nanoTime();
            assertNull(reader.scanRangeUnlessLocked(t, null, null, 10), "the row is locked");
            Transaction writer = other.begin();
            writer.put(t, k, TransactionalDatabaseTest.amount(7));
            assertTrue(other.tryLock(writer).isEmpty(), "the row is locked");
            assertTrue((System.nanoTime() - t0) / 1_000_000 < 100, "neither waited for the lock");

            assertTrue(holder.commitPrepared(id));
            List<Transaction.KeyValue> rows = reader.scanRangeUnlessLocked(t, null, null, 10);
            assertEquals(130, TransactionalDatabaseTest.amount(rows.get(0).value()), "read once the holder committed");
            assertTrue(other.tryLock(writer).isPresent(), "the failed try left the transaction able to lock");
            writer.abort();
        }
    }

    @Test
    void aReadOverwrittenAtTheDeciderAbortsEverywhere() {
        TransactionId id = TransactionId.next();
        try (Worker wa = a.newWorker(); Worker wb = b.newWorker(); Worker other = a.newWorker()) {
            Transaction ta = withdraw(wa, a, 30);
            // another transaction overwrites the row a's side read, before a's side locks it
            other.run(tx -> {
                tx.put(a.table("accounts"), TransactionalDatabaseTest.key(ACCOUNT), TransactionalDatabaseTest.amount(500));
                return null;
            });
            Transaction tb = deposit(wb, b, 30);
            long ts = Math.max(wa.lock(ta), wb.lock(tb));
            wb.prepare(tb, id, ts, "a");
            assertThrows(TransactionAbortedException.class, () -> wa.decide(ta, id, ts, List.of("b")));
            assertNull(a.decision(id));
            assertTrue(wb.abortPrepared(id));
            assertEquals(500, balance(a));
            assertEquals(100, balance(b));
        }
    }

    @Test
    void aReadOnlyParticipantValidatesAndIsDone() {
        TransactionId id = TransactionId.next();
        try (Worker wa = a.newWorker(); Worker wb = b.newWorker()) {
            Transaction ta = withdraw(wa, a, 30);
            Transaction tb = wb.begin();
            assertEquals(100, TransactionalDatabaseTest.amount(tb.get(b.table("accounts"), TransactionalDatabaseTest.key(ACCOUNT))));
            long ts = Math.max(wa.lock(ta), wb.lock(tb));
            assertNull(wb.prepare(tb, id, ts, "a"));
            assertFalse(b.isPrepared(id));
            wa.decide(ta, id, ts, List.of());
            assertNull(a.decision(id), "nobody to wait for");
            assertEquals(70, balance(a));
        }
    }

    @Test
    void aParticipantThatCrashedAfterVotingIsInDoubtWithItsRowsLockedUntilTold() {
        TransactionId id = TransactionId.next();
        try (Worker wa = a.newWorker()) {
            Worker wb = b.newWorker();
            Transaction ta = withdraw(wa, a, 30);
            Transaction tb = deposit(wb, b, 30);
            long ts = Math.max(wa.lock(ta), wb.lock(tb));
            wb.prepare(tb, id, ts, "a");
            b.crash();
            wa.decide(ta, id, ts, List.of("b"));
        }
        b = openNode("b");
        assertEquals(1, b.inDoubt().size());
        PreparedTransaction doubt = b.inDoubt().iterator().next();
        assertEquals(id, doubt.id());
        assertEquals("a", doubt.decider());
        assertThrows(TransactionAbortedException.class, () -> balance(b), "its row is locked again");
        b.close();
        b = openNode("b"); // a checkpoint in between keeps it in doubt
        assertEquals(List.of(id), b.inDoubt().stream().map(PreparedTransaction::id).toList());
        Decision d = a.decision(b.inDoubt().iterator().next().id());
        assertNotNull(d, "the decider still knows");
        try (Worker wb = b.newWorker()) {
            assertTrue(wb.commitPrepared(d.id()));
        }
        a.applied(id, "b");
        assertEquals(130, balance(b));
        b.crash();
        b = openNode("b");
        assertEquals(130, balance(b), "the commit of a prepared transaction is replayed");
        assertTrue(b.inDoubt().isEmpty());
    }

    @Test
    void aCommitLearnedUnderAGroupProtocolShowsAtOnceAndIsDurableAtTheWorkersNextFlush() {
        b.close();
        b = openNode("b", LogProtocol.nlrGroup(32));
        for (boolean flushedBeforeTheCrash : new boolean[] {false, true}) {
            TransactionId id = TransactionId.next();
            long before = balance(b);
            try (Worker wa = a.newWorker()) {
                Worker wb = b.newWorker();
                voteAndDecide(wa, wb, id, 30);
                assertTrue(wb.commitPreparedInGroup(id));
                assertEquals(before + 30, balance(b), "the writes show at once");
                boolean[] durable = durableFlag(wb);
                assertFalse(durable[0], "its record waits for the worker's next flush");
                if (flushedBeforeTheCrash) {
                    wb.flush();
                    assertTrue(durable[0]);
                }
                b.crash();
            }
            b = openNode("b", LogProtocol.nlrGroup(32));
            if (flushedBeforeTheCrash) {
                assertTrue(b.inDoubt().isEmpty());
            } else {
                assertEquals(List.of(id), b.inDoubt().stream().map(PreparedTransaction::id).toList(),
                        "in doubt again: the decider, which still knows, answers committed");
                try (Worker wb = b.newWorker()) {
                    assertTrue(wb.commitPrepared(a.decision(id).id()));
                }
            }
            a.applied(id, "b");
            assertEquals(before + 30, balance(b));
        }
    }

    @Test
    void aDecisionInTheDecidersOpenGroupIsSettledByItsFlushAndLostWithoutIt() {
        a.close();
        a = openNode("a", LogProtocol.nlrGroup(32));
        for (boolean flushedBeforeTheCrash : new boolean[] {false, true}) {
            TransactionId id = TransactionId.next();
            long beforeA = balance(a);
            long beforeB = balance(b);
            Worker wa = a.newWorker();
            try (Worker wb = b.newWorker()) {
                Transaction ta = withdraw(wa, a, 30);
                Transaction tb = deposit(wb, b, 30);
                long ts = Math.max(wa.lock(ta), wb.lock(tb));
                wb.prepare(tb, id, ts, "a");
                wa.decideInGroup(ta, id, ts, List.of("b"));
                assertTrue(a.isDeciding(id), "logged, not durable: an asker must ask again");
                assertNull(a.decision(id));
                boolean[] told = durableFlag(wa);
                assertFalse(told[0], "the voter learns it only once the decider's group is flushed");
                if (flushedBeforeTheCrash) {
                    wa.flush();
                    assertTrue(told[0]);
                    assertFalse(a.isDeciding(id));
                    assertNotNull(a.decision(id));
                }
                a.crash();
                a = openNode("a", LogProtocol.nlrGroup(32));
                if (flushedBeforeTheCrash) {
                    assertNotNull(a.decision(id), "the decision outlives the crash");
                    assertTrue(wb.commitPrepared(id));
                    a.applied(id, "b");
                } else {
                    assertNull(a.decision(id), "lost with its writes: the voter in doubt hears aborted");
                    assertFalse(a.isDeciding(id));
                    assertTrue(wb.abortPrepared(id));
                }
            }
            long moved = flushedBeforeTheCrash ? 30 : 0;
            assertEquals(beforeA - moved, balance(a));
            assertEquals(beforeB + moved, balance(b));
        }
    }

    @Test
    void aLaterVoteFlushesTheCommitsLearnedBeforeIt() {
        b.close();
        b = openNode("b", LogProtocol.nlrGroup(32));
        try (Worker wa = a.newWorker(); Worker wb = b.newWorker()) {
            TransactionId first = TransactionId.next();
            voteAndDecide(wa, wb, first, 10);
            wb.commitPreparedInGroup(first);
            boolean[] durable = durableFlag(wb);
            assertFalse(durable[0]);

            TransactionId second = TransactionId.next();
            voteAndDecide(wa, wb, second, 5);
            assertTrue(durable[0], "the later vote flushed the log: the learned commit is durable, its answer went out");
            wb.commitPrepared(second);
        }
        assertEquals(115, balance(b));
    }

    @Test
    void theDeciderRemembersItsDecisionAcrossCrashAndCheckpointUntilApplied() {
        TransactionId id = TransactionId.next();
        Worker wa = a.newWorker();
        try (Worker wb = b.newWorker()) {
            Transaction ta = withdraw(wa, a, 30);
            Transaction tb = deposit(wb, b, 30);
            long ts = Math.max(wa.lock(ta), wb.lock(tb));
            wb.prepare(tb, id, ts, "a");
            wa.decide(ta, id, ts, List.of("b"));
        }
        a.crash();
        a = openNode("a");
        assertEquals(70, balance(a));
        assertEquals(List.of("b"), List.copyOf(a.decision(id).waiting()));
        a.close();
        a = openNode("a");
        assertNotNull(a.decision(id), "kept by the checkpoint");
        try (Worker wb = b.newWorker()) {
            assertTrue(wb.commitPrepared(id));
        }
        a.applied(id, "b");
        a.close();
        a = openNode("a");
        assertNull(a.decision(id));
        assertEquals(130, balance(b));
    }

    @Test
    void anAbortedPreparedTransactionLeavesNothingAcrossRecovery() {
        TransactionId id = TransactionId.next();
        try (Worker wb = b.newWorker()) {
            Transaction tb = deposit(wb, b, 30);
            long ts = wb.lock(tb);
            wb.prepare(tb, id, ts, "a");
            assertTrue(wb.abortPrepared(id));
            assertEquals(100, balance(b));
            wb.run(tx -> {
                tx.put(b.table("accounts"), TransactionalDatabaseTest.key(ACCOUNT), TransactionalDatabaseTest.amount(5));
                return null;
            }); // flushes the abort record with it
        }
        b.crash();
        b = openNode("b");
        assertTrue(b.inDoubt().isEmpty());
        assertEquals(5, balance(b));
    }

    @Test
    void twoPhaseCommitNeedsAnNlrProtocol() {
        try (TransactionalDatabase elr = TransactionalDatabase.open(dir.resolve("elr"), LogProtocol.ELR, Durability.NONE);
             Worker w = elr.newWorker()) {
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> w.lock(w.begin()));
            assertTrue(e.getMessage().contains("nlr"), e.getMessage());
        }
    }
}
