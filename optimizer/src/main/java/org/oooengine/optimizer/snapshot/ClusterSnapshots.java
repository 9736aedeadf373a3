package org.oooengine.optimizer.snapshot;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.oooengine.core.cluster.ClusterManifest;
import org.oooengine.core.cluster.ClusterSession;
import org.oooengine.core.store.StoreManifest;
import org.oooengine.optimizer.cost.Calibration;
import org.oooengine.optimizer.cost.TableFacts;
import org.oooengine.optimizer.stats.ClusterStatistics;

/**
 * Takes {@link ClusterSnapshot}s of a running cluster. Each snapshot asks every node for its
 * manifest at once (one round, shared by snapshots taken within {@link ClusterSession#TABLES_MAX_AGE});
 * the statistics, larger and slower to change, are asked only when a table's layout, rows or bytes
 * differ from those they were merged for, or after {@link #tablesChanged}.
 *
 * <p>A statement {@linkplain #pin pins} one snapshot for its analysis and planning: every
 * {@link #current()} on its thread returns that one, so a statement's plan is made from one view
 * of the cluster and planning makes no request of its own.
 */
public final class ClusterSnapshots {
    private static final Logger LOG = LogManager.getLogger(ClusterSnapshots.class);

    private final ClusterSession cluster;
    private final Optional<Calibration> calibration;
    private final ThreadLocal<Pinned> pinned = new ThreadLocal<>();
    /** Counts {@link #tablesChanged} calls: statistics merged before one are not used. */
    private final AtomicLong version = new AtomicLong();
    private volatile Statistics statistics;

    /** After a failed request for statistics, how long snapshots plan without them before asking again. */
    static final long RETRY_NANOS = java.util.concurrent.TimeUnit.SECONDS.toNanos(10);

    /**
     * Statistics merged for the tables as {@code basis} describes them, {@code version} current when
     * asked; {@code failedAt} (System.nanoTime) when the nodes could not give them, else 0.
     */
    private record Statistics(Map<String, StoreManifest.TableMeta> basis, long version, Map<String, TableFacts> facts,
                              long failedAt) {
        boolean serves(Map<String, StoreManifest.TableMeta> tables, long current) {
            return version == current && basis.equals(tables)
                    && (failedAt == 0 || System.nanoTime() - failedAt < RETRY_NANOS);
        }
    }

    public ClusterSnapshots(ClusterSession cluster, Optional<Calibration> calibration) {
        this.cluster = cluster;
        this.calibration = calibration;
    }

    /** A snapshot taken now. */
    public ClusterSnapshot take() {
        ClusterManifest manifest = cluster.tables();
        return new ClusterSnapshot(cluster.spec(), manifest, facts(manifest), calibration);
    }

    /** The snapshot pinned on this thread, or one taken now. */
    public ClusterSnapshot current() {
        Pinned p = pinned.get();
        return p != null ? p.snapshot() : take();
    }

    /**
     * This thread's {@link #current()} until closed: one snapshot, taken when first needed, so that
     * a statement that reads no table of the nodes (SHOW DATABASES, a table in files) waits for no node.
     */
    public interface Pin extends AutoCloseable {
        @Override
        void close();
    }

    /** Pins a snapshot on this thread; on a thread that pinned one already, that one stays. */
    public Pin pin() {
        if (pinned.get() != null) {
            return () -> { };
        }
        pinned.set(new Pinned());
        return pinned::remove;
    }

    /** The pinned snapshot, taken at its first use. */
    private final class Pinned {
        private ClusterSnapshot snapshot;

        ClusterSnapshot snapshot() {
            if (snapshot == null) {
                snapshot = take();
            }
            return snapshot;
        }
    }

    /** Has the nodes collect the statistics of {@code table} anew (ANALYZE TABLE); the next snapshot plans with them. */
    public void analyze(String table) {
        cluster.analyze(table);
        tablesChanged();
    }

    /** Tables changed through this engine: the next snapshot asks for their statistics anew. */
    public void tablesChanged() {
        version.incrementAndGet();
    }

    private Map<String, TableFacts> facts(ClusterManifest manifest) {
        if (!manifest.unanswered().isEmpty()) {
            return Map.of(); // statistics merged over some nodes would pass for the table's: plan without
        }
        Map<String, StoreManifest.TableMeta> basis = basis(manifest);
        if (basis.isEmpty()) {
            return Map.of();
        }
        Statistics s = statistics;
        long v = version.get();
        if (s != null && s.serves(basis, v)) {
            return s.facts();
        }
        synchronized (this) {
            s = statistics;
            if (s != null && s.serves(basis, v)) {
                return s.facts(); // asked while this thread waited
            }
            statistics = ask(manifest, basis, v);
            return statistics.facts();
        }
    }

    private Statistics ask(ClusterManifest manifest, Map<String, StoreManifest.TableMeta> basis, long v) {
        try {
            StoreManifest whole = manifest.everyNode();
            return new Statistics(basis, v, Map.copyOf(TableFacts.of(whole, ClusterStatistics.merge(whole, cluster.statistics(false)))), 0);
        } catch (RuntimeException e) {
            // Planning goes on from the manifests' row counts and value ranges meanwhile.
            LOG.info("the tables' statistics cannot be read now ({}); joins are planned without them for {} s",
                    e.getMessage(), RETRY_NANOS / 1_000_000_000L);
            return new Statistics(basis, v, Map.of(), System.nanoTime());
        }
    }

    private static Map<String, StoreManifest.TableMeta> basis(ClusterManifest manifest) {
        Map<String, StoreManifest.TableMeta> basis = new LinkedHashMap<>();
        for (String name : manifest.tableNames()) {
            try {
                manifest.table(name).ifPresent(t -> basis.put(name, t.meta()));
            } catch (RuntimeException layoutsDiffer) {
                basis.put(name, null); // the table's scan names the problem
            }
        }
        return basis;
    }
}
