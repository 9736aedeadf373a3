package org.oooengine.hive.engine;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.oooengine.core.cluster.ClusterSession;
import org.oooengine.hive.catalog.Catalog;
import org.oooengine.hive.catalog.ClusterCatalog;
import org.oooengine.hive.sql.SqlEngine;
import org.oooengine.hive.sql.SqlSession;

/** The SQL engine over a running cluster: its tables are the catalog, its nodes serve the scans. */
public final class ClusterSqlEngine implements SqlEngine {
    private final ClusterSession cluster;
    private final boolean ownsCluster;
    private final Catalog catalog;
    private final ClusterTableReader reader;

    public ClusterSqlEngine(ClusterSession cluster) {
        this(cluster, false);
    }

    private ClusterSqlEngine(ClusterSession cluster, boolean ownsCluster) {
        this.cluster = cluster;
        this.ownsCluster = ownsCluster;
        this.catalog = new ClusterCatalog(cluster);
        this.reader = new ClusterTableReader(cluster);
    }

    /** Connects to the cluster described in {@code clusterDir} as its coordinator. */
    public static ClusterSqlEngine open(Path clusterDir, Duration timeout) {
        return new ClusterSqlEngine(ClusterSession.open(clusterDir, "coordinator", timeout), true);
    }

    @Override
    public SqlSession openSession(String user, String database, Map<String, String> settings) {
        return new EngineSession(user, database, settings, catalog, reader);
    }

    @Override
    public void close() {
        if (ownsCluster) {
            cluster.close();
        }
    }
}
