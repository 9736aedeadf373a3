package org.oooengine.hive.engine;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.oooengine.core.cluster.ClusterSession;
import org.oooengine.core.cluster.ClusterSpec;
import org.oooengine.core.net.ClusterSecret;
import org.oooengine.hive.catalog.Catalog;
import org.oooengine.hive.catalog.ClusterCatalog;
import org.oooengine.hive.sql.SqlEngine;
import org.oooengine.hive.sql.SqlSession;
import org.oooengine.optimizer.cost.Calibration;

/** The SQL engine over a running cluster: its tables are the catalog, its nodes serve the scans. */
public final class ClusterSqlEngine implements SqlEngine {
    private final ClusterSession cluster;
    private final boolean ownsCluster;
    private final Catalog catalog;
    private final ExecutionModes modes;

    /**
     * An engine over a cluster without a calibration — join methods are chosen by a fixed rule —
     * nor its secret: statements run in daemon mode only.
     */
    public ClusterSqlEngine(ClusterSession cluster) {
        this(cluster, Optional.empty(), Optional.empty(), false);
    }

    private ClusterSqlEngine(ClusterSession cluster, Optional<Calibration> calibration, Optional<ClusterSecret> secret,
                             boolean ownsCluster) {
        this.cluster = cluster;
        this.ownsCluster = ownsCluster;
        this.catalog = new ClusterCatalog(cluster);
        this.modes = new ExecutionModes(cluster, new ClusterJoinChooser(cluster, calibration), secret);
    }

    /**
     * Connects to the cluster described in {@code clusterDir} as its coordinator; the optimizer
     * plans joins when the cluster has been calibrated ({@code ooo calibrate --cluster}). With the
     * cluster's secret, statements may also run as MapReduce jobs.
     */
    public static ClusterSqlEngine open(Path clusterDir, Duration timeout) {
        return new ClusterSqlEngine(ClusterSession.open(clusterDir, "coordinator", timeout),
                Calibration.read(clusterDir), Optional.of(ClusterSpec.readSecret(clusterDir)), true);
    }

    @Override
    public SqlSession openSession(String user, String database, Map<String, String> settings) {
        return new EngineSession(user, database, settings, catalog, modes);
    }

    @Override
    public void close() {
        if (ownsCluster) {
            cluster.close();
        }
    }
}
