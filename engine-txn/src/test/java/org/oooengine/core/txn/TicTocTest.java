package org.oooengine.core.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class TicTocTest {
    private final TransactionalTable accounts = new TransactionalTable("accounts");

    private static byte[] key(int i) {
        return ByteBuffer.allocate(4).putInt(i).array();
    }

    private static byte[] amount(long v) {
        return ByteBuffer.allocate(8).putLong(v).array();
    }

    private static long amount(byte[] b) {
        return ByteBuffer.wrap(b).getLong();
    }

    @Test
    void readsOwnWritesInsertsAndDeletes() {
        Transaction t = Transaction.begin();
        assertNull(t.get(accounts, key(1)));
        t.put(accounts, key(1), amount(5));
        assertEquals(5, amount(t.get(accounts, key(1))));
        t.commit();

        Transaction d = Transaction.begin();
        assertEquals(5, amount(d.get(accounts, key(1))));
        d.delete(accounts, key(1));
        assertNull(d.get(accounts, key(1)));
        d.commit();
        assertNull(Transactions.run(x -> x.get(accounts, key(1))));
        assertThrows(IllegalStateException.class, () -> d.get(accounts, key(1)));
    }

    @Test
    void abortedWritesAreNeverVisible() {
        Transaction t = Transaction.begin();
        t.put(accounts, key(7), amount(1));
        t.abort();
        assertNull(Transactions.run(x -> x.get(accounts, key(7))));
    }

    /**
     * A writer that has validated but not yet installed must not have told readers that the old
     * version is valid at its own commit timestamp. If it had, two such writers validating at the
     * same time could each accept the other's old row: a write skew at one timestamp.
     */
    @Test
    void aValidatedWriterLeavesItsRowsReadTimestampBelowItsCommit() {
        Transactions.run(t -> {
            t.put(accounts, key(1), amount(1));
            t.put(accounts, key(2), amount(2));
            return null;
        });
        Transaction writer = Transaction.begin();
        writer.put(accounts, key(1), amount(amount(writer.get(accounts, key(1))) + 1));
        Transaction reader = Transaction.begin();
        reader.get(accounts, key(1));
        reader.put(accounts, key(2), amount(amount(reader.get(accounts, key(2))) + 1));

        writer.lockWriteSet();
        long ts = writer.commitTimestamp();
        writer.validateReads(ts);
        reader.lockWriteSet();
        assertEquals(ts, reader.commitTimestamp());
        assertThrows(TransactionAbortedException.class, () -> reader.validateReads(ts));
    }

    /** Write skew: both read x and y, each writes one; serializability lets only one commit. */
    @Test
    void writeSkewIsPrevented() {
        Transactions.run(t -> {
            t.put(accounts, key(1), amount(100));
            t.put(accounts, key(2), amount(100));
            return null;
        });
        Transaction t1 = Transaction.begin();
        Transaction t2 = Transaction.begin();
        long sum1 = amount(t1.get(accounts, key(1))) + amount(t1.get(accounts, key(2)));
        long sum2 = amount(t2.get(accounts, key(1))) + amount(t2.get(accounts, key(2)));
        t1.put(accounts, key(1), amount(amount(t1.get(accounts, key(1))) - sum1));
        t2.put(accounts, key(2), amount(amount(t2.get(accounts, key(2))) - sum2));
        t1.commit();
        assertThrows(TransactionAbortedException.class, t2::commit);
        long total = Transactions.run(t -> amount(t.get(accounts, key(1))) + amount(t.get(accounts, key(2))));
        assertEquals(0, total);
        // The loser left no lock behind.
        Transactions.run(t -> {
            t.put(accounts, key(2), amount(1));
            return null;
        });
    }

    /**
     * Lost update: a read-modify-write whose read was overwritten meanwhile aborts. A reader that
     * only writes elsewhere commits, serialized before the overwrite (its timestamp says so).
     */
    @Test
    void lostUpdateAbortsWhileAnEarlierSerializationCommits() {
        Transactions.run(t -> {
            t.put(accounts, key(3), amount(1));
            return null;
        });
        Transaction increment = Transaction.begin();
        long seen = amount(increment.get(accounts, key(3)));
        increment.put(accounts, key(3), amount(seen + 1));
        Transaction elsewhere = Transaction.begin();
        elsewhere.get(accounts, key(3));
        elsewhere.put(accounts, key(4), amount(9));

        Transaction overwrite = Transaction.begin();
        overwrite.put(accounts, key(3), amount(100));
        long overwriteTs = overwrite.commit();

        assertThrows(TransactionAbortedException.class, increment::commit);
        long elsewhereTs = elsewhere.commit();
        assertTrue(elsewhereTs < overwriteTs, "the reader is ordered before the overwrite");
        assertEquals(100, amount(Transactions.run(t -> t.get(accounts, key(3)))));
    }

    /**
     * Concurrent transfers keep the total; concurrent read-only audits always see it whole, and
     * every committed audit sees the total exactly.
     */
    @Test
    void bankTransfersKeepTheirTotal() throws Exception {
        int n = 64;
        long initial = 1_000;
        Transactions.run(t -> {
            for (int i = 0; i < n; i++) {
                t.put(accounts, key(i), amount(initial));
            }
            return null;
        });
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong audits = new AtomicLong();
        AtomicLong badAudits = new AtomicLong();
        List<Thread> threads = new ArrayList<>();
        int transfersPerThread = 20_000;
        for (int w = 0; w < 3; w++) {
            threads.add(new Thread(() -> {
                ThreadLocalRandom r = ThreadLocalRandom.current();
                for (int i = 0; i < transfersPerThread; i++) {
                    int from = r.nextInt(n);
                    int to = r.nextInt(n);
                    long x = r.nextLong(50);
                    Transactions.run(t -> {
                        long a = amount(t.get(accounts, key(from)));
                        long b = amount(t.get(accounts, key(to)));
                        if (from != to) {
                            t.put(accounts, key(from), amount(a - x));
                            t.put(accounts, key(to), amount(b + x));
                        }
                        return null;
                    });
                }
            }));
        }
        Thread auditor = new Thread(() -> {
            while (!stop.get()) {
                long total = Transactions.run(t -> {
                    long s = 0;
                    for (int i = 0; i < n; i++) {
                        s += amount(t.get(accounts, key(i)));
                    }
                    return s;
                });
                audits.incrementAndGet();
                if (total != n * initial) {
                    badAudits.incrementAndGet();
                }
            }
        });
        auditor.start();
        threads.forEach(Thread::start);
        for (Thread t : threads) {
            t.join();
        }
        stop.set(true);
        auditor.join();
        assertEquals(0, badAudits.get(), "audits that saw a partial transfer");
        assertTrue(audits.get() > 0);
        long total = Transactions.run(t -> {
            long s = 0;
            for (int i = 0; i < n; i++) {
                s += amount(t.get(accounts, key(i)));
            }
            return s;
        });
        assertEquals(n * initial, total);
    }
}
