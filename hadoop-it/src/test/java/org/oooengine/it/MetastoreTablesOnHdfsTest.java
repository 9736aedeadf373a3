package org.oooengine.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.trino.tpch.TpchTable;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hive.metastore.HiveMetaStoreClient;
import org.apache.hadoop.hive.metastore.IMetaStoreClient;
import org.apache.hadoop.hive.metastore.conf.MetastoreConf;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.oooengine.core.cluster.TestCluster;
import org.oooengine.core.tpch.DuckDbOracle;
import org.oooengine.core.tpch.TpchSchema;
import org.oooengine.hive.engine.ClusterSqlEngine;
import org.oooengine.hive.engine.OracleComparison;
import org.oooengine.hive.metastore.InProcessMetastore;
import org.oooengine.hive.metastore.MetastoreCatalog;
import org.oooengine.hive.metastore.TpchInMetastore;
import org.oooengine.hive.sql.Cancellation;
import org.oooengine.hive.sql.SqlSession;

/**
 * The SQL engine with {@code ooo.catalog=hms} over a Hive metastore whose tables' files are on
 * HDFS (a MiniDFSCluster): text with Hive's delimiter and with tabs, ORC, and orders partitioned
 * by status, registered by their {@code hdfs://} locations. The coordinator reads them in daemon
 * mode; in MapReduce mode scan jobs read them, on the local job runner and on YARN (a
 * MiniMRYarnCluster whose tasks run in JVMs of their own). Every result is DuckDB's.
 */
@ExtendWith(SharedMiniHadoop.class)
class MetastoreTablesOnHdfsTest {
    private static final double SCALE_FACTOR = 0.01;
    private static final String DB = "tpch";
    private static final List<TpchTable<?>> TABLES = List.of(TpchTable.NATION, TpchTable.REGION, TpchTable.ORDERS,
            TpchTable.LINE_ITEM);

    /** Where a statement's table reads run. */
    enum Mode {
        DAEMON, LOCAL_JOB_RUNNER, YARN
    }

    @TempDir
    static java.nio.file.Path dir;
    private static MiniHadoop hadoop;
    private static InProcessMetastore metastore;
    private static TestCluster cluster;
    /** One coordinator per mode: where jobs run and which file systems they use is the operator's setting. */
    private static final Map<Mode, ClusterSqlEngine> engines = new EnumMap<>(Mode.class);
    private static DuckDbOracle oracle;

    @BeforeAll
    static void start(MiniHadoop shared, InProcessMetastore sharedMetastore) throws Exception {
        hadoop = shared;
        String hdfs = hadoop.hdfsUri();
        metastore = sharedMetastore;
        Configuration client = MetastoreConf.newMetastoreConf();
        MetastoreConf.setVar(client, MetastoreConf.ConfVars.THRIFT_URIS, metastore.uris());
        IMetaStoreClient admin = new HiveMetaStoreClient(client);
        try {
            TpchInMetastore tpch = new TpchInMetastore(admin, DB, new Path(hdfs + "/warehouse/tpch"), hadoop.jobConf());
            for (TpchTable<?> table : TABLES) {
                tpch.register(table, SCALE_FACTOR);
            }
        } finally {
            admin.close();
        }
        cluster = new TestCluster(Files.createDirectories(dir.resolve("cluster")), 1);
        for (Mode mode : Mode.values()) {
            Map<String, String> settings = new HashMap<>(Map.of(
                    MetastoreCatalog.CATALOG_SETTING, MetastoreCatalog.CATALOG_NAME,
                    MetastoreCatalog.URIS_SETTING, metastore.uris(),
                    MetastoreCatalog.CONF_PREFIX + "fs.defaultFS", hdfs));
            settings.putAll(hadoopSettings(mode));
            engines.put(mode, ClusterSqlEngine.open(cluster.dir, TestCluster.TIMEOUT, settings));
        }
        oracle = new DuckDbOracle(SCALE_FACTOR, TABLES);
    }

    @AfterAll
    static void stop() throws Exception {
        try (AutoCloseable o = oracle; AutoCloseable c = cluster) {
            // closed in reverse order; Hadoop and the metastore, shared with the other classes, stop after the last
            engines.values().forEach(ClusterSqlEngine::close);
        }
    }

    /**
     * The coordinator's Hadoop settings for {@code mode}: on YARN, the job client settings of the
     * mini cluster (jobs keep their directories on its HDFS); on the local job runner, the local
     * file system as the jobs' default, so only their input is on HDFS.
     */
    private static Map<String, String> hadoopSettings(Mode mode) {
        Map<String, String> settings = new HashMap<>();
        switch (mode) {
            case DAEMON -> { }
            case LOCAL_JOB_RUNNER -> settings.putAll(Map.of("fs.defaultFS", "file:///",
                    "hadoop.tmp.dir", dir.resolve("jobs").toString()));
            case YARN -> hadoop.jobConf().forEach(e -> settings.put(e.getKey(), e.getValue()));
        }
        return settings;
    }

    /** A session whose scans run in {@code mode}. */
    private static SqlSession session(Mode mode) {
        Map<String, String> settings = new HashMap<>();
        if (mode != Mode.DAEMON) {
            settings.put("ooo.execution.mode", "mapreduce");
        }
        if (mode == Mode.YARN) {
            // a scan job's few map tasks run in its application master's JVM: one JVM start per job, not one per file
            settings.put("mapreduce.job.ubertask.enable", "true");
        }
        return engines.get(mode).openSession("analyst", DB, settings);
    }

    private static List<Object[]> rows(SqlSession s, String sql) {
        List<Object[]> rows = new ArrayList<>();
        s.execute(sql, new Cancellation()).rows().forEachRemaining(rows::add);
        return rows;
    }

    /** Runs {@code sql} in {@code mode}, checking the plan reads tables as the mode says, and compares with DuckDB. */
    private static void assertMatchesDuckDb(Mode mode, String sql, boolean ordered) throws Exception {
        try (SqlSession s = session(mode)) {
            String plan = rows(s, "EXPLAIN " + sql).stream().map(r -> (String) r[0]).collect(Collectors.joining("\n"));
            assertEquals(mode != Mode.DAEMON, plan.contains("[MapReduce scan job]"), plan);
            int yarnApps = hadoop.yarn.getResourceManager().getRMContext().getRMApps().size();
            List<Object[]> ours = rows(s, sql);
            List<Object[]> expected = oracle.rows(sql);
            assertFalse(expected.isEmpty(), sql);
            assertNull(OracleComparison.difference(ours, expected, ordered), sql);
            int ranOnYarn = hadoop.yarn.getResourceManager().getRMContext().getRMApps().size() - yarnApps;
            assertEquals(mode == Mode.YARN, ranOnYarn > 0, ranOnYarn + " applications ran on YARN");
        }
    }

    /**
     * Every row of every table — text in two delimiters, ORC in two files, ORC partitioned — is
     * DuckDB's. (On YARN, where a job costs seconds, the joins below read every table.)
     */
    @ParameterizedTest
    @EnumSource(names = {"DAEMON", "LOCAL_JOB_RUNNER"})
    void everyRowOfEveryTable(Mode mode) throws Exception {
        for (TpchTable<?> table : TABLES) {
            String columns = String.join(", ", TpchSchema.definition(table).schema().names());
            assertMatchesDuckDb(mode, "SELECT " + columns + " FROM " + table.getTableName(), false);
        }
    }

    /** A join of the text tables, one with Hive's delimiter, one with tabs. */
    @ParameterizedTest
    @EnumSource(Mode.class)
    void aJoinOfTextTables(Mode mode) throws Exception {
        assertMatchesDuckDb(mode, "SELECT r_name, count(*) AS nations, min(n_name) AS first_nation "
                + "FROM nation JOIN region ON n_regionkey = r_regionkey GROUP BY r_name ORDER BY r_name", true);
    }

    /** A join over two partitions of orders and lineitem's ORC files, aggregated on the coordinator. */
    @ParameterizedTest
    @EnumSource(Mode.class)
    void aJoinOverSomePartitions(Mode mode) throws Exception {
        assertMatchesDuckDb(mode, "SELECT o_orderstatus, count(*) AS line_count, sum(l_extendedprice) AS revenue "
                + "FROM orders JOIN lineitem ON o_orderkey = l_orderkey WHERE o_orderstatus <> 'P' "
                + "GROUP BY o_orderstatus ORDER BY o_orderstatus", true);
    }

    @AfterEach
    void noJobDirectoryIsLeftBehind() throws Exception {
        for (Mode mode : List.of(Mode.LOCAL_JOB_RUNNER, Mode.YARN)) {
            Configuration conf = new Configuration(hadoop.jobConf());
            if (mode == Mode.LOCAL_JOB_RUNNER) {
                conf.set("fs.defaultFS", "file:///");
                conf.set("hadoop.tmp.dir", dir.resolve("jobs").toString());
            }
            Path jobs = new Path(conf.get("hadoop.tmp.dir"), "ooo-sql");
            FileSystem fs = jobs.getFileSystem(conf);
            if (fs.exists(jobs)) {
                assertEquals(0, fs.listStatus(jobs).length, "job directories left behind in " + fs.makeQualified(jobs));
            }
        }
    }
}
