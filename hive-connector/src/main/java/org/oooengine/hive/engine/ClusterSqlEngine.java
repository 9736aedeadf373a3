package org.oooengine.hive.engine;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.oooengine.core.cluster.ClusterSession;
import org.oooengine.core.store.TableDefinition;
import org.oooengine.core.cluster.ClusterSpec;
import org.oooengine.core.cluster.LostNodes;
import org.oooengine.core.net.ClusterSecret;
import org.oooengine.hive.catalog.Catalog;
import org.oooengine.hive.catalog.ClusterCatalog;
import org.oooengine.hive.catalog.EmbeddedCatalog;
import org.oooengine.hive.files.FileTableReader;
import org.oooengine.hive.files.PartitionDirectories;
import org.oooengine.hive.catalog.SystemCatalog;
import org.oooengine.hive.metastore.MetastoreCatalog;
import org.oooengine.hive.security.AccessControl;
import org.oooengine.hive.security.AdminUsersAccessControl;
import org.oooengine.hive.sql.SessionUser;
import org.oooengine.hive.sql.SqlEngine;
import org.oooengine.hive.sql.SqlSession;
import org.oooengine.optimizer.cost.Calibration;
import org.oooengine.optimizer.snapshot.ClusterSnapshots;
import org.oooengine.core.settings.CoordinatorSettings;
import org.oooengine.core.settings.Settings;

/**
 * The SQL engine over a running cluster. Its catalog is the embedded one by default — databases
 * and tables created through SQL, stored on the cluster's nodes — or, with the coordinator setting
 * {@code ooo.catalog=hms}, a Hive metastore's tables, read from their files. The coordinator
 * settings also hold the Hadoop configuration of its jobs and file systems ({@link HadoopSettings}),
 * the files LOAD DATA may read ({@link LoadableFiles}) and who may change tables
 * ({@link AdminUsersAccessControl}, unless the program that opens the engine gives its own rules).
 */
public final class ClusterSqlEngine implements SqlEngine {
    private static final Logger LOG = LogManager.getLogger(ClusterSqlEngine.class);
    /** Coordinator settings (the catalog and its connection) in the cluster directory, as Java properties. */
    public static final String SETTINGS_FILE = Settings.COORDINATOR_FILE;

    private final ClusterSession cluster;
    private final boolean ownsCluster;
    private final Catalog catalog;
    private final MetastoreCatalog metastore;
    private final ExecutionModes modes;
    private final DataDefinition ddl;
    /** CREATE, DROP and INSERT in the metastore and its tables; null with the embedded catalog, whose {@link #ddl} runs them. */
    private final MetastoreChanges metastoreChanges;
    private final AccessControl access;
    private final SessionLimits limits;
    private final ClusterSnapshots snapshots;
    private final LostNodes lostNodes;

    /**
     * An engine over a cluster without a calibration — join methods are chosen by a fixed rule —
     * nor its secret (statements run in daemon mode only), its catalog in memory.
     */
    public ClusterSqlEngine(ClusterSession cluster) {
        this(cluster, null);
    }

    /** As {@link #ClusterSqlEngine(ClusterSession)}, with the catalog kept in {@code catalogFile}. */
    public ClusterSqlEngine(ClusterSession cluster, Path catalogFile) {
        this(cluster, null, catalogFile, Map.of());
    }

    /**
     * As {@link #ClusterSqlEngine(ClusterSession, Path)}, with coordinator settings (those of
     * {@value #SETTINGS_FILE}) for the cluster in {@code clusterDir}, whose files LOAD DATA never
     * reads; null when the caller does not know it.
     */
    public ClusterSqlEngine(ClusterSession cluster, Path clusterDir, Path catalogFile, Map<String, String> settings) {
        this(cluster, clusterDir, catalogFile, settings, Optional.empty(), Optional.empty(),
                AdminUsersAccessControl.fromSettings(settings), false);
    }

    private ClusterSqlEngine(ClusterSession cluster, Path clusterDir, Path catalogFile, Map<String, String> settings,
                             Optional<Calibration> calibration, Optional<ClusterSecret> secret, AccessControl access,
                             boolean ownsCluster) {
        this.cluster = cluster;
        this.ownsCluster = ownsCluster;
        this.access = access;
        Settings.checkCoordinator(settings);
        this.limits = SessionLimits.fromSettings(settings, () -> nodeMemoryCap(cluster));
        this.snapshots = new ClusterSnapshots(cluster, calibration);
        this.lostNodes = cluster.lostNodes(CoordinatorSettings.NODE_RESTART_WAIT.get(settings));
        HadoopSettings hadoop = HadoopSettings.fromCoordinator(settings);
        // the files SQL may read: LOAD DATA's, and those of tables held in files, judged alike
        LoadableFiles loadable = LoadableFiles.fromSettings(settings, clusterDir, cluster.spec());
        switch (catalogKind(settings)) {
            case "embedded" -> {
                EmbeddedCatalog embedded = new EmbeddedCatalog(catalogFile, new ClusterCatalog(snapshots));
                SystemCatalog system = new SystemCatalog(embedded, cluster);
                this.catalog = system;
                this.metastore = null;
                this.ddl = new DataDefinition(embedded, cluster, loadable, hadoop, snapshots::tablesChanged);
                this.metastoreChanges = null;
                org.apache.hadoop.conf.Configuration files = hadoop.apply(new org.apache.hadoop.conf.Configuration(), Map.of());
                this.modes = new ExecutionModes(cluster, snapshots, secret, hadoop, Optional.of(new FileTableReader(files,
                        table -> PartitionDirectories.parts(table, files), loadable::checkTableFile)),
                        new SystemTableReader(system), limits.coordinatorSpill());
            }
            case MetastoreCatalog.CATALOG_NAME -> {
                this.metastore = MetastoreCatalog.fromSettings(settings);
                SystemCatalog system = new SystemCatalog(metastore, cluster);
                this.catalog = system;
                this.ddl = null; // Hive changes the catalog; INSERT writes the tables' files
                this.metastoreChanges = new MetastoreChanges(metastore, new FileTableChanges(cluster, loadable, hadoop,
                        metastore::addPartitions, metastore::dropPartitions), loadable, hadoop);
                this.modes = new ExecutionModes(cluster, snapshots, secret, hadoop,
                        Optional.of(metastore.tableReader(loadable::checkTableFile)), new SystemTableReader(system),
                        limits.coordinatorSpill());
            }
            default -> throw new IllegalStateException("unchecked catalog kind");
        }
    }

    /**
     * The smallest per-query memory cap of the cluster's nodes, as they report it; empty when a
     * node does not answer (the nodes hold to their caps all the same).
     */
    private static Optional<SessionLimits.NodeCap> nodeMemoryCap(ClusterSession cluster) {
        try {
            return cluster.stats().entrySet().stream()
                    .filter(e -> e.getValue().path("queryMaxMemory").asLong(0) > 0)
                    .map(e -> new SessionLimits.NodeCap(e.getKey(), e.getValue().path("queryMaxMemory").asLong()))
                    .min(java.util.Comparator.comparingLong(SessionLimits.NodeCap::bytes));
        } catch (RuntimeException e) {
            LOG.info("the nodes' memory caps cannot be told now ({}); each node holds to its own", e.getMessage());
            return Optional.empty();
        }
    }

    private static String catalogKind(Map<String, String> settings) {
        return CoordinatorSettings.CATALOG.get(settings);
    }

    /**
     * Connects to the cluster described in {@code clusterDir} as its coordinator, with the settings
     * of {@code clusterDir}/{@value #SETTINGS_FILE} (if any) and then {@code overrides}. The embedded
     * catalog lives in {@code clusterDir}/{@value EmbeddedCatalog#FILE_NAME}; the optimizer plans
     * joins when the cluster has been calibrated ({@code ooo calibrate --cluster}); with the
     * cluster's secret, statements may also run as MapReduce jobs.
     */
    public static ClusterSqlEngine open(Path clusterDir, Duration timeout, Map<String, String> overrides) {
        return open(clusterDir, timeout, overrides, null);
    }

    /**
     * As {@link #open(Path, Duration, Map)}, with {@code access} deciding who may change what
     * instead of the built-in {@link AdminUsersAccessControl}.
     */
    public static ClusterSqlEngine open(Path clusterDir, Duration timeout, Map<String, String> overrides,
                                        AccessControl access) {
        Map<String, String> settings = settings(clusterDir, overrides);
        Settings.checkCoordinator(settings); // a wrong setting is refused before any connection is made
        SessionLimits.fromSettings(settings, Optional::empty);
        AccessControl rules = access != null ? access : AdminUsersAccessControl.fromSettings(settings);
        ClusterSession session = ClusterSession.open(clusterDir, "coordinator", timeout);
        try {
            return new ClusterSqlEngine(session, clusterDir, clusterDir.resolve(EmbeddedCatalog.FILE_NAME), settings,
                    usableCalibration(clusterDir), Optional.of(ClusterSpec.readSecret(clusterDir)), rules, true);
        } catch (RuntimeException e) {
            session.close();
            throw e;
        }
    }

    /**
     * The cluster's calibration, or none when it cannot be read (one made by an older version): the
     * coordinator still serves SQL, planning joins as an uncalibrated cluster does, and says why.
     */
    private static Optional<Calibration> usableCalibration(Path clusterDir) {
        try {
            return Calibration.read(clusterDir);
        } catch (RuntimeException e) {
            LOG.warn("joins are planned without the optimizer: {}", e.getMessage());
            return Optional.empty();
        }
    }

    public static ClusterSqlEngine open(Path clusterDir, Duration timeout) {
        return open(clusterDir, timeout, Map.of());
    }

    /**
     * The coordinator settings: those of {@code clusterDir}/{@value #SETTINGS_FILE} (if any), then
     * {@code overrides}. The endpoint takes its own ({@code ooo.endpoint.*}) from them too.
     */
    public static Map<String, String> settings(Path clusterDir, Map<String, String> overrides) {
        Map<String, String> settings = new LinkedHashMap<>(readSettings(clusterDir.resolve(SETTINGS_FILE)));
        settings.putAll(overrides);
        return settings;
    }

    private static Map<String, String> readSettings(Path file) {
        Map<String, String> out = new LinkedHashMap<>();
        if (Files.isRegularFile(file)) {
            Properties p = new Properties();
            try (Reader in = Files.newBufferedReader(file)) {
                p.load(in);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read coordinator settings " + file + ": " + e.getMessage(), e);
            }
            p.stringPropertyNames().forEach(k -> out.put(k, p.getProperty(k)));
        }
        return out;
    }

    /** The cluster this engine runs statements on. */
    public ClusterSession cluster() {
        return cluster;
    }

    /** CPU seconds the cluster's node processes have spent so far, all together (-1 when some node cannot tell). */
    public double nodesCpuSeconds() {
        double[] cpu = cluster.stats().values().stream().mapToDouble(s -> s.path("processCpuSeconds").asDouble(-1)).toArray();
        return java.util.Arrays.stream(cpu).anyMatch(c -> c < 0) ? -1 : java.util.Arrays.stream(cpu).sum();
    }

    /** Cores of the machine a node runs on, the fewest over the nodes (0 when none tells). */
    public int nodeCores() {
        return cluster.stats().values().stream().mapToInt(s -> s.path("cores").asInt(0)).min().orElse(0);
    }

    /** Bytes spilled to disk so far by the cluster's nodes and by this process's statements. */
    public long bytesSpilled() {
        long nodes = cluster.stats().values().stream().mapToLong(s -> s.path("bytesSpilled").asLong()).sum();
        return nodes + org.oooengine.core.fragment.QueryMemory.spilledInProcess();
    }

    /** A session of a user whose name no password proved, the one local user ({@link SessionUser.Login#UNCHECKED}). */
    /**
     * Enters transactional rows the nodes keep under {@code storage}, written by a program of its
     * own (the TPC-C driver), into the embedded catalog as {@code database.name}, so SQL reads them
     * (and, with {@code ooo.htap.copies}, their analytical copies) as it reads the tables CREATE
     * TABLE makes.
     *
     * @param rows how the nodes key and encode the rows: its columns become the table's
     */
    public void attachTransactionalTable(String database, String name, String storage, TableDefinition rows,
                                         Map<String, String> properties) {
        if (ddl == null) {
            throw new IllegalStateException("the Hive Metastore catalog takes no tables of the nodes' own");
        }
        ddl.attachTransactional(database, name, storage, rows, properties);
    }

    /**
     * Replaces the rows of table {@code database.name} with {@code rows} (SQL values in its column
     * order) in one load, as INSERT OVERWRITE does; returns how many there were.
     */
    public long loadRows(String database, String name, java.util.Iterator<Object[]> rows) {
        if (ddl == null) {
            throw new IllegalStateException("the Hive Metastore catalog's tables are written by Hive");
        }
        return ddl.loadRows(database, name, rows);
    }

    @Override
    public SqlSession openSession(String user, String database, Map<String, String> settings) {
        return openSession(SessionUser.unchecked(user), database, settings);
    }

    @Override
    public SqlSession openSession(SessionUser user, String database, Map<String, String> settings) {
        return new EngineSession(user, database, settings, catalog, modes, ddl, metastoreChanges, access, limits,
                snapshots, lostNodes);
    }

    @Override
    public void close() {
        if (metastore != null) {
            metastore.close();
        }
        if (ownsCluster) {
            cluster.close();
        }
    }
}
