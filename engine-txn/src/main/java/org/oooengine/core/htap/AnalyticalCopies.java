package org.oooengine.core.htap;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
import org.oooengine.core.txn.ShippedCommit;
import org.oooengine.core.txn.TransactionId;
import org.oooengine.core.txn.TransactionalDatabase;

/**
 * Two analytical copies of a node's transactional tables, kept in step by log shipping (seed
 * 000): queries read one copy, pinned, while an applier thread applies the shipped commits to the
 * other's B+trees. The read copy's trees lag; the commits they lack are held in a {@link
 * CopyDelta} that its scans merge in, so a query sees a commit as soon as the applier takes it
 * from the feed, and as whole commits only. The copies switch when the switching rule says so (the
 * delta has grown, or time has passed): queries move to the copy the applier wrote, whose trees
 * hold every commit, and the applier gives the other the commits it missed once the last query
 * pinning it is done, taking new commits meanwhile. Both copies hold whole transactions in commit
 * order.
 *
 * <p>The copies are derived data: they are built from the transactional rows when this starts and
 * again when they fall more than the feed's capacity behind: the feed overflowed, or a query pinned
 * the applying copy so long that the commits owed to it (held in memory, as is the read copy's
 * delta) passed that capacity. The copy queries read keeps serving, stale, until the new pair is
 * ready; a replaced copy is closed once the last query pinning it is done.
 */
public final class AnalyticalCopies implements AutoCloseable {
    private static final Logger LOG = LogManager.getLogger(AnalyticalCopies.class);
    /** How long the applier waits for a commit before looking at the switching rule again. */
    private static final long POLL_MILLIS = 20;
    /** How often a close waiting for readers says so. */
    private static final long SLOW_CLOSE_LOG_NANOS = TimeUnit.SECONDS.toNanos(10);

    /**
     * When the copies switch: every {@code switchEvery} (null: never by time; the static baseline
     * of the seed switches every 120 s), or as soon as the read copy's trees alone are less fresh
     * than {@code switchBelowFreshness} for some table, its delta holding changes to more than the
     * rest of its rows (0: never by freshness; HTAL's β is 0.85). Queries see the delta either way;
     * switching keeps it, and the merge it costs scans, small. Without {@code ships}, commits are
     * not shipped at all and the copies stay as built (the seed's decoupled storage without
     * shipping): freshness falls with every commit. With {@code treesOnly}, queries read the read
     * copy's trees alone, as the seed reads its copies: the commits since the last switch stay
     * unseen (and stale) until the next.
     */
    public record Rule(Duration switchEvery, double switchBelowFreshness, boolean ships, boolean treesOnly) {
        public Rule(Duration switchEvery, double switchBelowFreshness, boolean ships) {
            this(switchEvery, switchBelowFreshness, ships, false);
        }

        public Rule {
            if (switchEvery != null && (switchEvery.isNegative() || switchEvery.isZero())) {
                throw new IllegalArgumentException("copies switch every positive duration, not " + switchEvery);
            }
            if (switchBelowFreshness < 0 || switchBelowFreshness > 1) {
                throw new IllegalArgumentException("a freshness to switch below lies in [0, 1], not " + switchBelowFreshness);
            }
        }

        /** The seed's static baseline: switch every {@code period}. */
        public static Rule every(Duration period) {
            return new Rule(period, 0, true);
        }

        /** HTAL's: switch when the read copy's trees are less fresh than {@code beta}. */
        public static Rule belowFreshness(double beta) {
            return new Rule(null, beta, true);
        }

        /** No shipping: the copies stay as built. */
        public static Rule frozen() {
            return new Rule(null, 0, false);
        }

        /** This rule, queries reading the read copy's trees without its delta. */
        public Rule readingTreesOnly() {
            return new Rule(switchEvery, switchBelowFreshness, ships, true);
        }
    }

    /**
     * How the copies start: their switching rule (see {@link Rule}; {@link #reconfigure} changes it).
     *
     * @param feedCapacity commits the copies may fall behind (waiting in the feed, or owed to the
     *     applying copy) before they are built again
     * @param batchCommits commits applied, then flushed, at a time
     */
    public record Options(Duration switchEvery, double switchBelowFreshness, int feedCapacity, int batchCommits,
                          StoreOptions store) {
        public Options {
            new Rule(switchEvery, switchBelowFreshness, true); // checks them
            if (batchCommits < 1) {
                throw new IllegalArgumentException("the applier applies at least one commit at a time, not " + batchCommits);
            }
        }

        /** Switch every {@code period}. */
        public static Options periodic(Duration period, StoreOptions store) {
            return new Options(period, 0, 1_000_000, 1024, store);
        }

        /** Switch when the read copy's trees are less fresh than {@code beta}. */
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

    /**
     * Which copy queries read, with the commits its trees lack, and which the applier writes;
     * replaced whole, so a reader sees one pair.
     */
    private record Roles(Copy reading, Copy applying, CopyDelta delta, ShownDistributed shown) {
    }

    /**
     * A query's hold on the copy it reads, as of the last commit whole when it was taken: the
     * applier does not write the copy until closed.
     */
    public static final class Pin implements AutoCloseable {
        private final AnalyticalCopies owner;
        private final Copy copy;
        private final CopyDelta delta;
        private final ShownDistributed shown;
        private final long asOf;
        private boolean closed;

        /** Call with {@code copy} pinned once more, for this pin to let go. */
        private Pin(AnalyticalCopies owner, Copy copy, CopyDelta delta, ShownDistributed shown, long asOf) {
            this.owner = owner;
            this.copy = copy;
            this.delta = delta;
            this.shown = shown;
            this.asOf = asOf;
        }

        /**
         * The two-phase transactions that may commit on this node and that this pin does not show:
         * prepared or being decided here, on their way into the copies, or shown after it was taken.
         * A transaction that another node's pin shows and this one lacks must be waited for ({@link
         * #extendedTo}) for the two to form a cut.
         */
        public java.util.Set<TransactionId> unshown() {
            java.util.Set<TransactionId> out = new java.util.HashSet<>();
            owner.db.unshown(out); // before the numbered ones: a commit leaves this set only once numbered
            requireCurrent();
            shown.after(asOf, out);
            return out;
        }

        /** Those of {@code ids} this pin shows. */
        public java.util.Set<TransactionId> shows(java.util.Collection<TransactionId> ids) {
            requireCurrent();
            shown.requireKnown(asOf);
            java.util.Set<TransactionId> out = new java.util.HashSet<>();
            for (TransactionId id : ids) {
                long seq = shown.seqOf(id);
                if (seq >= 0 && seq <= asOf) {
                    out.add(id);
                }
            }
            return out;
        }

        /**
         * A pin that shows all of {@code ids} that commit here (this one when it does already):
         * waits up to {@code timeout} for each to show or to abort, then pins as of the last of them
         * (or, after a switch, the copy queries read now). Close this pin once the other is in use.
         */
        public Pin extendedTo(java.util.Collection<TransactionId> ids, Duration timeout) throws InterruptedException {
            long deadline = System.nanoTime() + timeout.toNanos();
            long target = asOf;
            for (TransactionId id : ids) {
                long seq;
                while ((seq = shown.seqOf(id)) < 0 || seq > owner.visibleNow()) {
                    if (seq < 0 && !owner.db.isUnshown(id)) {
                        break; // aborted here, or never ran here
                    }
                    requireCurrent();
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException("two-phase transaction " + id + " did not show in the analytical "
                                + "copies within " + timeout.toSeconds() + " s (its outcome may be unknown here, "
                                + "its decider down)");
                    }
                    Thread.sleep(1);
                }
                target = Math.max(target, seq);
            }
            requireCurrent();
            return target <= asOf ? this : owner.pinAsOf(this, target);
        }

        private void requireCurrent() {
            Roles now = owner.roles;
            if (now == null || now.shown != shown) {
                throw new IllegalStateException("the analytical copies were built again while a statement's cut was "
                        + "taken; run it again");
            }
        }

        /** The copy's store, for its tables' definitions; read rows with {@link #scan}. */
        public Store store() {
            return copy.data.store();
        }

        /** Whether the copy holds table {@code table}. */
        public boolean holds(String table) {
            return copy.data.store().tables().containsKey(table);
        }

        /** The rows of the copy's table {@code table} in key order as of this pin, until {@code row} returns false. */
        public void scan(String table, java.util.function.Predicate<Object[]> row) {
            delta.scan(copy.data.store().table(table), asOf, row);
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
    /** Takes commits from the feed into the read copy's delta, and switches the copies. */
    private final Thread shipper;
    /** Writes the commits owed to the applying copy into its trees. */
    private final Thread applier;
    private volatile Roles roles;
    private volatile Rule rule;
    /** Keys changed by commits not shipped since the copies were built, by table (while the rule ships none); and the first one's time. */
    private final Map<String, java.util.Set<java.nio.ByteBuffer>> unshipped = new java.util.concurrent.ConcurrentHashMap<>();
    private volatile long unshippedSinceNanos = -1;
    /** Set when shipping resumes: the copies missed commits and are built again. */
    private volatile boolean rebuildWanted;
    private volatile CommitFeed feed;
    private volatile boolean stopping;
    private int generation;
    /** Taken from the feed since the last switch: what the read copy's trees lack (its delta's commits). */
    private List<ShippedCommit> sinceSwitch = new ArrayList<>();
    private final OwedCommits owed = new OwedCommits();
    /** The node's core roles: the log-shipping role's slots bound how many tables are written at once. */
    private final CoreRoles cores;
    /** Threads writing one table each, as many at once as {@link #cores} lets. */
    private final java.util.concurrent.ExecutorService tableWriters;
    /** Tables the last chunk changed: how many log-shipping slots could have worked on it. */
    private volatile int tablesWritten = 1;
    /** Set while a new pair replaces the old: the applier gives up the chunk it waits to write. */
    private volatile boolean replacing;
    /** Threads closing replaced copies once no query pins them. */
    private final List<Thread> retiring = new java.util.concurrent.CopyOnWriteArrayList<>();
    /** Why writing the applying copy's trees failed; the shipper then builds the pair again. */
    private volatile RuntimeException applyFailure;
    /** Commits taken from the feed and not yet in the delta: stale rows by table, and the oldest one's time. */
    private volatile Map<String, Integer> inHand = Map.of();
    private volatile long inHandSinceNanos = -1;
    private long lastSwitchNanos = System.nanoTime();
    private final AtomicLong switches = new AtomicLong();
    private final AtomicLong applied = new AtomicLong();
    private final AtomicLong rebuilds = new AtomicLong();
    private final AtomicLong pins = new AtomicLong();
    private final AtomicLong passedOver = new AtomicLong();

    private AnalyticalCopies(Path dir, TransactionalDatabase db, Map<String, TableDefinition> tables, Options options,
                             CoreRoles cores) {
        this.cores = cores;
        this.tableWriters = java.util.concurrent.Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "ooo-log-apply-table");
            t.setDaemon(true);
            return t;
        });
        this.rule = new Rule(options.switchEvery(), options.switchBelowFreshness(), true);
        this.dir = dir;
        this.db = db;
        this.tables = Map.copyOf(tables);
        this.options = options;
        this.shipper = new Thread(this::shipUntilStopped, "ooo-log-ship");
        this.shipper.setDaemon(true);
        this.applier = new Thread(this::applyUntilStopped, "ooo-log-apply");
        this.applier.setDaemon(true);
    }

    /**
     * Builds both copies in {@code dir} of the transactional tables {@code tables} names (each
     * as its definition says) and starts applying commits; returns once queries can read a copy.
     */
    public static AnalyticalCopies start(Path dir, TransactionalDatabase db, Map<String, TableDefinition> tables,
                                         Options options) {
        return start(dir, db, tables, options, CoreRoles.unbounded());
    }

    /** As above, writing commits into the trees with the log-shipping slots of {@code cores}. */
    public static AnalyticalCopies start(Path dir, TransactionalDatabase db, Map<String, TableDefinition> tables,
                                         Options options, CoreRoles cores) {
        AnalyticalCopies copies = new AnalyticalCopies(dir, db, tables, options, cores);
        Directories.deleteRecursively(dir); // what an earlier run left is rebuilt, never trusted
        copies.buildPair();
        copies.shipper.start();
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
                return new Pin(this, r.reading, r.delta, r.shown, rule.treesOnly() ? r.delta.base() : r.delta.visible());
            }
            r.reading.pins.decrementAndGet(); // switched meanwhile: pin the new one
        }
    }

    /**
     * A pin like {@code pin} as of commit {@code target} (numbered since the pair was built): on its
     * copy while that is still the read copy, else on the read copy now (which shows more).
     */
    private Pin pinAsOf(Pin pin, long target) {
        pin.copy.pins.incrementAndGet();
        Roles r = roles;
        if (r != null && r.delta == pin.delta && target <= r.delta.visible()) {
            pins.incrementAndGet();
            return new Pin(this, pin.copy, pin.delta, pin.shown, target);
        }
        pin.copy.pins.decrementAndGet();
        return pin();
    }

    /** The last commit scans of the read copy starting now see. */
    private long visibleNow() {
        Roles r = roles;
        return r == null ? -1 : r.delta.visible();
    }

    /** Each copied table's freshness in the copy queries read now. */
    public List<Freshness> freshness() {
        return freshness(rule.treesOnly());
    }

    /**
     * Each copied table's freshness in the read copy's trees alone, its delta counted stale: how far
     * log shipping, which writes the trees, is behind (the copy freshness the seed balances by).
     */
    public List<Freshness> treesFreshness() {
        return freshness(true);
    }

    private List<Freshness> freshness(boolean ofTrees) {
        Roles r = roles;
        Map<String, Integer> stale = new HashMap<>(inHand);
        unshipped.forEach((t, keys) -> stale.merge(t, keys.size(), Integer::sum));
        CommitFeed f = feed;
        long oldest = unshippedSinceNanos >= 0 ? unshippedSinceNanos : inHandSinceNanos;
        if (f != null) {
            Map<String, java.util.Set<java.nio.ByteBuffer>> waiting = new HashMap<>();
            f.forEachWaiting(c -> c.changes().forEach(ch -> waiting.computeIfAbsent(ch.table(), t -> new java.util.HashSet<>())
                    .add(java.nio.ByteBuffer.wrap(ch.key()))));
            waiting.forEach((t, keys) -> stale.merge(t, keys.size(), Integer::sum));
            if (oldest < 0) {
                oldest = f.oldestWaitingNanos();
            }
        }
        boolean treesOnly = ofTrees && r != null;
        if (treesOnly && r.delta.firstVisibleNanos() >= 0) {
            oldest = r.delta.firstVisibleNanos(); // queries do not see the delta: its first commit is the oldest unseen
        }
        double lag = oldest < 0 ? 0 : Math.max(0, (System.nanoTime() - oldest) / 1e9);
        List<Freshness> out = new ArrayList<>();
        for (String t : new java.util.TreeSet<>(tables.keySet())) {
            String inCopy = r == null ? null : r.reading.data.copyTableOf(t);
            long rows = r == null ? 0 : r.reading.data.rows(t) + (treesOnly ? 0 : r.delta.addedRows(inCopy));
            int s = stale.getOrDefault(t, 0) + (treesOnly ? r.delta.changedKeys(inCopy) : 0);
            out.add(Freshness.of(t, rows, s, s == 0 ? 0 : lag));
        }
        return out;
    }

    /** Times the copies switched roles. */
    public long switches() {
        return switches.get();
    }

    /** Commits taken into the copies (each counted once, when queries could first see it). */
    public long applied() {
        return applied.get();
    }

    /** Tables the last chunk written into the trees changed: how many log-shipping slots had work. */
    public int tablesWritten() {
        return tablesWritten;
    }

    /** Commits the applying copy's trees are owed: what it must write before the copies can switch. */
    public int owedCommits() {
        return owed.count();
    }

    /** Keys the read copy's delta holds: what every scan of it merges into its trees' rows. */
    public long deltaKeys() {
        Roles r = roles;
        return r == null ? 0 : r.delta.changedKeys();
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

    /** Commits the applying copy's trees lack, waiting for the queries pinning it (for tests). */
    int owed() {
        return owed.count();
    }

    /** The copy the applier writes (for tests, while it is idle). */
    Store applyingStore() {
        return roles.applying.data.store();
    }

    // ---- the shipper and the applier threads ----

    private void shipUntilStopped() {
        while (!stopping) {
            try {
                RuntimeException failed = applyFailure;
                if (failed != null) {
                    throw failed;
                }
                if (rebuildWanted) {
                    rebuildWanted = false;
                    LOG.info("shipping commits again: building both analytical copies, which missed some");
                    rebuild();
                    continue;
                }
                List<ShippedCommit> batch = feed.poll(options.batchCommits(), POLL_MILLIS, TimeUnit.MILLISECONDS);
                if (!batch.isEmpty()) {
                    if (rule.ships()) {
                        // counted to log shipping, never paused: after OLTP, fresh copies come first
                        cores.runCounted(CoreRoles.Role.LOG_SHIPPING, () -> show(batch));
                        if (owed.count() > options.feedCapacity()) {
                            LOG.warn("the applying analytical copy is owed more than {} commits (its writes fell behind, or a "
                                    + "query has pinned it since a switch): building both analytical copies again",
                                    options.feedCapacity());
                            rebuild();
                            continue;
                        }
                    } else {
                        passOver(batch);
                    }
                }
                if (shouldSwitch()) {
                    switchRoles();
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
                rebuild();
            }
        }
    }

    /** Notes the rows commits not shipped change: rows the copies do not show. */
    private void passOver(List<ShippedCommit> batch) {
        if (unshippedSinceNanos < 0) {
            unshippedSinceNanos = batch.get(0).visibleAtNanos();
        }
        batch.forEach(c -> c.changes().forEach(ch -> unshipped.computeIfAbsent(ch.table(),
                t -> java.util.concurrent.ConcurrentHashMap.newKeySet()).add(java.nio.ByteBuffer.wrap(ch.key()))));
        passedOver.addAndGet(batch.size());
        // shown on no node's copies while none ships: a cut need not wait for them
        batch.stream().filter(c -> c.distributed() != null).forEach(c -> db.shown(c.distributed()));
    }

    /** Commits not shipped while the rule shipped none (for tests). */
    long passedOver() {
        return passedOver.get();
    }

    /** When the copies switch, and whether they ship commits, now. */
    public Rule rule() {
        return rule;
    }

    /**
     * Changes when the copies switch, or whether commits are shipped at all, from now on. Shipping
     * again after a pause builds both copies again, since they missed commits.
     */
    public void reconfigure(Rule next) {
        Rule before = rule;
        rule = next;
        if (next.ships() && !before.ships()) {
            rebuildWanted = true;
        }
        LOG.info("analytical copies: switch every {}, below freshness {}, {}", next.switchEvery(),
                next.switchBelowFreshness(), next.ships() ? "shipping commits" : "shipping no commits");
    }

    /** Puts commits taken from the feed in the read copy's delta, where queries see them, and owes them to the other copy. */
    private void show(List<ShippedCommit> batch) {
        Map<String, java.util.Set<java.nio.ByteBuffer>> keys = new HashMap<>();
        batch.forEach(c -> c.changes().forEach(ch -> keys.computeIfAbsent(ch.table(), t -> new java.util.HashSet<>())
                .add(java.nio.ByteBuffer.wrap(ch.key()))));
        Map<String, Integer> stale = new HashMap<>();
        keys.forEach((t, k) -> stale.put(t, k.size()));
        inHandSinceNanos = batch.get(0).visibleAtNanos();
        inHand = stale;
        CopyDelta delta = roles.delta;
        long seq = delta.visible();
        for (ShippedCommit c : batch) {
            seq++;
            if (c.distributed() != null) {
                roles.shown.note(seq, c.distributed()); // before scans see it: a cut asks for it by number
            }
        }
        delta.add(batch);
        batch.forEach(c -> {
            if (c.distributed() != null) {
                db.shown(c.distributed());
            }
        });
        inHand = Map.of();
        inHandSinceNanos = -1;
        applied.addAndGet(batch.size());
        sinceSwitch.addAll(batch);
        owed.owe(batch);
        progress = new ReadProgress(feed, progress.shows() + batch.size());
    }

    /**
     * Writes what the applying copy's trees lack, a chunk at a time, each once no query pins the
     * copy. The copies do not switch while a chunk is being written, so the applying copy stays
     * the same from taking a chunk to writing it.
     */
    private void applyUntilStopped() {
        while (!stopping) {
            try {
                if (applyFailure != null) {
                    Thread.sleep(POLL_MILLIS); // the shipper builds a new pair
                    continue;
                }
                List<ShippedCommit> chunk = owed.take(options.batchCommits(), POLL_MILLIS);
                try {
                    if (!chunk.isEmpty()) {
                        Copy target = roles.applying;
                        while (target.pins.get() > 0 && !stopping && !replacing) {
                            java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
                        }
                        if (!stopping && !replacing) { // a pair being replaced is owed nothing
                            write(target, chunk);
                        }
                    }
                } catch (RuntimeException e) {
                    if (!stopping) {
                        applyFailure = e;
                    }
                } finally {
                    owed.written();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /**
     * Writes {@code chunk} into {@code target}'s trees, table by table, as many tables at once as
     * the log-shipping role has slots.
     */
    private void write(Copy target, List<ShippedCommit> chunk) throws InterruptedException {
        List<String> changed = List.copyOf(target.data.tablesChanged(chunk));
        tablesWritten = changed.size();
        if (changed.size() == 1) {
            cores.run(CoreRoles.Role.LOG_SHIPPING, () -> target.data.applyTable(changed.get(0), chunk));
            return;
        }
        List<java.util.concurrent.Future<?>> writes = new ArrayList<>();
        for (String table : changed) {
            writes.add(tableWriters.submit(() -> cores.run(CoreRoles.Role.LOG_SHIPPING,
                    () -> target.data.applyTable(table, chunk))));
        }
        RuntimeException failed = null;
        for (java.util.concurrent.Future<?> w : writes) {
            try {
                w.get();
            } catch (java.util.concurrent.ExecutionException e) {
                failed = e.getCause() instanceof RuntimeException re ? re : new IllegalStateException(e.getCause());
            }
        }
        if (failed != null) {
            throw failed;
        }
    }

    /** Builds the pair again until it works or this stops. */
    private void rebuild() {
        while (!stopping) {
            try {
                buildPair();
                return;
            } catch (RuntimeException e) {
                LOG.error("building the analytical copies failed; trying again in 1 s", e);
                java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.SECONDS.toNanos(1));
            }
        }
    }

    private boolean shouldSwitch() {
        // a switch leaves the new read copy a delta of what its trees still lack: worth it once that is at most half
        if (sinceSwitch.isEmpty() || owed.count() > sinceSwitch.size() / 2) {
            return false;
        }
        Rule now = rule;
        if (now.switchEvery() != null && System.nanoTime() - lastSwitchNanos >= now.switchEvery().toNanos()) {
            return true;
        }
        if (now.switchBelowFreshness() > 0) {
            Roles r = roles;
            for (String t : tables.keySet()) {
                String inCopy = r.reading.data.copyTableOf(t);
                if (Freshness.of(t, r.reading.data.rows(t), r.delta.changedKeys(inCopy), 0).rate()
                        < now.switchBelowFreshness()) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * New queries move to the applying copy, with a delta of the commits not yet written into its
     * trees (the applier stops owing them to it once the chunk in hand is written); the other copy
     * is owed what its own delta held and everything since, written once the last query pinning it
     * is done ({@link #applyUntilStopped}).
     */
    private void switchRoles() {
        Roles before = roles;
        List<ShippedCommit> unwritten = owed.drainIfIdle();
        if (unwritten == null) {
            return; // a chunk is being written (perhaps paused for its role's share): commits come first, switch later
        }
        long visible = before.delta.visible();
        CopyDelta delta = newDelta(before.applying, visible - unwritten.size());
        delta.add(unwritten);
        roles = new Roles(before.applying, before.reading, delta, before.shown);
        switches.incrementAndGet();
        lastSwitchNanos = System.nanoTime();
        owed.owe(sinceSwitch);
        sinceSwitch = new ArrayList<>(unwritten);
        if (before.reading.pins.get() > 0) {
            LOG.debug("switched analytical copies; {} queries still read {}", before.reading.pins.get(),
                    before.reading.dir.getFileName());
        }
    }

    private static CopyDelta newDelta(Copy reading, long base) {
        return new CopyDelta(reading.data, base);
    }

    /** Waits until no query pins {@code copy}, to close it. */
    private void waitUntilUnpinned(Copy copy) {
        long start = System.nanoTime();
        long nextLog = start + SLOW_CLOSE_LOG_NANOS;
        while (copy.pins.get() > 0) {
            java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
            if (System.nanoTime() > nextLog) {
                LOG.warn("the analytical copy {} has waited {} s for {} queries still reading it", copy.dir.getFileName(),
                        (System.nanoTime() - start) / 1_000_000_000, copy.pins.get());
                nextLog += SLOW_CLOSE_LOG_NANOS;
            }
        }
    }

    /**
     * Builds a new pair from the transactional rows and a new feed, brings both up to the feed's
     * count after the rows were read (from then on each holds whole transactions), then serves it.
     */
    private long buildPair() {
        while (true) {
            long shippedBefore = db.distributedShipped();
            CommitFeed next = db.openCommitFeed(options.feedCapacity());
            int gen = ++generation;
            Copy a = null;
            Copy b = null;
            try {
                a = buildCopy(gen, "a");
                b = buildCopy(gen, "b");
                long target = next.offered();
                long consumed = 0;
                List<TransactionId> inBuild = new ArrayList<>();
                while (consumed < target) {
                    List<ShippedCommit> batch = next.poll(options.batchCommits(), POLL_MILLIS, TimeUnit.MILLISECONDS);
                    a.data.apply(batch);
                    b.data.apply(batch);
                    consumed += batch.size();
                    batch.stream().filter(c -> c.distributed() != null).forEach(c -> inBuild.add(c.distributed()));
                }
                applied.addAndGet(consumed);
                serve(next, a, b, consumed);
                // after the pair is served: a cut on the old pair asking meanwhile finds it replaced
                inBuild.forEach(db::shown);
                db.shownUpTo(shippedBefore); // in the rows the pair was built from
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
        replacing = true;
        try {
            owed.drain(); // what the old pair was owed: a chunk being written is finished, one waiting for a pin given up
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while serving new analytical copies", e);
        } finally {
            replacing = false;
        }
        applyFailure = null;
        unshipped.clear();
        unshippedSinceNanos = -1;
        CommitFeed oldFeed = feed;
        feed = next;
        roles = new Roles(reading, applying, newDelta(reading, 0), new ShownDistributed());
        progress = new ReadProgress(next, consumed);
        sinceSwitch = new ArrayList<>();
        lastSwitchNanos = System.nanoTime();
        if (oldFeed != null) {
            oldFeed.close();
        }
        if (old != null) {
            retire(old);
        }
    }

    /** Closes and deletes a replaced pair once no query pins either copy, off the shipper's thread. */
    private void retire(Roles old) {
        Thread t = new Thread(() -> {
            for (Copy c : List.of(old.reading, old.applying)) {
                waitUntilUnpinned(c);
                closeQuietly(c);
                Directories.deleteRecursively(c.dir);
            }
            retiring.remove(Thread.currentThread());
        }, "ooo-copy-retire");
        t.setDaemon(true);
        retiring.add(t);
        t.start();
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
        for (Thread t : List.of(shipper, applier)) {
            t.interrupt();
            try {
                t.join(TimeUnit.SECONDS.toMillis(30));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        tableWriters.shutdownNow();
        Roles r = roles;
        roles = null;
        CommitFeed f = feed;
        if (f != null) {
            f.close();
        }
        if (r != null) {
            waitUntilUnpinned(r.reading);
            waitUntilUnpinned(r.applying);
            closeQuietly(r.reading);
            closeQuietly(r.applying);
        }
        for (Thread t : retiring) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
