package org.oooengine.core.htap;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.oooengine.core.storage.Directories;
import org.oooengine.core.store.Store;
import org.oooengine.core.store.StoreOptions;
import org.oooengine.core.store.TableDefinition;
import org.oooengine.core.txn.CommitFeed;
import org.oooengine.core.txn.RowChange;
import org.oooengine.core.txn.ShippedCommit;
import org.oooengine.core.txn.TransactionalDatabase;

/**
 * Two analytical copies of a node's transactional tables, kept in step by log shipping (seed
 * 000): queries read one copy, pinned, while an applier thread applies the shipped commits to the
 * other; they switch when the switching rule says so, the applier first waiting for the queries
 * pinning the copy it is about to write, then giving it the commits it missed. A query therefore
 * never sees a commit half applied, and both copies hold whole transactions in commit order.
 *
 * <p>The copies are derived data: they are built from the transactional rows when this starts and
 * again when the commit feed overflowed (the applier fell more than its capacity behind); the copy
 * queries read keeps serving, stale, until the new pair is ready.
 */
public final class AnalyticalCopies implements AutoCloseable {
    private static final Logger LOG = LogManager.getLogger(AnalyticalCopies.class);
    /** How long the applier waits for a commit before looking at the switching rule again. */
    private static final long POLL_MILLIS = 20;
    /** How often a switch waiting for readers says so. */
    private static final long SLOW_SWITCH_LOG_NANOS = TimeUnit.SECONDS.toNanos(10);

    /**
     * When the copies switch: every {@code switchEvery} (null: never by time; the static baseline
     * of the seed switches every 120 s), or as soon as the read copy's freshness of some table drops
     * below {@code switchBelowFreshness} (0: never by freshness; HTAL's β is 0.85).
     *
     * @param feedCapacity commits the applier may fall behind before the copies are built again
     * @param batchCommits commits applied, then flushed, at a time
     */
    public record Options(Duration switchEvery, double switchBelowFreshness, int feedCapacity, int batchCommits,
                          StoreOptions store) {
        public Options {
            if (switchEvery != null && (switchEvery.isNegative() || switchEvery.isZero())) {
                throw new IllegalArgumentException("copies switch every positive duration, not " + switchEvery);
            }
            if (switchBelowFreshness < 0 || switchBelowFreshness > 1) {
                throw new IllegalArgumentException("a freshness to switch below lies in [0, 1], not " + switchBelowFreshness);
            }
            if (batchCommits < 1) {
                throw new IllegalArgumentException("the applier applies at least one commit at a time, not " + batchCommits);
            }
        }

        /** The seed's static baseline: switch every {@code period}. */
        public static Options periodic(Duration period, StoreOptions store) {
            return new Options(period, 0, 1_000_000, 1024, store);
        }

        /** Switch when the read copy's freshness drops below {@code beta} (HTAL's rule). */
        public static Options belowFreshness(double beta, StoreOptions store) {
            return new Options(null, beta, 1_000_000, 1024, store);
        }
    }

    /** A copy with the queries pinning it. */
    private static final class Copy {
        final AnalyticalCopy data;
        final Path dir;
        final AtomicInteger pins = new AtomicInteger();

        Copy(AnalyticalCopy data, Path dir) {
            this.data = data;
            this.dir = dir;
        }
    }

    /** Which copy queries read and which the applier writes; replaced whole, so a reader sees one pair. */
    private record Roles(Copy reading, Copy applying) {
    }

    /** A query's hold on the copy it reads: the applier does not write it until closed. */
    public static final class Pin implements AutoCloseable {
        private final Copy copy;
        private boolean closed;

        private Pin(Copy copy) {
            this.copy = copy;
        }

        public Store store() {
            return copy.data.store();
        }

        @Override
        public void close() {
            if (!closed) {
                closed = true;
                copy.pins.decrementAndGet();
            }
        }
    }

    private final Path dir;
    private final TransactionalDatabase db;
    private final Map<String, TableDefinition> tables;
    private final Options options;
    private final Thread applier;
    private volatile Roles roles;
    private volatile CommitFeed feed;
    private volatile boolean stopping;
    private int generation;
    /** Applied to the applying copy since the last switch: what the read copy lacks, replayed on it after the next. */
    private final List<ShippedCommit> sinceSwitch = new ArrayList<>();
    /** Distinct keys of {@link #sinceSwitch}, by table. */
    private final Map<String, Set<ByteBuffer>> staleKeys = new HashMap<>();
    /** What {@link #freshness} reads of the applier's state: stale keys by table, and the oldest stale commit's time. */
    private volatile Map<String, Integer> staleCounts = Map.of();
    private volatile long oldestStaleNanos = -1;
    private long lastSwitchNanos = System.nanoTime();
    private final AtomicLong switches = new AtomicLong();
    private final AtomicLong applied = new AtomicLong();
    private final AtomicLong rebuilds = new AtomicLong();
    private final AtomicLong pins = new AtomicLong();

    private AnalyticalCopies(Path dir, TransactionalDatabase db, Map<String, TableDefinition> tables, Options options) {
        this.dir = dir;
        this.db = db;
        this.tables = Map.copyOf(tables);
        this.options = options;
        this.applier = new Thread(this::applyUntilStopped, "ooo-log-apply");
        this.applier.setDaemon(true);
    }

    /**
     * Builds both copies in {@code dir} of the transactional tables {@code tables} names (each
     * as its definition says) and starts applying commits; returns once queries can read a copy.
     */
    public static AnalyticalCopies start(Path dir, TransactionalDatabase db, Map<String, TableDefinition> tables,
                                         Options options) {
        AnalyticalCopies copies = new AnalyticalCopies(dir, db, tables, options);
        Directories.deleteRecursively(dir); // what an earlier run left is rebuilt, never trusted
        copies.buildPair();
        copies.applier.start();
        return copies;
    }

    /** Pins the copy queries read now; close the pin when the query is done with it. */
    public Pin pin() {
        while (true) {
            Roles r = roles;
            if (r == null) {
                throw new IllegalStateException("the analytical copies are closed");
            }
            r.reading.pins.incrementAndGet();
            if (roles == r) {
                pins.incrementAndGet();
                return new Pin(r.reading);
            }
            r.reading.pins.decrementAndGet(); // switched meanwhile: pin the new one
        }
    }

    /** Each copied table's freshness in the copy queries read now. */
    public List<Freshness> freshness() {
        Roles r = roles;
        Map<String, Integer> stale = new HashMap<>(staleCounts);
        CommitFeed f = feed;
        long oldest = oldestStaleNanos;
        if (f != null) {
            f.forEachWaiting(c -> c.changes().forEach(ch -> stale.merge(ch.table(), 1, Integer::sum)));
            if (oldest < 0) {
                oldest = f.oldestWaitingNanos();
            }
        }
        double lag = oldest < 0 ? 0 : Math.max(0, (System.nanoTime() - oldest) / 1e9);
        List<Freshness> out = new ArrayList<>();
        for (String t : new java.util.TreeSet<>(tables.keySet())) {
            long rows = r == null ? 0 : r.reading.data.rows(t);
            int s = stale.getOrDefault(t, 0);
            out.add(Freshness.of(t, rows, s, s == 0 ? 0 : lag));
        }
        return out;
    }

    /** Times the copies switched roles. */
    public long switches() {
        return switches.get();
    }

    /** Commits applied to a copy (each counted once, when it first reached one). */
    public long applied() {
        return applied.get();
    }

    /** Times a query pinned a copy to read it. */
    public long reads() {
        return pins.get();
    }

    /** Times the pair was built again after the feed overflowed. */
    public long rebuilds() {
        return rebuilds.get();
    }

    /**
     * Waits until the copy queries read shows every commit made before this call (for tests and a
     * statement that asks for it); false when {@code timeout} passed first.
     */
    public boolean awaitFresh(Duration timeout) throws InterruptedException {
        ReadProgress before = progress;
        long target = before.feed().offered();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            ReadProgress now = progress;
            // a pair built since was built from rows read after this call
            if (now.feed() != before.feed() || now.shows() >= target) {
                return true;
            }
            Thread.sleep(5);
        }
        return false;
    }

    /** How many commits of {@code feed} the copy queries read shows. */
    private record ReadProgress(CommitFeed feed, long shows) {
    }

    private volatile ReadProgress progress;

    /** The copy the applier writes (for tests, while it is idle). */
    Store applyingStore() {
        return roles.applying.data.store();
    }

    // ---- the applier thread ----

    private void applyUntilStopped() {
        long consumed = 0; // of the current feed
        while (!stopping) {
            try {
                List<ShippedCommit> batch = feed.poll(options.batchCommits(), POLL_MILLIS, TimeUnit.MILLISECONDS);
                if (!batch.isEmpty()) {
                    roles.applying.data.apply(batch);
                    applied.addAndGet(batch.size());
                    consumed += batch.size();
                    remember(batch);
                }
                if (shouldSwitch()) {
                    switchRoles();
                }
                long shows = consumed - sinceSwitch.size();
                if (shows != progress.shows()) {
                    progress = new ReadProgress(feed, shows);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
                if (stopping) {
                    return;
                }
                if (e instanceof CommitFeed.FeedOverflowException) {
                    LOG.warn("log apply fell more than {} commits behind: building both analytical copies again",
                            options.feedCapacity());
                } else {
                    LOG.error("log apply failed: building both analytical copies again", e);
                }
                consumed = rebuild();
            }
        }
    }

    /** Builds the pair again until it works or this stops; returns the new feed's commits applied. */
    private long rebuild() {
        while (!stopping) {
            try {
                return buildPair();
            } catch (RuntimeException e) {
                LOG.error("building the analytical copies failed; trying again in 1 s", e);
                java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.SECONDS.toNanos(1));
            }
        }
        return 0;
    }

    private void remember(List<ShippedCommit> batch) {
        if (sinceSwitch.isEmpty()) {
            oldestStaleNanos = batch.get(0).visibleAtNanos();
        }
        sinceSwitch.addAll(batch);
        for (ShippedCommit c : batch) {
            for (RowChange ch : c.changes()) {
                if (tables.containsKey(ch.table())) {
                    staleKeys.computeIfAbsent(ch.table(), t -> new HashSet<>()).add(ByteBuffer.wrap(ch.key()));
                }
            }
        }
        Map<String, Integer> counts = new HashMap<>();
        staleKeys.forEach((t, keys) -> counts.put(t, keys.size()));
        staleCounts = counts;
    }

    private boolean shouldSwitch() {
        if (sinceSwitch.isEmpty()) {
            return false;
        }
        if (options.switchEvery() != null && System.nanoTime() - lastSwitchNanos >= options.switchEvery().toNanos()) {
            return true;
        }
        if (options.switchBelowFreshness() > 0) {
            Roles r = roles;
            for (Map.Entry<String, Integer> e : staleCounts.entrySet()) {
                if (Freshness.of(e.getKey(), r.reading.data.rows(e.getKey()), e.getValue(), 0).rate()
                        < options.switchBelowFreshness()) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * Queries move to the applying copy; once the last query pinning the other is done, it gets
     * the commits it missed and becomes the applying copy.
     */
    private void switchRoles() {
        Roles before = roles;
        roles = new Roles(before.applying, before.reading);
        switches.incrementAndGet();
        lastSwitchNanos = System.nanoTime();
        // the copy queries read now shows every commit: fresh, even while the other waits for its pins
        staleKeys.clear();
        staleCounts = Map.of();
        oldestStaleNanos = -1;
        if (!waitUntilUnpinned(before.reading, false)) {
            return; // stopping
        }
        before.reading.data.apply(sinceSwitch);
        sinceSwitch.clear();
    }

    /** Waits until no query pins {@code copy}; false when this stops first, unless {@code evenWhenStopping}. */
    private boolean waitUntilUnpinned(Copy copy, boolean evenWhenStopping) {
        long start = System.nanoTime();
        long nextLog = start + SLOW_SWITCH_LOG_NANOS;
        while (copy.pins.get() > 0) {
            if (stopping && !evenWhenStopping) {
                return false;
            }
            java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
            if (System.nanoTime() > nextLog) {
                LOG.warn("the analytical copy {} has waited {} s for {} queries still reading it", copy.dir.getFileName(),
                        (System.nanoTime() - start) / 1_000_000_000, copy.pins.get());
                nextLog += SLOW_SWITCH_LOG_NANOS;
            }
        }
        return true;
    }

    /**
     * Builds a new pair from the transactional rows and a new feed, brings both up to the feed's
     * count after the rows were read (from then on each holds whole transactions), then serves it.
     */
    private long buildPair() {
        while (true) {
            CommitFeed next = db.openCommitFeed(options.feedCapacity());
            int gen = ++generation;
            Copy a = null;
            Copy b = null;
            try {
                a = buildCopy(gen, "a");
                b = buildCopy(gen, "b");
                long target = next.offered();
                long consumed = 0;
                while (consumed < target) {
                    List<ShippedCommit> batch = next.poll(options.batchCommits(), POLL_MILLIS, TimeUnit.MILLISECONDS);
                    a.data.apply(batch);
                    b.data.apply(batch);
                    consumed += batch.size();
                }
                applied.addAndGet(consumed);
                serve(next, a, b, consumed);
                return consumed;
            } catch (CommitFeed.FeedOverflowException e) {
                LOG.warn("commits came faster than the analytical copies were built; building them again");
                next.close();
                closeQuietly(a);
                closeQuietly(b);
            } catch (InterruptedException e) {
                next.close();
                closeQuietly(a);
                closeQuietly(b);
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while building the analytical copies", e);
            } catch (RuntimeException e) {
                next.close();
                closeQuietly(a);
                closeQuietly(b);
                throw e;
            }
        }
    }

    private Copy buildCopy(int gen, String name) {
        Path d = dir.resolve("copy-" + gen + "-" + name);
        long t0 = System.nanoTime();
        AnalyticalCopy c = AnalyticalCopy.build(d, db, tables, options.store());
        LOG.info("built analytical copy {} of {} tables in {} ms", d.getFileName(), tables.size(),
                (System.nanoTime() - t0) / 1_000_000);
        return new Copy(c, d);
    }

    /** Serves a newly built pair; the pair it replaces goes once no query pins it. */
    private void serve(CommitFeed next, Copy reading, Copy applying, long consumed) {
        Roles old = roles;
        if (old != null) {
            rebuilds.incrementAndGet(); // before the new pair shows: whoever sees it sees it counted
        }
        CommitFeed oldFeed = feed;
        feed = next;
        roles = new Roles(reading, applying);
        progress = new ReadProgress(next, consumed);
        sinceSwitch.clear();
        staleKeys.clear();
        staleCounts = Map.of();
        oldestStaleNanos = -1;
        lastSwitchNanos = System.nanoTime();
        if (oldFeed != null) {
            oldFeed.close();
        }
        if (old != null) {
            waitUntilUnpinned(old.reading, true);
            for (Copy c : List.of(old.reading, old.applying)) {
                closeQuietly(c);
                Directories.deleteRecursively(c.dir);
            }
        }
    }

    private static void closeQuietly(Copy c) {
        if (c != null) {
            try {
                c.data.close();
            } catch (RuntimeException e) {
                LOG.warn("closing analytical copy {} failed", c.dir, e);
            }
        }
    }

    /** Stops applying, and closes the copies once no query pins them. */
    @Override
    public void close() {
        stopping = true;
        applier.interrupt();
        try {
            applier.join(TimeUnit.SECONDS.toMillis(30));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        Roles r = roles;
        roles = null;
        CommitFeed f = feed;
        if (f != null) {
            f.close();
        }
        if (r != null) {
            waitUntilUnpinned(r.reading, true);
            closeQuietly(r.reading);
            closeQuietly(r.applying);
        }
    }
}
