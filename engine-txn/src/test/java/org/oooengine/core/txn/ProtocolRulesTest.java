package org.oooengine.core.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** When locks are released and commits acknowledged, protocol by protocol. */
class ProtocolRulesTest {
    @TempDir
    Path dir;

    private static byte[] key(int i) {
        return TransactionalDatabaseTest.key(i);
    }

    private static byte[] amount(long v) {
        return TransactionalDatabaseTest.amount(v);
    }

    /** NLR with a group: a commit waiting for its group's flush stays locked, so nobody reads it. */
    @Test
    void nlrGroupKeepsUnflushedWritesInvisible() {
        try (TransactionalDatabase db = TransactionalDatabase.open(dir, LogProtocol.nlrGroup(4), Durability.NONE)) {
            TransactionalTable t = db.createTable("t");
            Worker w = db.newWorker();
            AtomicBoolean acked = new AtomicBoolean();
            w.execute(tx -> tx.put(t, key(1), amount(7)), () -> acked.set(true));
            assertFalse(acked.get());
            assertThrows(TransactionAbortedException.class, () -> Transaction.begin().get(t, key(1)));
            w.flush();
            assertTrue(acked.get());
            assertEquals(7, TransactionalDatabaseTest.amount(Transaction.begin().get(t, key(1))));
            w.close();
        }
    }

    /**
     * ELR: a commit that read another worker's unflushed write is acknowledged only after that
     * worker flushed, even though its own record is already durable.
     */
    @Test
    void elrAcknowledgesOnlyWhenEveryWorkerFlushedPastTheLsn() {
        try (TransactionalDatabase db = TransactionalDatabase.open(dir, LogProtocol.elrGroup(4), Durability.NONE)) {
            TransactionalTable t = db.createTable("t");
            Worker a = db.newWorker();
            Worker b = db.newWorker();
            AtomicBoolean ackA = new AtomicBoolean();
            AtomicBoolean ackB = new AtomicBoolean();
            a.execute(tx -> tx.put(t, key(1), amount(1)), () -> ackA.set(true));
            // Early lock release: b sees a's write before it is durable.
            b.execute(tx -> tx.put(t, key(2), amount(TransactionalDatabaseTest.amount(tx.get(t, key(1))) + 1)),
                    () -> ackB.set(true));
            b.execute(tx -> tx.put(t, key(3), amount(0)), () -> { });
            b.execute(tx -> tx.put(t, key(4), amount(0)), () -> { });
            b.execute(tx -> tx.put(t, key(5), amount(0)), () -> { }); // b's group of 4 is flushed here
            assertFalse(ackA.get());
            assertFalse(ackB.get(), "b depends on a's unflushed write");
            a.flush();
            assertTrue(ackA.get());
            b.flush();
            assertTrue(ackB.get());
            a.close();
            b.close();
        }
    }

    /**
     * NLR with a group, two workers updating the same two rows in opposite orders: each would wait
     * for a lock the other holds across transactions, unless it flushes and releases first.
     */
    @Test
    void nlrGroupWorkersNeverWaitOnEachOther() throws Exception {
        try (TransactionalDatabase db = TransactionalDatabase.open(dir, LogProtocol.nlrGroup(16), Durability.NONE)) {
            TransactionalTable t = db.createTable("t");
            db.load(t, List.of(new byte[][] {key(0), amount(0)}, new byte[][] {key(1), amount(0)}));
            int perWorker = 3000;
            AtomicLong aborts = new AtomicLong();
            assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
                List<Thread> threads = new ArrayList<>();
                for (int n = 0; n < 2; n++) {
                    Worker w = db.newWorker();
                    int first = n;
                    threads.add(new Thread(() -> {
                        for (int i = 0; i < perWorker; i++) {
                            int attempts = w.execute(tx -> {
                                for (int k : new int[] {first, 1 - first}) {
                                    tx.put(t, key(k), amount(TransactionalDatabaseTest.amount(tx.get(t, key(k))) + 1));
                                }
                            }, () -> { });
                            aborts.addAndGet(attempts - 1);
                        }
                        w.close();
                    }));
                }
                threads.forEach(Thread::start);
                for (Thread th : threads) {
                    th.join();
                }
            });
            for (int k = 0; k < 2; k++) {
                assertEquals(2L * perWorker, TransactionalDatabaseTest.amount(Transaction.begin().get(t, key(k))));
            }
            assertTrue(aborts.get() < perWorker, aborts + " aborts");
        }
    }
}
