package org.oooengine.hive.engine;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.oooengine.core.cluster.ClusterSession;
import org.oooengine.core.cluster.ClusterSpec;
import org.oooengine.core.net.ClusterSecret;
import org.oooengine.hive.catalog.ClusterCatalog;
import org.oooengine.hive.catalog.EmbeddedCatalog;
import org.oooengine.hive.sql.SqlEngine;
import org.oooengine.hive.sql.SqlException;
import org.oooengine.hive.sql.SqlSession;
import org.oooengine.optimizer.cost.Calibration;

/**
 * The SQL engine over a running cluster: the embedded catalog names its tables, its nodes store
 * and serve them.
 */
public final class ClusterSqlEngine implements SqlEngine {
    private final ClusterSession cluster;
    private final boolean ownsCluster;
    private final EmbeddedCatalog catalog;
    private final ExecutionModes modes;
    private final DataDefinition ddl;

    /**
     * An engine over a cluster without a calibration — join methods are chosen by a fixed rule —
     * nor its secret (statements run in daemon mode only), its catalog in memory.
     */
    public ClusterSqlEngine(ClusterSession cluster) {
        this(cluster, null);
    }

    /** As {@link #ClusterSqlEngine(ClusterSession)}, with the catalog kept in {@code catalogFile}. */
    public ClusterSqlEngine(ClusterSession cluster, Path catalogFile) {
        this(cluster, catalogFile, Optional.empty(), Optional.empty(), false);
    }

    private ClusterSqlEngine(ClusterSession cluster, Path catalogFile, Optional<Calibration> calibration,
                             Optional<ClusterSecret> secret, boolean ownsCluster) {
        this.cluster = cluster;
        this.ownsCluster = ownsCluster;
        this.catalog = new EmbeddedCatalog(catalogFile, new ClusterCatalog(cluster));
        ClusterJoinChooser chooser = new ClusterJoinChooser(cluster, calibration);
        this.modes = new ExecutionModes(cluster, chooser, secret);
        this.ddl = new DataDefinition(catalog, cluster, (path, local, target) -> {
            throw new SqlException(SqlException.NOT_SUPPORTED, "not supported yet: LOAD DATA");
        }, chooser::tablesChanged);
    }

    /**
     * Connects to the cluster described in {@code clusterDir} as its coordinator, with the catalog
     * in {@code clusterDir}/{@value EmbeddedCatalog#FILE_NAME}; the optimizer plans joins when the
     * cluster has been calibrated ({@code ooo calibrate --cluster}). With the cluster's secret,
     * statements may also run as MapReduce jobs.
     */
    public static ClusterSqlEngine open(Path clusterDir, Duration timeout) {
        return new ClusterSqlEngine(ClusterSession.open(clusterDir, "coordinator", timeout),
                clusterDir.resolve(EmbeddedCatalog.FILE_NAME), Calibration.read(clusterDir),
                Optional.of(ClusterSpec.readSecret(clusterDir)), true);
    }

    @Override
    public SqlSession openSession(String user, String database, Map<String, String> settings) {
        return new EngineSession(user, database, settings, catalog, modes, ddl);
    }

    @Override
    public void close() {
        if (ownsCluster) {
            cluster.close();
        }
    }
}
