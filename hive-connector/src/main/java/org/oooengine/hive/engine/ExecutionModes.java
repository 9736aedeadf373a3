package org.oooengine.hive.engine;

import java.util.Map;
import java.util.Optional;
import org.oooengine.core.cluster.ClusterSession;
import org.oooengine.core.cluster.RuntimeLimits;
import org.oooengine.core.fragment.SpillSpace;
import org.oooengine.core.net.ClusterSecret;
import org.oooengine.core.settings.SessionSettings;
import org.oooengine.hive.files.FileTableReader;
import org.oooengine.optimizer.catalog.TableInfo;
import org.oooengine.hive.files.SplitScheduling;
import org.oooengine.core.sql.SqlException;
import org.oooengine.hive.sql.analyze.DdlAnalyzer;
import org.oooengine.hive.sql.exec.RoutingTableReader;
import org.oooengine.hive.sql.exec.TableReader;
import org.oooengine.optimizer.rel.PipelinePlanner;
import org.oooengine.optimizer.rel.RelNode;
import org.oooengine.optimizer.rel.TableLayouts;
import org.oooengine.optimizer.snapshot.ClusterSnapshot;
import org.oooengine.optimizer.snapshot.ClusterSnapshots;

/**
 * The session setting {@code ooo.execution.mode}: where a statement's work runs.
 *
 * <p>{@code daemon} (default): tables are scanned and index joins run on the node daemons, as
 * they answer the coordinator at once; the rest runs on the coordinator.
 *
 * <p>{@code mapreduce}: every table access is a MapReduce scan job — of the table's nodes, or of
 * its files for a table held in files — and every join chain the engine can run on the nodes is
 * MapReduce jobs (PSMJ, the out-of-order join as a map-only job, or both), on Hadoop's local job
 * runner or the framework the coordinator's Hadoop settings name; the coordinator reads the jobs'
 * output and runs the rest. It needs the cluster's secret, which the jobs' tasks present to the nodes.
 *
 * <p>Either way, tables held in files are the catalog's (e.g. a Hive metastore's): in daemon
 * mode the nodes read their files' splits, as they read their partitions of the cluster's tables.
 */
final class ExecutionModes {
    private final ClusterSession cluster;
    private final ClusterSnapshots snapshots;
    private final ClusterJoinChooser chooser = new ClusterJoinChooser();
    private final Optional<ClusterSecret> secret;
    private final HadoopSettings hadoop;
    private final Optional<FileTableReader> fileTables;
    private final SystemTableReader systemTables;
    private final ClusterIndexJoinRunner daemonJoins;
    private final SpillSpace coordinatorSpill;

    /**
     * @param snapshots        what statements are planned from
     * @param fileTables       reads the catalog's tables held in files, and tells a job where their files are
     * @param systemTables     reads the system tables, on the coordinator whatever the mode
     * @param coordinatorSpill the disk the spill files of all the coordinator's statements may take
     */
    ExecutionModes(ClusterSession cluster, ClusterSnapshots snapshots, Optional<ClusterSecret> secret,
                   HadoopSettings hadoop, Optional<FileTableReader> fileTables, SystemTableReader systemTables,
                   SpillSpace coordinatorSpill) {
        this.coordinatorSpill = coordinatorSpill;
        this.cluster = cluster;
        this.snapshots = snapshots;
        this.secret = secret;
        this.hadoop = hadoop;
        this.fileTables = fileTables;
        this.systemTables = systemTables;
        this.daemonJoins = new ClusterIndexJoinRunner(cluster);
    }

    /** Tables held in files read by {@code fileTables}, system tables by {@code systemTables}, the rest by {@code clusterTables}. */
    private TableReader withCoordinatorTables(TableReader clusterTables, Optional<? extends TableReader> fileTables) {
        TableReader stored = fileTables.<TableReader>map(files -> new RoutingTableReader(FileTableReader::holds, files,
                clusterTables)).orElse(clusterTables);
        return new RoutingTableReader(SystemTableReader::holds, systemTables, stored);
    }

    /** The bytes the files of {@code table} hold now; 0 when they cannot be listed. */
    long fileBytes(TableInfo table) {
        return fileTables.map(f -> f.facts(table)).map(FileTableReader.Facts::bytes).orElse(0L);
    }

    /** The cluster's connections to its nodes, which a statement's transaction reaches them by. */
    /** Which node serves each partition: a query that lost a node runs again on the replicas of its partitions. */
    org.oooengine.core.cluster.ServingNodes serving() {
        return cluster.serving();
    }

    org.oooengine.core.cluster.Peers peers() {
        return cluster.peers();
    }

    /** As {@link #forSettings(Map)}, the transactional tables read within the statement's transaction {@code tx}. */
    Execution forSettings(Map<String, String> settings, StatementTransaction tx) {
        Execution e = forSettings(settings);
        return e.reading(new RoutingTableReader(DdlAnalyzer::transactional, new ClusterTableReader(cluster, tx,
                fileTables, splitScheduling(settings)),
                e.reader()));
    }

    /**
     * How a statement runs under {@code settings}, planned from the statement's snapshot (see
     * {@link ClusterSnapshots#pin}); refuses a join method the mode does not run.
     */
    Execution forSettings(Map<String, String> settings) {
        return planned(settings, snapshots.current());
    }

    /** Refuses a mode or join method {@code settings} cannot run, as {@link #forSettings} would, asking the nodes nothing. */
    void check(Map<String, String> settings) {
        planned(settings, null); // the choices read a snapshot only when they plan a join
    }

    private Execution planned(Map<String, String> settings, ClusterSnapshot snapshot) {
        return switch (SessionSettings.EXECUTION_MODE.get(settings)) {
            case "mapreduce" -> mapReduce(settings, snapshot);
            default -> new Execution(daemonScans(splitScheduling(settings)), daemonJoins, chooser.forDaemons(settings, snapshot),
                    (node, readWhereAssigned) -> filesRead(node, splitScheduling(settings), readWhereAssigned),
                    new ClusterTableLayouts(snapshot, fileTables), plannerLimits(settings),
                    RuntimeLimits.of(settings), coordinatorSpill);
        };
    }

    /** What the planner lets the nodes hold of a join's side, as {@code settings} say. */
    private static PipelinePlanner.Limits plannerLimits(Map<String, String> settings) {
        return new PipelinePlanner.Limits(SessionSettings.JOIN_BROADCAST_MAX_BYTES.get(settings),
                SessionSettings.JOIN_BUILD_MAX_BYTES.get(settings), SessionSettings.AGGREGATE_MERGE_ON_NODES.get(settings),
                SessionSettings.AGGREGATE_CASCADE_GROUPING_SETS.get(settings),
                SessionSettings.AGGREGATE_PARTIAL_SKIP_PERCENT.get(settings).intValue());
    }

    private Execution mapReduce(Map<String, String> settings, ClusterSnapshot snapshot) {
        ClusterSecret key = secret.orElseThrow(() -> new SqlException(SqlException.NOT_SUPPORTED, "MapReduce mode needs "
                + "the cluster's secret for its jobs' tasks; this engine was not opened on the cluster directory"));
        MapReduceJobs jobs = MapReduceJobs.forSession(cluster.spec(), key, hadoop, settings);
        TableReader scans = withCoordinatorTables(new MapReduceTableReader(cluster, jobs),
                fileTables.map(files -> new MapReduceFileTableReader(files, jobs)));
        return new Execution(scans, new MapReduceJoinRunner(jobs), chooser.forMapReduce(settings, snapshot),
                (node, readWhereAssigned) -> mapReduceJobs(node), TableLayouts.NONE, plannerLimits(settings), RuntimeLimits.of(settings),
                coordinatorSpill);
    }

    /**
     * Scans on the nodes: the cluster's tables' partitions and the splits of tables held in files,
     * shared out among the nodes as {@code files} says; system tables on the coordinator.
     */
    private TableReader daemonScans(SplitScheduling files) {
        return new RoutingTableReader(SystemTableReader::holds, systemTables,
                new ClusterTableReader(cluster, ClusterTableReader.Reads.NONE, fileTables, files));
    }

    private static SplitScheduling splitScheduling(Map<String, String> settings) {
        return SplitScheduling.of(SessionSettings.FILES_SCHEDULING.get(settings), SessionSettings.FILES_SKEW.get(settings))
                .cached(SessionSettings.FILES_CACHE.get(settings));
    }

    /**
     * What a scan of a table held in files reads on the nodes: partitions kept, files, splits and
     * bytes, and how the nodes share the splits out (the session's pattern, unless each is read
     * where it is assigned).
     */
    private String filesRead(RelNode node, SplitScheduling files, boolean readWhereAssigned) {
        if (!(node instanceof RelNode.Scan scan) || !FileTableReader.holds(scan.table()) || fileTables.isEmpty()) {
            return "";
        }
        FileTableReader reader = fileTables.get();
        return "  [files: " + reader.planned(scan.table(), cluster.spec().nodes(), scan.filter(), files)
                .describe(reader.facts(scan.table()))
                + ", " + (readWhereAssigned ? "where assigned" : files.pattern().name().toLowerCase(java.util.Locale.ROOT))
                + (files.cached() ? "" : ", not cached") + "]";
    }

    private static String mapReduceJobs(RelNode node) {
        if (node instanceof RelNode.Scan) {
            return "  [MapReduce scan job]";
        }
        if (node instanceof RelNode.IndexJoin join) {
            return "  [MapReduce: " + String.join(", ", MapReduceJoinRunner.jobNames(join)) + "]";
        }
        return "";
    }
}
