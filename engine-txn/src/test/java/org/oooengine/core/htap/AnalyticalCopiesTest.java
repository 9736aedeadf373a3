package org.oooengine.core.htap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.oooengine.core.store.Store;
import org.oooengine.core.store.StoreOptions;
import org.oooengine.core.store.Table;
import org.oooengine.core.store.TableDefinition;
import org.oooengine.core.txn.Durability;
import org.oooengine.core.txn.LogProtocol;
import org.oooengine.core.txn.TransactionalDatabase;
import org.oooengine.core.txn.TransactionalTable;
import org.oooengine.core.txn.Worker;
import org.oooengine.core.types.Column;
import org.oooengine.core.types.DataType;
import org.oooengine.core.types.KeyCodec;
import org.oooengine.core.types.RowCodec;
import org.oooengine.core.types.Schema;

/**
 * Transfers between accounts, with accounts opened and closed, while queries sum the balances in
 * the copy they pin: every sum is the total (no transfer half applied), and once the writers stop
 * both copies hold what the transactional table holds, row for row.
 */
class AnalyticalCopiesTest {
    private static final int ACCOUNTS = 200;
    private static final long OPENING_BALANCE = 1_000;
    private static final long TOTAL = ACCOUNTS * OPENING_BALANCE;
    private static final int TRANSFERS_PER_THREAD = 1500;
    private static final Schema SCHEMA = new Schema(List.of(new Column("id", DataType.BIGINT),
            new Column("balance", DataType.BIGINT), new Column("owner", DataType.varchar(20))));
    private static final TableDefinition ACCOUNTS_TABLE = new TableDefinition("accounts", SCHEMA, List.of("id"),
            List.of(new TableDefinition.IndexDefinition("by_balance", List.of("balance"))), true);
    private static final KeyCodec KEYS = new KeyCodec(new DataType[] {DataType.BIGINT});
    private static final RowCodec ROWS = new RowCodec(SCHEMA);
    /** Reads where they are asked for, in a small pool: the copies hold a few hundred rows. */
    private static final StoreOptions SMALL_STORE = StoreOptions.defaults().withIoThreads(0).withBufferPoolBytes(16 << 20);

    @TempDir
    Path dir;

    @Test
    void queriesNeverSeeATransferHalfAppliedAndBothCopiesEndEqualToTheTable() throws Exception {
        run(periodic(Duration.ofMillis(30)));
    }

    @Test
    void copiesSwitchedByFreshnessEndEqualToTheTable() throws Exception {
        run(AnalyticalCopies.Options.belowFreshness(0.95, SMALL_STORE));
    }

    /** A feed too small for the writers' pace overflows: the copies are built again and still end equal. */
    @Test
    void copiesBuiltAgainAfterTheFeedOverflowedEndEqualToTheTable() throws Exception {
        AnalyticalCopies.Options tiny = new AnalyticalCopies.Options(Duration.ofMillis(30), 0, 2, 1, SMALL_STORE);
        AnalyticalCopies copies = run(tiny);
        assertTrue(copies.rebuilds() > 0, "the feed of 2 commits never overflowed");
    }

    /** A switch moves new queries to the fresher copy; the copy a query still pins is written only after it is done. */
    @Test
    void aPinnedCopyIsNotWrittenUntilItsQueryIsDone() throws Exception {
        try (TransactionalDatabase db = TransactionalDatabase.open(dir.resolve("txn"), LogProtocol.NLR, Durability.NONE)) {
            TransactionalTable accounts = loadAccounts(db);
            try (AnalyticalCopies copies = startCopies(db, periodic(Duration.ofMillis(10))); Worker w = db.newWorker()) {
                AnalyticalCopies.Pin old = copies.pin();
                Map<Long, List<Object>> before = copyRows(old.store());
                w.run(tx -> {
                    tx.delete(accounts, KEYS.encode(7L));
                    return null;
                });
                long deadline = System.nanoTime() + 10_000_000_000L;
                while (copies.switches() == 0 && System.nanoTime() < deadline) {
                    Thread.sleep(5);
                }
                assertEquals(1, copies.switches());
                Thread.sleep(100); // time enough to write the old copy, were it not pinned
                assertTrue(before.equals(copyRows(old.store())), "a pinned copy was written");
                assertTrue(pinnedRows(old).containsKey(7L), "a query saw a delete committed after it began");
                try (AnalyticalCopies.Pin now = copies.pin()) {
                    assertTrue(!copyRows(now.store()).containsKey(7L), "the new read copy's trees show the delete");
                }
                w.run(tx -> { // owed to the pinned copy: new queries see it through the read copy's delta
                    tx.delete(accounts, KEYS.encode(8L));
                    return null;
                });
                assertTrue(copies.awaitFresh(Duration.ofSeconds(30)));
                Thread.sleep(100);
                assertEquals(1, copies.switches(), "switched to a copy that lacks a commit");
                try (AnalyticalCopies.Pin now = copies.pin()) {
                    assertEquals(tableRows(db), pinnedRows(now));
                }
                assertTrue(pinnedRows(old).containsKey(8L));
                old.close();
                awaitNothingOwed(copies);
                assertEquals(tableRows(db), copyRows(copies.applyingStore()));
            }
        }
    }

    /**
     * A query holding the copy the applier must write (it began before a switch) makes the commits
     * owed to that copy pile up in memory: past the feed's capacity the pair is built again, the
     * query still reads the copy it pinned, and new queries see every commit.
     */
    @Test
    void aQueryPinningTheApplyingCopyTooLongHasThePairBuiltAgain() throws Exception {
        AnalyticalCopies.Options fiveBehind = new AnalyticalCopies.Options(Duration.ofMillis(10), 0, 5, 1, SMALL_STORE);
        try (TransactionalDatabase db = TransactionalDatabase.open(dir.resolve("txn"), LogProtocol.NLR, Durability.NONE)) {
            TransactionalTable accounts = loadAccounts(db);
            try (AnalyticalCopies copies = startCopies(db, fiveBehind); Worker w = db.newWorker()) {
                AnalyticalCopies.Pin old = copies.pin();
                Map<Long, List<Object>> before = pinnedRows(old);
                long deadline = System.nanoTime() + 30_000_000_000L;
                for (long id = 0; copies.rebuilds() == 0 && System.nanoTime() < deadline; id = (id + 1) % ACCOUNTS) {
                    long emptied = id;
                    w.run(tx -> {
                        tx.put(accounts, KEYS.encode(emptied), ROWS.encode(new Object[] {emptied, 0L, "emptied"}));
                        return null;
                    });
                    assertTrue(copies.awaitFresh(Duration.ofSeconds(30))); // one at a time: the feed never overflows
                }
                assertTrue(copies.rebuilds() > 0, "the pair was never built again");
                assertEquals(before, pinnedRows(old), "a pinned copy changed under its query");
                try (AnalyticalCopies.Pin now = copies.pin()) {
                    assertEquals(tableRows(db), pinnedRows(now));
                }
                old.close();
            }
        }
    }

    /**
     * A two-phase transaction prepared here is one a pin does not show; once it commits, a pin
     * taken before it is extended past it (waiting for the copies to show it) and shows it, the
     * old pin still not.
     */
    @Test
    void aPinExtendedPastATwoPhaseCommitShowsIt() throws Exception {
        try (TransactionalDatabase db = TransactionalDatabase.open(dir.resolve("txn"), LogProtocol.NLR, Durability.NONE)) {
            TransactionalTable accounts = loadAccounts(db);
            try (AnalyticalCopies copies = startCopies(db, periodic(Duration.ofHours(1))); Worker w = db.newWorker()) {
                org.oooengine.core.txn.Transaction tx = w.begin();
                tx.put(accounts, KEYS.encode(7L), ROWS.encode(new Object[] {7L, 0L, "emptied"}));
                org.oooengine.core.txn.TransactionId id = org.oooengine.core.txn.TransactionId.next();
                w.prepare(tx, id, w.lock(tx), "elsewhere");
                AnalyticalCopies.Pin before = copies.pin();
                assertEquals(java.util.Set.of(id), before.unshown());
                assertEquals(java.util.Set.of(), before.shows(List.of(id)));
                Thread learns = new Thread(() -> {
                    try {
                        Thread.sleep(100);
                    } catch (InterruptedException e) {
                        return;
                    }
                    w.commitPrepared(id);
                });
                learns.start();
                AnalyticalCopies.Pin after = before.extendedTo(List.of(id), Duration.ofSeconds(30));
                learns.join();
                assertEquals(java.util.Set.of(id), after.shows(List.of(id)));
                assertEquals(java.util.Set.of(), after.unshown());
                assertEquals(java.util.Set.of(id), before.unshown(), "shown after the first pin");
                assertEquals(0L, pinnedRows(after).get(7L).get(1));
                assertEquals(OPENING_BALANCE, pinnedRows(before).get(7L).get(1));
                before.close();
                after.close();
            }
        }
    }

    /**
     * Without a switch, a query sees every commit the applier took before it began, merged into
     * the read copy's trees: rows added before, between and after the trees' keys, changed and
     * deleted; and none taken after it began.
     */
    @Test
    void aQuerySeesCommitsTakenBeforeItBeganWithoutASwitch() throws Exception {
        try (TransactionalDatabase db = TransactionalDatabase.open(dir.resolve("txn"), LogProtocol.NLR, Durability.NONE)) {
            TransactionalTable accounts = loadAccounts(db);
            try (AnalyticalCopies copies = startCopies(db, periodic(Duration.ofHours(1))); Worker w = db.newWorker()) {
                assertEquals(List.of(new Freshness("t_accounts", ACCOUNTS, 0, 1.0, 0)), copies.freshness());
                AnalyticalCopies.Pin before = copies.pin();
                w.run(tx -> {
                    for (long id : new long[] {-5, 1_000_000}) {
                        tx.put(accounts, KEYS.encode(id), ROWS.encode(new Object[] {id, 0L, "new"}));
                    }
                    tx.delete(accounts, KEYS.encode(60L));
                    tx.delete(accounts, KEYS.encode(61L));
                    return null;
                });
                w.run(tx -> {
                    tx.put(accounts, KEYS.encode(61L), ROWS.encode(new Object[] {61L, 7L, "reopened"}));
                    tx.put(accounts, KEYS.encode(3L), ROWS.encode(new Object[] {3L, 0L, "emptied"}));
                    return null;
                });
                assertTrue(copies.awaitFresh(Duration.ofSeconds(30)));
                AnalyticalCopies.Pin after = copies.pin();
                w.run(tx -> {
                    tx.delete(accounts, KEYS.encode(3L));
                    return null;
                });
                Map<Long, List<Object>> seen = pinnedRows(after);
                assertTrue(copies.awaitFresh(Duration.ofSeconds(30)));
                assertEquals(0, copies.switches());
                assertEquals(ACCOUNTS, pinnedRows(before).size(), "a query saw commits made after it began");
                assertEquals(List.of(61L, 7L, "reopened"), seen.get(61L));
                assertEquals(List.of(3L, 0L, "emptied"), seen.get(3L));
                assertTrue(!seen.containsKey(60L) && seen.containsKey(-5L) && seen.containsKey(1_000_000L), seen.keySet().toString());
                assertEquals(ACCOUNTS + 1, seen.size());
                before.close();
                after.close();
                try (AnalyticalCopies.Pin now = copies.pin()) {
                    assertEquals(tableRows(db), pinnedRows(now));
                }
                assertEquals(List.of(new Freshness("t_accounts", ACCOUNTS, 0, 1.0, 0)), copies.freshness());
                Freshness trees = copies.treesFreshness().get(0); // what log shipping has yet to write into them
                assertEquals(ACCOUNTS, trees.rows(), trees.toString());
                assertEquals(5, trees.staleRows(), "keys -5, 1000000, 60, 61 and 3 changed: " + trees);
            }
        }
    }

    /**
     * Read as the seed reads its copies, the read copy's trees alone: a commit the applier took
     * stays unseen, and counts as stale, until the copies switch; then queries see it.
     */
    @Test
    void queriesReadingTreesOnlySeeACommitOnceTheCopiesSwitch() throws Exception {
        try (TransactionalDatabase db = TransactionalDatabase.open(dir.resolve("txn"), LogProtocol.NLR, Durability.NONE)) {
            TransactionalTable accounts = loadAccounts(db);
            try (AnalyticalCopies copies = startCopies(db, periodic(Duration.ofHours(1))); Worker w = db.newWorker()) {
                copies.reconfigure(AnalyticalCopies.Rule.every(Duration.ofHours(1)).readingTreesOnly());
                w.run(tx -> {
                    tx.put(accounts, KEYS.encode(3L), ROWS.encode(new Object[] {3L, 0L, "emptied"}));
                    return null;
                });
                assertTrue(copies.awaitFresh(Duration.ofSeconds(30)));
                try (AnalyticalCopies.Pin pin = copies.pin()) {
                    assertEquals(OPENING_BALANCE, pinnedRows(pin).get(3L).get(1), "a query read the delta");
                }
                Freshness stale = copies.freshness().get(0);
                assertEquals(1, stale.staleRows(), stale.toString());
                assertTrue(stale.lagSeconds() > 0, stale.toString());

                copies.reconfigure(AnalyticalCopies.Rule.every(Duration.ofMillis(10)).readingTreesOnly());
                long deadline = System.nanoTime() + 30_000_000_000L;
                while (copies.freshness().get(0).staleRows() > 0 && System.nanoTime() < deadline) {
                    Thread.sleep(5);
                }
                assertTrue(copies.switches() > 0);
                assertEquals(1.0, copies.freshness().get(0).rate(), copies.freshness()::toString);
                try (AnalyticalCopies.Pin pin = copies.pin()) {
                    assertEquals(tableRows(db), pinnedRows(pin));
                }
            }
        }
    }

    /** Whether a pin of {@code copies} reads what the table holds now. */
    private static boolean servesTable(AnalyticalCopies copies, TransactionalDatabase db) throws Exception {
        try (AnalyticalCopies.Pin pin = copies.pin()) {
            return tableRows(db).equals(pinnedRows(pin));
        }
    }

    /** Copies that ship no commits stay as built and say how stale they are; shipping again builds them anew. */
    @Test
    void copiesThatShipNothingGoStaleAndAreBuiltAgainWhenShippingResumes() throws Exception {
        try (TransactionalDatabase db = TransactionalDatabase.open(dir.resolve("txn"), LogProtocol.NLR, Durability.NONE)) {
            TransactionalTable accounts = loadAccounts(db);
            try (AnalyticalCopies copies = startCopies(db, periodic(Duration.ofMillis(10))); Worker w = db.newWorker()) {
                copies.reconfigure(AnalyticalCopies.Rule.frozen());
                for (long id : new long[] {3, 4, 3}) {
                    w.run(tx -> {
                        tx.put(accounts, KEYS.encode(id), ROWS.encode(new Object[] {id, 0L, "emptied"}));
                        return null;
                    });
                }
                long deadline = System.nanoTime() + 10_000_000_000L;
                while (copies.passedOver() < 3 && System.nanoTime() < deadline) {
                    Thread.sleep(5);
                }
                Freshness f = copies.freshness().get(0);
                assertEquals(2, f.staleRows(), f.toString());
                assertEquals(1 - 2.0 / ACCOUNTS, f.rate(), 1e-9);
                assertTrue(f.lagSeconds() > 0, f.toString());
                try (AnalyticalCopies.Pin pin = copies.pin()) {
                    assertEquals(OPENING_BALANCE, pinnedRows(pin).get(3L).get(1));
                }
                copies.reconfigure(AnalyticalCopies.Rule.every(Duration.ofMillis(10)));
                // rebuilt, then served once the copies next switch: a busy machine may put that a moment after the count
                deadline = System.nanoTime() + 30_000_000_000L;
                while ((copies.rebuilds() == 0 || copies.freshness().get(0).rate() < 1.0 || !servesTable(copies, db))
                        && System.nanoTime() < deadline) {
                    Thread.sleep(5);
                }
                assertTrue(copies.rebuilds() > 0);
                try (AnalyticalCopies.Pin pin = copies.pin()) {
                    assertEquals(tableRows(db), pinnedRows(pin));
                }
                assertEquals(1.0, copies.freshness().get(0).rate());
            }
        }
    }

    /**
     * The process dies while commits are being applied: the copies started after recovery are built
     * from the recovered tables and equal them, with every transfer whole.
     */
    @Test
    void copiesStartedAfterACrashDuringLogApplyEqualTheRecoveredTable() throws Exception {
        AnalyticalCopies.Options options = periodic(Duration.ofMillis(20));
        TransactionalDatabase db = TransactionalDatabase.open(dir.resolve("txn"), LogProtocol.nlrGroup(8), Durability.NONE);
        TransactionalTable accounts = loadAccounts(db);
        AnalyticalCopies copies = startCopies(db, options);
        Worker w = db.newWorker();
        Thread writer = new Thread(() -> {
            try {
                transfer(w, accounts, 42);
            } catch (RuntimeException e) {
                // the database died under it
            }
        });
        writer.start();
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (copies.applied() < TRANSFERS_PER_THREAD / 3 && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        org.oooengine.core.txn.Crashes.crash(db);
        writer.join();
        copies.close();

        try (TransactionalDatabase recovered = TransactionalDatabase.open(dir.resolve("txn"), LogProtocol.nlrGroup(8),
                Durability.NONE);
             AnalyticalCopies again = startCopies(recovered, options)) {
            assertTrue(again.awaitFresh(Duration.ofSeconds(30)));
            Map<Long, List<Object>> table = tableRows(recovered);
            assertTrue(table.size() >= ACCOUNTS);
            try (AnalyticalCopies.Pin pin = again.pin()) {
                assertEquals(table, pinnedRows(pin));
                assertEquals(TOTAL, sum(pin));
            }
            awaitNothingOwed(again);
            assertEquals(table, copyRows(again.applyingStore()));
        }
    }

    private static AnalyticalCopies.Options periodic(Duration every) {
        return AnalyticalCopies.Options.periodic(every, SMALL_STORE);
    }

    private AnalyticalCopies startCopies(TransactionalDatabase db, AnalyticalCopies.Options options) {
        return AnalyticalCopies.start(dir.resolve("copies"), db, Map.of("t_accounts", ACCOUNTS_TABLE), options);
    }

    private static TransactionalTable loadAccounts(TransactionalDatabase db) {
        TransactionalTable accounts = db.createTable("t_accounts");
        List<byte[][]> rows = new ArrayList<>();
        for (long id = 0; id < ACCOUNTS; id++) {
            rows.add(new byte[][] {KEYS.encode(id), ROWS.encode(new Object[] {id, OPENING_BALANCE, "owner " + id})});
        }
        db.load(accounts, rows);
        return accounts;
    }

    private AnalyticalCopies run(AnalyticalCopies.Options options) throws Exception {
        try (TransactionalDatabase db = TransactionalDatabase.open(dir.resolve("txn"), LogProtocol.nlrGroup(8),
                Durability.NONE)) {
            TransactionalTable accounts = loadAccounts(db);
            AnalyticalCopies copies = startCopies(db, options);
            try (copies) {
                AtomicBoolean writing = new AtomicBoolean(true);
                AtomicLong sums = new AtomicLong();
                AtomicReference<String> wrong = new AtomicReference<>();
                Thread reader = new Thread(() -> {
                    while (writing.get() && wrong.get() == null) {
                        try (AnalyticalCopies.Pin pin = copies.pin()) {
                            long sum = sum(pin);
                            if (sum != TOTAL) {
                                wrong.set("a query summed " + sum + " instead of " + TOTAL);
                            }
                            sums.incrementAndGet();
                        }
                    }
                });
                reader.start();
                List<Thread> writers = new ArrayList<>();
                for (int n = 0; n < 2; n++) {
                    Worker w = db.newWorker();
                    long seed = n;
                    writers.add(new Thread(() -> {
                        try (w) {
                            transfer(w, accounts, seed);
                        }
                    }));
                }
                writers.forEach(Thread::start);
                for (Thread t : writers) {
                    t.join();
                }
                writing.set(false);
                reader.join();
                assertEquals(null, wrong.get());
                assertTrue(sums.get() > 0);
                assertTrue(copies.awaitFresh(Duration.ofSeconds(60)), "the read copy did not catch up");
                long deadline = System.nanoTime() + 30_000_000_000L; // the applier catches up, then they switch
                while (copies.switches() + copies.rebuilds() == 0 && System.nanoTime() < deadline) {
                    Thread.sleep(5);
                }
                assertTrue(copies.switches() + copies.rebuilds() > 0, "the copies never switched");
                Map<Long, List<Object>> table = tableRows(db);
                try (AnalyticalCopies.Pin pin = copies.pin()) {
                    assertEquals(table, pinnedRows(pin));
                }
                awaitNothingOwed(copies);
                assertEquals(table, copyRows(copies.applyingStore()));
                for (Freshness f : copies.freshness()) {
                    assertEquals(1.0, f.rate(), f.toString());
                    assertEquals(table.size(), f.rows(), f.toString());
                }
            }
            return copies;
        }
    }

    /**
     * Moves money between accounts; now and then opens an account with money taken from another,
     * or closes one opened so, giving its money back: the total never changes.
     */
    private static void transfer(Worker w, TransactionalTable accounts, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        long nextOpened = 1_000_000 * (seed + 1);
        List<Long> opened = new ArrayList<>();
        for (int i = 0; i < TRANSFERS_PER_THREAD; i++) {
            long from = r.nextInt(ACCOUNTS);
            int op = r.nextInt(10);
            if (op == 0) {
                long id = nextOpened++;
                opened.add(id);
                w.run(tx -> {
                    Object[] f = ROWS.decode(tx.get(accounts, KEYS.encode(from)));
                    f[1] = (Long) f[1] - 10;
                    tx.put(accounts, KEYS.encode(from), ROWS.encode(f));
                    tx.put(accounts, KEYS.encode(id), ROWS.encode(new Object[] {id, 10L, "opened " + id}));
                    return null;
                });
            } else if (op == 1 && !opened.isEmpty()) {
                long id = opened.remove(opened.size() - 1);
                w.run(tx -> {
                    Object[] closed = ROWS.decode(tx.get(accounts, KEYS.encode(id)));
                    Object[] f = ROWS.decode(tx.get(accounts, KEYS.encode(from)));
                    f[1] = (Long) f[1] + (Long) closed[1];
                    tx.put(accounts, KEYS.encode(from), ROWS.encode(f));
                    tx.delete(accounts, KEYS.encode(id));
                    return null;
                });
            } else {
                long to = r.nextInt(ACCOUNTS);
                long amount = 1 + r.nextInt(50);
                w.run(tx -> {
                    Object[] f = ROWS.decode(tx.get(accounts, KEYS.encode(from)));
                    f[1] = (Long) f[1] - amount;
                    tx.put(accounts, KEYS.encode(from), ROWS.encode(f));
                    Object[] t = ROWS.decode(tx.get(accounts, KEYS.encode(to)));
                    t[1] = (Long) t[1] + amount;
                    tx.put(accounts, KEYS.encode(to), ROWS.encode(t));
                    return null;
                });
            }
        }
    }

    /** The balances a query reading {@code pin} sums. */
    private static long sum(AnalyticalCopies.Pin pin) {
        long[] sum = {0};
        pin.scan("accounts", row -> {
            sum[0] += (Long) row[1];
            return true;
        });
        return sum[0];
    }

    /** The rows a query reading {@code pin} sees: the copy's trees with the commits they lack merged in. */
    private static Map<Long, List<Object>> pinnedRows(AnalyticalCopies.Pin pin) {
        Map<Long, List<Object>> rows = new TreeMap<>();
        long[] last = {Long.MIN_VALUE};
        pin.scan("accounts", row -> {
            assertTrue((Long) row[0] > last[0], "rows out of key order at " + row[0]);
            last[0] = (Long) row[0];
            rows.put((Long) row[0], List.of(row));
            return true;
        });
        return rows;
    }

    private static void awaitNothingOwed(AnalyticalCopies copies) throws InterruptedException {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (copies.owed() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertEquals(0, copies.owed(), "commits still owed to the applying copy");
    }

    /** The rows of a copy's trees alone, checked against its secondary index. */
    private static Map<Long, List<Object>> copyRows(Store store) {
        Map<Long, List<Object>> rows = new TreeMap<>();
        Table t = store.table("accounts");
        t.tree().scan(new byte[0], null, (leaf, slot) -> {
            Object[] row = t.rowAt(leaf, slot);
            rows.put((Long) row[0], List.of(row));
            return true;
        }).join();
        long[] indexed = {0};
        t.index("by_balance").tree().scan(new byte[0], null, (leaf, slot) -> ++indexed[0] > 0).join();
        assertEquals(rows.size(), indexed[0], "index entries");
        return rows;
    }

    private static Map<Long, List<Object>> tableRows(TransactionalDatabase db) {
        Map<Long, List<Object>> rows = new TreeMap<>();
        db.readRows("t_accounts", (k, v) -> {
            Object[] row = ROWS.decode(v);
            rows.put((Long) row[0], List.of(row));
        });
        return rows;
    }
}
