package org.oooengine.core.txn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class TransactionalDatabaseTest {
    static final String[] PROTOCOLS = {"nlr", "nlr-group:4", "elr", "elr-group:4", "elr-swal"};

    @TempDir
    Path dir;

    static byte[] key(int i) {
        return ByteBuffer.allocate(4).putInt(i).array();
    }

    static byte[] amount(long v) {
        return ByteBuffer.allocate(8).putLong(v).array();
    }

    static long amount(byte[] b) {
        return ByteBuffer.wrap(b).getLong();
    }

    private static long read(TransactionalDatabase db, String table, int k) {
        byte[] v = Transaction.begin().get(db.table(table), key(k));
        return v == null ? -1 : amount(v);
    }

    @ParameterizedTest
    @ValueSource(strings = {"nlr", "nlr-group:4", "elr", "elr-group:4", "elr-swal"})
    void commitsSurviveCloseAndCrash(String protocol) {
        LogProtocol p = LogProtocol.parse(protocol);
        try (TransactionalDatabase db = TransactionalDatabase.open(dir, p, Durability.nvmSim(50))) {
            TransactionalTable t = db.createTable("t");
            try (Worker w = db.newWorker()) {
                for (int i = 0; i < 10; i++) {
                    int k = i;
                    w.run(tx -> {
                        tx.put(t, key(k), amount(k * 10L));
                        return null;
                    });
                }
            }
        }
        TransactionalDatabase db = TransactionalDatabase.open(dir, p, Durability.NONE);
        assertEquals(90, read(db, "t", 9));
        TransactionalTable t = db.table("t");
        Worker w = db.newWorker();
        for (int i = 0; i < 10; i++) {
            int k = i;
            w.execute(tx -> tx.put(t, key(k), amount(tx.get(t, key(k)) == null ? -5 : k + 1000L)), () -> { });
        }
        w.run(tx -> {
            tx.delete(t, key(3));
            return null;
        });
        db.crash();
        try (TransactionalDatabase again = TransactionalDatabase.open(dir, p, Durability.NONE)) {
            assertEquals(1009, read(again, "t", 9));
            assertEquals(1000, read(again, "t", 0));
            assertEquals(-1, read(again, "t", 3));
        }
    }

    private static List<Integer> keys(List<Transaction.KeyValue> rows) {
        List<Integer> keys = new ArrayList<>();
        rows.forEach(r -> keys.add(ByteBuffer.wrap(r.key()).getInt()));
        return keys;
    }

    /**
     * Deleted rows leave the key order, so scans do not walk over them (a queue's consumed head);
     * inserted again, they are back for every scan, the inserting transaction's own first; and
     * their deletion survives recovery and the checkpoint after it, under every protocol.
     */
    @ParameterizedTest
    @ValueSource(strings = {"nlr", "nlr-group:4", "elr", "elr-group:4", "elr-swal"})
    void deletedRowsLeaveTheKeyOrderAndComeBackWhenInserted(String protocol) {
        LogProtocol p = LogProtocol.parse(protocol);
        try (TransactionalDatabase db = TransactionalDatabase.open(dir, p, Durability.NONE)) {
            TransactionalTable t = db.createTable("q");
            try (Worker w = db.newWorker()) {
                w.run(tx -> {
                    for (int k = 1; k <= 5; k++) {
                        tx.put(t, key(k), amount(k));
                    }
                    return null;
                });
                w.run(tx -> {
                    tx.delete(t, key(2));
                    tx.delete(t, key(3));
                    return null;
                });
                w.flush();
                assertEquals(List.of(1, 4, 5), keys(Transaction.begin().scanRange(t, null, null)));
                assertEquals(3, t.range(null, null).size(), "the deleted rows are out of the key order");
                w.run(tx -> {
                    tx.put(t, key(3), amount(33));
                    assertEquals(List.of(1, 3, 4, 5), keys(tx.scanRange(t, null, null)), "its own insert");
                    return null;
                });
                w.flush();
                assertEquals(List.of(1, 3, 4, 5), keys(Transaction.begin().scanRange(t, null, null)));
            }
        }
        for (int reopen = 0; reopen < 2; reopen++) { // recovery from the WAL, then from its checkpoint
            try (TransactionalDatabase db = TransactionalDatabase.open(dir, p, Durability.NONE)) {
                assertEquals(List.of(1, 3, 4, 5), keys(Transaction.begin().scanRange(db.table("q"), null, null)));
                assertEquals(-1, read(db, "q", 2));
                assertEquals(33, read(db, "q", 3));
            }
        }
    }

    @Test
    void scanRangeSeesOwnWritesAndValidatesRowsItReturned() {
        try (TransactionalDatabase db = TransactionalDatabase.open(dir, LogProtocol.NLR, Durability.NONE);
             Worker w = db.newWorker()) {
            TransactionalTable t = db.createTable("t");
            w.run(tx -> {
                for (int i = 0; i < 10; i++) {
                    tx.put(t, key(i), amount(i));
                }
                return null;
            });
            Transaction tx = w.begin();
            tx.put(t, key(20), amount(20));
            tx.delete(t, key(4));
            List<Transaction.KeyValue> rows = tx.scanRange(t, key(3), key(100));
            List<Long> values = new ArrayList<>();
            rows.forEach(r -> values.add(amount(r.value())));
            assertEquals(List.of(3L, 5L, 6L, 7L, 8L, 9L, 20L), values);
            assertArrayEquals(key(3), rows.get(0).key());
            tx.abort();

            Transaction reader = w.begin();
            assertEquals(10, reader.scanRange(t, null, null).size());
            reader.put(t, key(7), amount(-7));
            Transaction writer = Transaction.begin();
            writer.put(t, key(5), amount(55));
            writer.commit();
            // Writing row 7 needs a timestamp after the version it read; at that timestamp row 5
            // no longer holds the value the scan returned.
            assertThrows(TransactionAbortedException.class, reader::commit);
        }
    }

    /** Concurrent transfers on two workers keep the total, live and after a crash. */
    @ParameterizedTest
    @ValueSource(strings = {"nlr", "nlr-group:4", "elr", "elr-group:4", "elr-swal"})
    void transfersKeepTheirTotalAcrossACrash(String protocol) throws Exception {
        LogProtocol p = LogProtocol.parse(protocol);
        int accounts = 20;
        TransactionalDatabase db = TransactionalDatabase.open(dir, p, Durability.NONE);
        TransactionalTable t = db.createTable("accounts");
        List<byte[][]> rows = new ArrayList<>();
        for (int i = 0; i < accounts; i++) {
            rows.add(new byte[][] {key(i), amount(100)});
        }
        db.load(t, rows);
        List<Thread> threads = new ArrayList<>();
        for (int n = 0; n < 2; n++) {
            Worker w = db.newWorker();
            threads.add(new Thread(() -> {
                ThreadLocalRandom r = ThreadLocalRandom.current();
                for (int i = 0; i < 2000; i++) {
                    int a = r.nextInt(accounts);
                    int b = (a + 1 + r.nextInt(accounts - 1)) % accounts;
                    w.execute(tx -> {
                        long x = amount(tx.get(t, key(a)));
                        long y = amount(tx.get(t, key(b)));
                        tx.put(t, key(a), amount(x - 1));
                        tx.put(t, key(b), amount(y + 1));
                    }, () -> { });
                }
                w.flush();
            }));
        }
        threads.forEach(Thread::start);
        for (Thread th : threads) {
            th.join();
        }
        assertEquals(accounts * 100L, total(db, accounts));
        db.crash();
        try (TransactionalDatabase again = TransactionalDatabase.open(dir, p, Durability.NONE)) {
            assertEquals(accounts * 100L, total(again, accounts));
        }
    }

    private static long total(TransactionalDatabase db, int accounts) {
        long sum = 0;
        for (int i = 0; i < accounts; i++) {
            sum += read(db, "accounts", i);
        }
        return sum;
    }

    @Test
    void aTableNamedNowhereIsReported() {
        try (TransactionalDatabase db = TransactionalDatabase.open(dir, LogProtocol.NLR, Durability.NONE)) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> db.table("missing"));
            assertTrue(e.getMessage().contains("missing"));
            assertNull(Transaction.begin().get(db.createTable("x"), key(1)));
        }
    }
}
