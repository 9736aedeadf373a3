package org.oooengine.core.cluster;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.oooengine.core.storage.DirectIoUnsupportedException;
import org.oooengine.core.store.Store;
import org.oooengine.core.store.StoreManifest;
import org.oooengine.core.store.StoreOptions;
import org.oooengine.core.store.Table;

/**
 * The store a node serves its requests from, and the one a load replaced while the requests that
 * began on it finish. Every family of requests reads through it; loads swap it ({@link TableWriteRequests}).
 */
final class ServedStore implements AutoCloseable {
    private static final Logger LOG = LogManager.getLogger(ServedStore.class);
    /** How long a store replaced by a load keeps serving the requests that began on it. */
    private static final Duration RETIRED_STORE_GRACE = Duration.ofSeconds(60);

    private final String nodeId;
    private final Path dataDir;
    private final StoreOptions options;
    private volatile Store store;
    /** A store a load replaced, until it is closed. */
    private volatile Store replaced;

    ServedStore(String nodeId, Path dataDir, StoreOptions options) {
        this.nodeId = nodeId;
        this.dataDir = dataDir;
        this.options = options;
    }

    /** The store served now, or null when the node has no data. */
    Store current() {
        return store;
    }

    /** The store served now. */
    Store require() {
        Store s = store;
        if (s == null) {
            throw new NotLoadedException("node " + nodeId + " has no data loaded; load with: ooo load tpch --cluster <dir>");
        }
        return s;
    }

    Table table(String name) {
        return require().table(name);
    }

    /** Where the store served lives. */
    Path dir() {
        return dataDir.resolve("store");
    }

    /** Where a published load keeps the store it replaced, until every node has published. */
    Path previousDir() {
        return dataDir.resolve("previous");
    }

    /**
     * A node that died between the two moves of a publish has its old store as the previous one and
     * none in place: it serves the old one again (the coordinator restores it on the other nodes).
     */
    void recoverInterruptedPublish() {
        Path current = dir();
        Path previous = previousDir();
        if (!Files.exists(current) && StoreManifest.exists(previous)) {
            try {
                Files.move(previous, current, StandardCopyOption.ATOMIC_MOVE);
                LOG.warn("node {}: a load was cut short while it was being published; serving the store as it was", nodeId);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException("cannot restore " + previous + " to " + current, e);
            }
        }
    }

    /** Serves the store in {@link #dir()}, when there is one: what a node does as it starts. */
    void openAtStart() {
        Path current = dir();
        if (StoreManifest.exists(current)) {
            store = open(current);
            LOG.info("node {} serves {} tables from {}", nodeId, store.tables().size(), current);
        } else {
            LOG.info("node {} has no data yet ({} holds no store)", nodeId, current);
        }
    }

    /** Opens the store in {@code dir} and serves it, retiring {@code old}. */
    void serve(Path dir, Store old) {
        try {
            store = StoreManifest.exists(dir) ? open(dir) : null;
        } catch (RuntimeException e) {
            store = null;
            throw e;
        } finally {
            retire(old);
        }
    }

    /**
     * Closes a replaced store once the requests already running on it have had time to finish. Its
     * cached pages go now: those requests read from its open files, and a run of table writes does
     * not keep a buffer pool per replaced store.
     */
    private void retire(Store old) {
        if (old != null) {
            old.bufferPool().clear();
            replaced = old;
            CompletableFuture.delayedExecutor(RETIRED_STORE_GRACE.toSeconds(), TimeUnit.SECONDS).execute(() -> {
                old.close();
                if (replaced == old) {
                    replaced = null;
                }
            });
        }
    }

    /**
     * Closes the store a load replaced, if it is still open, before rows are written in place: the
     * new store shares the files of the tables the load kept (hard links), and the replaced one's
     * readers would not see the writes published. Requests still running on it fail.
     */
    void closeReplaced() {
        Store old = replaced;
        if (old != null) {
            replaced = null;
            old.close();
            LOG.info("node {}: closed the store a load replaced before writing rows in place into the files it shares",
                    nodeId);
        }
    }

    private Store open(Path dir) {
        try {
            return Store.open(dir, options);
        } catch (DirectIoUnsupportedException e) {
            LOG.warn("node {}: {}; reading through the page cache instead", nodeId, e.getMessage());
            return Store.open(dir, options.withDirectIo(false));
        }
    }

    @Override
    public void close() {
        Store s = store;
        store = null;
        if (s != null) {
            s.close();
        }
    }

    /** A request for data on a node that has none. */
    static final class NotLoadedException extends RuntimeException {
        NotLoadedException(String message) {
            super(message);
        }
    }
}
