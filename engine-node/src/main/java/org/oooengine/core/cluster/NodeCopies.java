package org.oooengine.core.cluster;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Executor;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.oooengine.core.fragment.PartitionPipeline;
import org.oooengine.core.fragment.Pipeline;
import org.oooengine.core.htap.AnalyticalCopies;
import org.oooengine.core.htap.CoreRoles;
import org.oooengine.core.htap.Freshness;
import org.oooengine.core.storage.Directories;
import org.oooengine.core.store.JsonFiles;
import org.oooengine.core.store.StoreManifest;
import org.oooengine.core.store.StoreOptions;
import org.oooengine.core.store.TableDefinition;
import org.oooengine.core.txn.TransactionalDatabase;
import org.oooengine.core.types.Schema;

/**
 * A node's analytical copies (HTAP's read side): the transactional tables registered for copies,
 * kept in {@code copied-tables.json} beside the tables so that a restarted node copies them
 * again, and the {@link AnalyticalCopies} that hold them. A change of the registered tables
 * returns at once; the builder thread then builds a new pair in a directory of its own, serves it
 * and closes the old one (changes made during a build are built next, together).
 */
final class NodeCopies implements AutoCloseable {
    private static final Logger LOG = LogManager.getLogger(NodeCopies.class);
    private static final String REGISTRY = "copied-tables.json";
    /**
     * How a node's copies switch: when the read copy's freshness of a table drops below HTAL's β
     * (0.85), and at least every second, so that a change shows within about a second however few
     * rows it touched.
     */
    static final AnalyticalCopies.Options DEFAULT_OPTIONS = new AnalyticalCopies.Options(Duration.ofSeconds(1), 0.85,
            1_000_000, 1024, StoreOptions.defaults().withIoThreads(0).withBufferPoolBytes(64L << 20));

    /** The registry file: each copied table's definition, by its transactional name. */
    record Registry(Map<String, StoreManifest.TableMeta> tables) {
    }

    private final String nodeId;
    private final Path dir;
    private final TransactionalDatabase db;
    private final AnalyticalCopies.Options options;
    /** The node's core roles: scans of the copies run in OLAP's slots, log shipping in its own. */
    private final CoreRoles cores;
    /** How the copies switch, for these and those built later. */
    private volatile AnalyticalCopies.Rule rule;
    /** The one thread that builds copies: builds never run side by side, and a queued one finds its work done. */
    private final Executor builder;
    private volatile Map<String, TableDefinition> registered = Map.of();
    private volatile Served served = Served.NONE;
    private volatile boolean closed;
    private int generation;
    /** The pins statements' scans share, by snapshot number. */
    private final CopySnapshots snapshots;

    /** The copies queries read, and the tables they hold. */
    private record Served(Map<String, TableDefinition> tables, AnalyticalCopies copies) {
        static final Served NONE = new Served(Map.of(), null);
    }

    NodeCopies(String nodeId, Path dir, TransactionalDatabase db, AnalyticalCopies.Options options, Executor builder,
               CoreRoles cores) {
        this.cores = cores;
        this.rule = new AnalyticalCopies.Rule(options.switchEvery(), options.switchBelowFreshness(), true);
        this.nodeId = nodeId;
        this.dir = dir;
        this.db = db;
        this.options = options;
        this.builder = builder;
        this.snapshots = new CopySnapshots(nodeId);
    }

    /**
     * Copies the tables registered before the node stopped, built anew from the recovered rows. Run
     * it on the builder, off the node's start: rows a two-phase commit left in doubt stay locked
     * until the node has asked their decider, and the copies are built again every second until
     * they can be read.
     */
    void start() {
        Path file = dir.resolve(REGISTRY);
        if (!Files.exists(file)) {
            return;
        }
        Map<String, TableDefinition> tables = new TreeMap<>();
        try {
            Registry r = new ObjectMapper().readValue(file.toFile(), Registry.class);
            r.tables().forEach((name, meta) -> tables.put(name, meta.definition()));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the analytical copies' registry " + file + ": " + e.getMessage(), e);
        }
        Directories.deleteRecursively(dir.resolve("copies")); // derived data: built again from the tables
        synchronized (this) {
            registered = Map.copyOf(tables); // queries asking for them wait while they are built
        }
        forgetGoneTables();
        build();
    }

    /**
     * Adds {@code tables} (transactional name to definition) to the copied ones and returns; the
     * builder copies them (scans of them wait a while meanwhile). Nothing when all are there already.
     */
    synchronized void register(Map<String, TableDefinition> tables) {
        Map<String, TableDefinition> next = new TreeMap<>(registered);
        for (Map.Entry<String, TableDefinition> t : tables.entrySet()) {
            db.table(t.getKey()); // refuses a table that does not exist, naming the ones that do
            TableDefinition d = t.getValue();
            next.put(t.getKey(), new TableDefinition(t.getKey(), d.schema(), d.primaryKey(), d.indexes(), false));
        }
        change(next);
    }

    /** Stops copying {@code table} (before it is dropped); the builder serves copies of the others. */
    synchronized void unregister(String table) {
        Map<String, TableDefinition> next = new TreeMap<>(registered);
        next.remove(table);
        change(next);
    }

    private void change(Map<String, TableDefinition> next) {
        if (!described(next).equals(described(registered))) { // definitions compare by what the registry keeps
            save(next);
            registered = Map.copyOf(next);
            builder.execute(this::build);
        }
    }

    /** Forgets registered tables that are gone (dropped while their entry was being written, or while a build failed). */
    private synchronized void forgetGoneTables() {
        java.util.Set<String> existing = new java.util.HashSet<>();
        db.tables().forEach(t -> existing.add(t.name()));
        Map<String, TableDefinition> kept = new TreeMap<>(registered);
        if (kept.keySet().retainAll(existing)) {
            LOG.warn("node {}: the analytical copies' registry named tables that are gone; copying {}", nodeId,
                    kept.keySet());
            save(kept);
            registered = Map.copyOf(kept);
        }
    }

    private void save(Map<String, TableDefinition> tables) {
        JsonFiles.writeAtomically(dir.resolve(REGISTRY), new Registry(described(tables)));
    }

    private static Map<String, StoreManifest.TableMeta> described(Map<String, TableDefinition> tables) {
        Map<String, StoreManifest.TableMeta> metas = new LinkedHashMap<>();
        new TreeMap<>(tables).forEach((name, def) -> metas.put(name, StoreManifest.TableMeta.describing(def)));
        return metas;
    }

    /**
     * On the builder: until the copies served are of the registered tables, builds a pair of them in
     * a directory of its own, serves it and closes the one served before; a failed build is tried
     * again a second later. Registrations made meanwhile are built next, together.
     */
    private void build() {
        while (!closed) {
            Map<String, TableDefinition> wanted = registered;
            if (described(wanted).equals(described(served.tables()))) {
                return;
            }
            try {
                AnalyticalCopies next = wanted.isEmpty() ? null
                        : AnalyticalCopies.start(dir.resolve("copies").resolve(Integer.toString(++generation)), db, wanted,
                        options, cores);
                Served old;
                synchronized (this) {
                    old = served;
                    served = new Served(Map.copyOf(wanted), next);
                }
                if (next != null && !next.rule().equals(rule)) {
                    next.reconfigure(rule); // changed while they were built
                }
                if (next != null) {
                    LOG.info("node {} keeps analytical copies of {} transactional tables: {}", nodeId, wanted.size(),
                            wanted.keySet());
                }
                if (old.copies() != null) {
                    old.copies().close();
                }
                if (closed) {
                    close();
                }
            } catch (RuntimeException e) {
                if (closed) {
                    return;
                }
                LOG.warn("node {}: building the analytical copies of {} failed, again in 1 s: {}", nodeId, wanted.keySet(),
                        e.getMessage());
                java.util.concurrent.locks.LockSupport.parkNanos(java.util.concurrent.TimeUnit.SECONDS.toNanos(1));
                if (Thread.currentThread().isInterrupted()) {
                    return;
                }
                forgetGoneTables();
            }
        }
    }

    /**
     * The rows of copied table {@code table} as the copy queries read holds them, whole
     * transactions only: as pinned by the first scan of statement {@code snapshot} here (every
     * scan of the statement reads that pin, until {@link #release}), or, with snapshot 0, now. The
     * scan, with the pipeline it feeds, pays for its CPU time to the OLAP role (a shared slot: it
     * may wait on another scan's shuffle, so it never waits for a slot).
     */
    PartitionPipeline.RowSource rows(String table, Schema schema, long snapshot) {
        return new PartitionPipeline.RowSource() {
            @Override
            public Schema schema() {
                return schema;
            }

            @Override
            public void forEachPage(java.util.function.Predicate<List<Object[]>> page) {
                AnalyticalCopies c = copiesOf(table);
                AnalyticalCopies.Pin pin = snapshot == 0 ? c.pin() : snapshots.use(snapshot, c::pin);
                try (CoreRoles.Slot slot = cores.share(CoreRoles.Role.OLAP)) {
                    requireHeld(pin, table);
                    List<Object[]> rows = new ArrayList<>(Pipeline.BATCH_ROWS);
                    boolean[] more = {true};
                    pin.scan(table, row -> {
                        rows.add(row);
                        if (rows.size() == Pipeline.BATCH_ROWS) {
                            more[0] = page.test(new ArrayList<>(rows));
                            rows.clear();
                            yieldSlot(slot);
                        }
                        return more[0];
                    });
                    if (more[0] && !rows.isEmpty()) {
                        page.test(rows);
                    }
                } finally {
                    if (snapshot == 0) {
                        pin.close();
                    } else {
                        snapshots.done(snapshot);
                    }
                }
            }
        };
    }

    /** A statement's pin from copies built before {@code table} was registered here lacks it. */
    private void requireHeld(AnalyticalCopies.Pin pin, String table) {
        if (!pin.holds(table)) {
            throw new IllegalStateException("node " + nodeId + ": " + table + " was copied after this statement "
                    + "began reading the copies; run it again");
        }
    }

    /** How long a cut waits here for a two-phase commit that another node's pin shows. */
    private static final Duration CUT_WAIT = Duration.ofSeconds(10);

    /**
     * Takes step {@code step} of cutting statement {@code snapshot}'s pins across the nodes ({@link
     * CopyCut}) with {@code ids}; answers the step's transactions. Nothing on a node that keeps no
     * copies yet.
     */
    java.util.Set<org.oooengine.core.txn.TransactionId> cut(long snapshot, CopyCut.Step step,
            java.util.Set<org.oooengine.core.txn.TransactionId> ids) throws InterruptedException {
        AnalyticalCopies c = served.copies();
        if (step == CopyCut.Step.OPEN) {
            if (c != null) {
                snapshots.use(snapshot, c::pin);
                snapshots.done(snapshot);
            }
            return java.util.Set.of();
        }
        AnalyticalCopies.Pin pin = snapshots.held(snapshot);
        if (pin == null) {
            return java.util.Set.of();
        }
        return switch (step) {
            case UNSHOWN -> pin.unshown();
            case SHOWS -> pin.shows(ids);
            case EXTEND -> {
                snapshots.replace(snapshot, pin, pin.extendedTo(ids, CUT_WAIT));
                yield java.util.Set.of();
            }
            case OPEN -> throw new AssertionError();
        };
    }

    /** Statement {@code snapshot} is done: the pin its scans here read goes once the last one ends. */
    void release(long snapshot) {
        snapshots.release(snapshot);
    }

    /** Pauses a scan whose role used more than its share of the cores; the scan is then cancelled if interrupted. */
    private static void yieldSlot(CoreRoles.Slot slot) {
        try {
            slot.yieldSlot();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.util.concurrent.CancellationException("interrupted while pausing for other roles");
        }
    }

    /** The copies that hold {@code table}, waiting a while for copies being built (after a registration or the node's start). */
    private AnalyticalCopies copiesOf(String table) {
        long deadline = System.nanoTime() + BUILD_WAIT_NANOS;
        while (true) {
            Served s = served;
            if (!registered.containsKey(table)) {
                throw new IllegalArgumentException("node " + nodeId + " keeps no analytical copy of " + table);
            }
            if (s.copies() != null && s.tables().containsKey(table)) {
                return s.copies();
            }
            if (System.nanoTime() > deadline || closed) {
                throw new IllegalStateException("node " + nodeId + " is still building its analytical copies of "
                        + registered.keySet() + " (tried again every second; its log says what held the last try "
                        + "up, such as rows in doubt after a restart); try again");
            }
            java.util.concurrent.locks.LockSupport.parkNanos(java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(50));
        }
    }

    /** How long a scan of a copy waits for copies being built. */
    private static final long BUILD_WAIT_NANOS = java.util.concurrent.TimeUnit.SECONDS.toNanos(30);

    /** Switches the copies by {@code next} from now on, these and those built later. */
    void reconfigure(AnalyticalCopies.Rule next) {
        rule = next;
        AnalyticalCopies c = served.copies();
        if (c != null && !c.rule().equals(next)) {
            c.reconfigure(next);
        }
    }

    /** Tables the copies' last chunk of commits changed: how many log-shipping slots had work. */
    int tablesWritten() {
        AnalyticalCopies c = served.copies();
        return c == null ? 1 : c.tablesWritten();
    }

    /** Each copied table's freshness in the read copy's trees alone (none while there are no copies). */
    List<Freshness> treesFreshness() {
        AnalyticalCopies c = served.copies();
        return c == null ? List.of() : c.treesFreshness();
    }

    /** Each copied table's freshness here, with the copies' switches, commits applied and rebuilds. */
    Status status() {
        AnalyticalCopies c = served.copies();
        return c == null ? new Status(List.of(), 0, 0, 0, 0, 0, 0)
                : new Status(c.freshness(), c.switches(), c.applied(), c.rebuilds(), c.reads(), c.owedCommits(),
                        c.deltaKeys());
    }

    /**
     * @param owedCommits commits the applying copy's trees lack
     * @param deltaKeys keys the read copy's delta holds
     */
    record Status(List<Freshness> tables, long switches, long applied, long rebuilds, long reads, long owedCommits,
                  long deltaKeys) {
    }

    @Override
    public void close() {
        Served s;
        synchronized (this) {
            closed = true;
            s = served;
            served = Served.NONE;
        }
        snapshots.releaseAll();
        if (s.copies() != null) {
            s.copies().close();
        }
    }

    /** Waits until the copies queries read show every commit made before this call; false after {@code timeout}. */
    boolean awaitFresh(Duration timeout) throws InterruptedException {
        AnalyticalCopies c = served.copies();
        return c == null || c.awaitFresh(timeout);
    }
}
