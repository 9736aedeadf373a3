package org.oooengine.core.cluster;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.oooengine.core.store.StoreManifest;

/**
 * The cluster's tables as the nodes' manifests show them ({@link NodeStatusClient}), asked of all
 * nodes at once; the several lookups of one statement share one round of requests, and a change
 * made through the session asks again.
 */
final class ClusterTables {
    private static final Logger LOG = LogManager.getLogger(ClusterSession.class);

    private final ClusterSpec spec;
    private final Duration timeout;
    private final NodeStatusClient status;
    private final Object tablesLock = new Object();
    /** Counts changes of tables made through this session; a snapshot from before one is not used. */
    private final AtomicLong tablesVersion = new AtomicLong();
    private volatile TablesSnapshot tables;
    /** The nodes that did not answer the last round (guarded by tablesLock). */
    private List<String> silentNodes = List.of();

    private record TablesSnapshot(ClusterManifest manifest, long takenNanos, long version) {
    }

    ClusterTables(ClusterSpec spec, Duration timeout, NodeStatusClient status) {
        this.spec = spec;
        this.timeout = timeout;
        this.status = status;
    }

    ClusterManifest tables() {
        TablesSnapshot s = tables;
        if (fresh(s)) {
            return s.manifest();
        }
        synchronized (tablesLock) {
            s = tables;
            if (fresh(s)) {
                return s.manifest(); // asked while this thread waited
            }
            return askTables();
        }
    }

    ClusterManifest.Table table(String name) {
        ClusterManifest.Table t = tables().table(name).filter(ClusterManifest.Table::complete).orElse(null);
        if (t != null) {
            return t;
        }
        ClusterManifest fresh;
        synchronized (tablesLock) {
            fresh = askTables();
        }
        Optional<ClusterManifest.Table> found = fresh.table(name);
        if (found.isPresent() && !found.get().complete()) {
            throw new ClusterException("table " + name + ": " + ClusterManifest.describe(found.get().missing()));
        }
        return found.orElseThrow(() -> fresh.unanswered().isEmpty()
                ? new IllegalArgumentException("no table '" + name + "' on cluster " + spec.name() + "; tables: "
                        + fresh.tableNames())
                : new ClusterException("table " + name + " is on none of the nodes that answered; "
                        + ClusterManifest.describe(fresh.unanswered())));
    }

    StoreManifest wholeManifest() {
        ClusterManifest m = tables();
        if (!m.unanswered().isEmpty()) {
            synchronized (tablesLock) {
                m = askTables();
            }
        }
        return m.everyNode();
    }

    void tablesChanged() {
        tablesVersion.incrementAndGet();
    }

    private boolean fresh(TablesSnapshot s) {
        return s != null && s.version() == tablesVersion.get()
                && System.nanoTime() - s.takenNanos() < ClusterSession.TABLES_MAX_AGE.toNanos();
    }

    private ClusterManifest askTables() {
        long version = tablesVersion.get();
        ClusterManifest m = ClusterManifest.ask(spec, node -> status.statsAsync(node, timeout), timeout);
        logChange(m.unanswered());
        // Taken when the answers are in: a round that waited out a silent node still serves the statement's
        // next lookups. One that no node answered serves none: it fails its statement at once anyway.
        tables = m.noneAnswered() ? null : new TablesSnapshot(m, System.nanoTime(), version);
        return m;
    }

    /** Logs when the nodes that do not answer change, not on every round while they stay silent. */
    private void logChange(List<ClusterManifest.Missing> unanswered) {
        List<String> nodes = unanswered.stream().map(ClusterManifest.Missing::node).toList();
        if (nodes.equals(silentNodes)) {
            return;
        }
        if (nodes.isEmpty()) {
            LOG.info("every node answers again");
        } else {
            LOG.warn("tables known from the nodes that answer; {}", ClusterManifest.describe(unanswered));
        }
        silentNodes = nodes;
    }
}
