package org.oooengine.core.txn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.oooengine.core.txn.DependencyGraph.key;
import static org.oooengine.core.txn.DependencyGraph.keyOf;
import static org.oooengine.core.txn.DependencyGraph.version;
import static org.oooengine.core.txn.DependencyGraph.writerOf;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Commits shipped to a feed come in an order their dependencies allow, and a copy started from the
 * rows and the feed ends equal to the table, whenever it was started.
 */
class CommitFeedTest {
    private static final int KEYS = 16;
    private static final int PER_THREAD = 2000;

    @TempDir
    Path dir;

    /**
     * Read-modify-write transactions on a few hot keys, 2 threads. Every commit in the feed follows
     * the writers of the versions it read (write-read) and of those it replaced (write-write), and
     * the feed applied to the load reproduces the table.
     */
    @ParameterizedTest
    @ValueSource(strings = {"nlr", "nlr-group:8", "elr", "elr-group:8", "elr-swal"})
    void commitsComeAfterWhatTheyReadAndReplaced(String protocol) throws Exception {
        try (TransactionalDatabase db = TransactionalDatabase.open(dir, LogProtocol.parse(protocol), Durability.NONE)) {
            TransactionalTable t = db.createTable("rmw");
            db.load(t, initialRows());
            Map<Long, Map<Integer, Long>> readsOf = new ConcurrentHashMap<>();
            try (CommitFeed feed = db.openCommitFeed(1_000_000)) {
                runWorkers(db, t, readsOf, new AtomicBoolean());
                List<ShippedCommit> shipped = feed.poll(Integer.MAX_VALUE, 1, TimeUnit.SECONDS);
                assertEquals(0, feed.backlog());

                Map<Long, Integer> position = new HashMap<>();
                position.put(DependencyGraph.INITIAL, -1);
                Map<Integer, Long> current = new HashMap<>();
                for (int k = 0; k < KEYS; k++) {
                    current.put(k, DependencyGraph.INITIAL);
                }
                for (int i = 0; i < shipped.size(); i++) {
                    ShippedCommit c = shipped.get(i);
                    long id = writerOf(c.changes().get(0).value());
                    position.put(id, i);
                    Map<Integer, Long> read = readsOf.get(id);
                    for (Map.Entry<Integer, Long> r : read.entrySet()) {
                        Integer writer = position.get(r.getValue());
                        assertTrue(writer != null && writer < i, "commit " + id + " read key " + r.getKey() + " as written by "
                                + r.getValue() + ", which was not shipped before it");
                    }
                    for (RowChange change : c.changes()) {
                        int k = keyOf(change.key());
                        assertEquals(read.get(k), current.get(k), "commit " + id + " replaced key " + k
                                + " but another version was shipped in between");
                        current.put(k, writerOf(change.value()));
                    }
                }
                assertEquals(tableAsMap(db), applied(initialMap(), shipped));
            }
        }
    }

    /** A copy started from the rows while writers run, then fed the commits shipped since, ends equal to the table. */
    @ParameterizedTest
    @ValueSource(strings = {"nlr", "nlr-group:8"})
    void aCopyStartedWhileWritersRunEndsEqualToTheTable(String protocol) throws Exception {
        try (TransactionalDatabase db = TransactionalDatabase.open(dir, LogProtocol.parse(protocol), Durability.NONE)) {
            TransactionalTable t = db.createTable("rmw");
            db.load(t, initialRows());
            AtomicBoolean copyStarted = new AtomicBoolean();
            Map<Integer, byte[]> copy = new TreeMap<>();
            List<ShippedCommit> shipped = new ArrayList<>();
            CommitFeed[] feed = new CommitFeed[1];
            Thread starter = new Thread(() -> {
                while (!copyStarted.get()) {
                    Thread.onSpinWait();
                }
                feed[0] = db.openCommitFeed(1_000_000);
                db.readRows("rmw", (k, v) -> copy.put(keyOf(k), v));
            });
            starter.start();
            runWorkers(db, t, new ConcurrentHashMap<>(), copyStarted);
            starter.join();
            try (CommitFeed f = feed[0]) {
                shipped.addAll(f.poll(Integer.MAX_VALUE, 1, TimeUnit.SECONDS));
            }
            assertTrue(!shipped.isEmpty() && shipped.size() < 2 * PER_THREAD, "started part way: " + shipped.size());
            assertEquals(tableAsMap(db), applied(copy, shipped));
        }
    }

    /**
     * A commit prepared here and learned later is shipped when it shows, with the prepared writes
     * and its transaction's id; each node counts it unshown (a cut across the nodes waits for it)
     * from its prepare or decision until its copies show it.
     */
    @Test
    void aTwoPhaseCommitIsShippedWhenItsParticipantLearnsIt() throws Exception {
        try (TransactionalDatabase a = TransactionalDatabase.open(dir.resolve("a"), LogProtocol.NLR, Durability.NONE);
             TransactionalDatabase b = TransactionalDatabase.open(dir.resolve("b"), LogProtocol.NLR, Durability.NONE);
             CommitFeed fa = a.openCommitFeed(16); CommitFeed fb = b.openCommitFeed(16);
             Worker wa = a.newWorker(); Worker wb = b.newWorker()) {
            TransactionalTable ta = a.createTable("t");
            TransactionalTable tb = b.createTable("t");
            Transaction xa = wa.begin();
            xa.put(ta, key(1), version(7));
            Transaction xb = wb.begin();
            xb.put(tb, key(2), version(7));
            TransactionId id = TransactionId.next();
            long ts = Math.max(wa.lock(xa), wb.lock(xb));
            wb.prepare(xb, id, ts, "a");
            assertEquals(0, fb.backlog(), "a vote is not a commit");
            assertTrue(b.isUnshown(id) && !a.isUnshown(id));
            wa.decide(xa, id, ts, List.of("b"));
            assertEquals(1, fa.backlog());
            assertTrue(a.isUnshown(id), "decided and shipped, not yet shown");
            assertTrue(wb.commitPrepared(id));
            ShippedCommit learned = fb.poll(10, 1, TimeUnit.SECONDS).get(0);
            assertEquals(ts, learned.commitTimestamp());
            assertEquals(id, learned.distributed());
            assertArrayEquals(key(2), learned.changes().get(0).key());
            ShippedCommit decided = fa.poll(10, 1, TimeUnit.SECONDS).get(0);
            assertEquals(ts, decided.commitTimestamp());
            assertEquals(id, decided.distributed());
            assertTrue(b.isUnshown(id));
            b.shown(id);
            assertTrue(!b.isUnshown(id));

            Transaction aborted = wb.begin();
            aborted.put(tb, key(3), version(1));
            TransactionId other = TransactionId.next();
            wb.prepare(aborted, other, wb.lock(aborted), "a");
            assertTrue(b.isUnshown(other));
            assertTrue(wb.abortPrepared(other));
            assertTrue(!b.isUnshown(other), "an aborted transaction is not waited for");
        }
    }

    /** A reader that falls more than the capacity behind is told so, and the feed keeps nothing meanwhile. */
    @Test
    void aFeedThatOverflowsSaysSo() throws Exception {
        try (TransactionalDatabase db = TransactionalDatabase.open(dir, LogProtocol.NLR, Durability.NONE);
             CommitFeed feed = db.openCommitFeed(4); Worker w = db.newWorker()) {
            TransactionalTable t = db.createTable("t");
            for (int i = 0; i < 5; i++) {
                int k = i;
                w.run(tx -> {
                    tx.put(t, key(k), version(k));
                    return null;
                });
            }
            assertTrue(feed.overflowed());
            assertEquals(0, feed.backlog());
            CommitFeed.FeedOverflowException e = assertThrows(CommitFeed.FeedOverflowException.class,
                    () -> feed.poll(10, 0, TimeUnit.SECONDS));
            assertTrue(e.getMessage().contains("more than 4 commits behind"), e.getMessage());
        }
    }

    private static void runWorkers(TransactionalDatabase db, TransactionalTable t, Map<Long, Map<Integer, Long>> readsOf,
                                   AtomicBoolean halfway) throws InterruptedException {
        List<Thread> threads = new ArrayList<>();
        for (int n = 0; n < 2; n++) {
            Worker w = db.newWorker();
            long base = (n + 1) * 1_000_000L;
            threads.add(new Thread(() -> {
                try (w) {
                    runWorker(w, t, base, readsOf, halfway);
                }
            }));
        }
        threads.forEach(Thread::start);
        for (Thread th : threads) {
            th.join();
        }
    }

    private static void runWorker(Worker w, TransactionalTable t, long base, Map<Long, Map<Integer, Long>> readsOf,
                                  AtomicBoolean halfway) {
        SplittableRandom r = new SplittableRandom(base);
        for (int i = 1; i <= PER_THREAD; i++) {
            if (i == PER_THREAD / 2) {
                halfway.set(true);
            }
            long id = base + i;
            int reads = 1 + r.nextInt(3);
            int writes = 1 + r.nextInt(reads);
            List<Integer> keys = new ArrayList<>();
            while (keys.size() < reads) {
                int k = r.nextInt(KEYS);
                if (!keys.contains(k)) {
                    keys.add(k);
                }
            }
            w.execute(tx -> {
                Map<Integer, Long> seen = new HashMap<>();
                for (int k : keys) {
                    seen.put(k, writerOf(tx.get(t, key(k))));
                }
                readsOf.put(id, seen); // the last attempt's, the one that commits
                for (int j = 0; j < writes; j++) {
                    tx.put(t, key(keys.get(j)), version(id));
                }
            }, () -> { });
        }
        w.flush();
    }

    private static List<byte[][]> initialRows() {
        List<byte[][]> rows = new ArrayList<>();
        initialMap().forEach((k, v) -> rows.add(new byte[][] {key(k), v}));
        return rows;
    }

    private static Map<Integer, byte[]> initialMap() {
        Map<Integer, byte[]> rows = new TreeMap<>();
        for (int k = 0; k < KEYS; k++) {
            rows.put(k, version(DependencyGraph.INITIAL));
        }
        return rows;
    }

    private static Map<Integer, Long> applied(Map<Integer, byte[]> start, List<ShippedCommit> commits) {
        Map<Integer, byte[]> rows = new TreeMap<>(start);
        for (ShippedCommit c : commits) {
            for (RowChange change : c.changes()) {
                if (change.isDelete()) {
                    rows.remove(keyOf(change.key()));
                } else {
                    rows.put(keyOf(change.key()), change.value());
                }
            }
        }
        Map<Integer, Long> out = new TreeMap<>();
        rows.forEach((k, v) -> out.put(k, writerOf(v)));
        return out;
    }

    private static Map<Integer, Long> tableAsMap(TransactionalDatabase db) {
        Map<Integer, Long> out = new TreeMap<>();
        db.readRows("rmw", (k, v) -> out.put(keyOf(k), writerOf(v)));
        return out;
    }
}
