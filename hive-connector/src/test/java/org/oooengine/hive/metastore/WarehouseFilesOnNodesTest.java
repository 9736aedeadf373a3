package org.oooengine.hive.metastore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.apache.hadoop.hive.metastore.HiveMetaStoreClient;
import org.apache.hadoop.hive.metastore.IMetaStoreClient;
import org.apache.hadoop.hive.metastore.conf.MetastoreConf;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.oooengine.core.cluster.TestCluster;
import org.oooengine.core.settings.CoordinatorSettings;
import org.oooengine.core.sql.SqlException;
import org.oooengine.core.tpch.DuckDbOracle;
import org.oooengine.core.tpch.TpchSchema;
import org.oooengine.hive.engine.ClusterSqlEngine;
import org.oooengine.hive.engine.OracleComparison;
import org.oooengine.hive.engine.TpchQueriesTest;
import org.oooengine.hive.sql.Cancellation;
import org.oooengine.hive.sql.SqlSession;

/**
 * A Hive warehouse read by three nodes: TPC-H (SF 0.01) in a real Hive 4.1 metastore, once as
 * text and ORC files (orders partitioned by status), once as Parquet files DuckDB wrote (orders in
 * Hive's partition directories). The files are cut into 64 KiB splits, which the nodes read
 * between them; every answer equals DuckDB's over the same data.
 */
class WarehouseFilesOnNodesTest {
    private static final double SCALE_FACTOR = 0.01;
    /** This class's databases in the JVM's metastore. */
    private static final String TEXT_AND_ORC = "warehouse_text_orc";
    private static final String PARQUET = "warehouse_parquet";
    private static final String OUTSIDE = "warehouse_outside";

    @TempDir
    static Path dir;
    private static InProcessMetastore metastore;
    private static DuckDbOracle oracle;
    private static TestCluster nodes;
    private static ClusterSqlEngine engine;

    @BeforeAll
    static void start() throws Exception {
        metastore = InProcessMetastore.shared();
        oracle = new DuckDbOracle(SCALE_FACTOR, TpchSchema.tables());
        org.apache.hadoop.conf.Configuration conf = MetastoreConf.newMetastoreConf();
        MetastoreConf.setVar(conf, MetastoreConf.ConfVars.THRIFT_URIS, metastore.uris());
        IMetaStoreClient admin = new HiveMetaStoreClient(conf);
        try {
            new TpchInMetastore(admin, TEXT_AND_ORC, dir.resolve("text-and-orc")).registerAll(SCALE_FACTOR);
            new TpchInMetastore(admin, PARQUET, dir.resolve("parquet")).registerParquetWrittenBy(oracle);
            // a table a Hive user put over files the operator did not let SQL read
            Path elsewhere = Files.createDirectories(dir.resolve("elsewhere"));
            Files.writeString(elsewhere.resolve("000000_0"), "1\n");
            new TpchInMetastore(admin, OUTSIDE, elsewhere).createTable("secrets",
                    List.of(new org.apache.hadoop.hive.metastore.api.FieldSchema("line", "string", null)), List.of(),
                    TpchInMetastore.text(elsewhere.toUri().toString(), ','));
        } finally {
            admin.close();
        }
        nodes = new TestCluster(Files.createDirectories(dir.resolve("cluster")), 3);
        engine = ClusterSqlEngine.open(nodes.dir, TestCluster.TIMEOUT, Map.of(
                MetastoreCatalog.CATALOG_SETTING, MetastoreCatalog.CATALOG_NAME, MetastoreCatalog.URIS_SETTING,
                metastore.uris(), MetastoreCatalog.CONF_PREFIX + "mapreduce.input.fileinputformat.split.maxsize",
                Integer.toString(64 << 10), CoordinatorSettings.LOAD_ALLOWED_DIRS.name(),
                dir.resolve("text-and-orc") + "," + dir.resolve("parquet")));
    }

    @AfterAll
    static void stop() throws Exception {
        for (AutoCloseable c : new AutoCloseable[] {engine, nodes, oracle}) {
            if (c != null) {
                c.close();
            }
        }
    }

    static Stream<Arguments> queries() {
        return Stream.of(TEXT_AND_ORC, PARQUET).flatMap(db -> IntStream.rangeClosed(1, 22)
                .mapToObj(i -> Arguments.of(db, String.format(Locale.ROOT, "q%02d", i))));
    }

    /** The 22 TPC-H queries, each node reading the splits assigned to it, over both warehouses. */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("queries")
    @Timeout(value = 180, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void tpchQueryMatchesDuckDb(String database, String q) throws Exception {
        String sql = TpchQueriesTest.text("queries/tpch/" + q + ".sql");
        try (SqlSession s = engine.openSession("analyst", database, Map.of())) {
            List<Object[]> ours = rows(s, sql);
            boolean ordered = sql.toLowerCase(Locale.ROOT).contains("order by");
            assertNull(OracleComparison.difference(ours, oracle.rows(sql), ordered), database + " " + q);
        }
    }

    @ParameterizedTest
    @MethodSource("databases")
    void theNodesReadEveryRowOfATableCutIntoSplitsOnce(String database) throws Exception {
        long lineitems = ((Number) oracle.rows("SELECT count(*) FROM lineitem").get(0)[0]).longValue();
        try (SqlSession s = engine.openSession("analyst", database, Map.of())) {
            String plan = rows(s, "EXPLAIN ANALYZE SELECT count(*), sum(l_quantity) FROM lineitem").stream()
                    .map(r -> (String) r[0]).collect(Collectors.joining("\n"));
            assertTrue(plan.contains(String.format(Locale.ROOT, "nodes read %,d rows", lineitems)), plan);
        }
    }

    static Stream<String> databases() {
        return Stream.of(TEXT_AND_ORC, PARQUET);
    }

    @Test
    void mapReduceModeRefusesParquetByName() throws Exception {
        try (SqlSession s = engine.openSession("analyst", PARQUET, Map.of())) {
            s.execute("SET ooo.execution.mode=mapreduce", new Cancellation());
            SqlException e = assertThrows(SqlException.class, () -> rows(s, "SELECT count(*) FROM nation"));
            assertEquals(SqlException.NOT_SUPPORTED, e.sqlState());
            assertTrue(e.getMessage().contains(PARQUET + ".nation is held in Parquet files"), e.getMessage());
        }
    }

    /** The metastore's word is not the operator's: a table's files outside the allowed directories are refused. */
    @Test
    void aMetastoreTableOverFilesOutsideTheAllowedDirectoriesIsRefused() throws Exception {
        try (SqlSession s = engine.openSession("analyst", OUTSIDE, Map.of())) {
            SqlException e = assertThrows(SqlException.class, () -> rows(s, "SELECT * FROM secrets"));
            assertTrue(e.getMessage().contains("table " + OUTSIDE + ".secrets: ")
                    && e.getMessage().contains("is not under a directory SQL may read files from"), e.getMessage());
        }
    }

    private static List<Object[]> rows(SqlSession s, String sql) {
        List<Object[]> out = new ArrayList<>();
        s.execute(sql, new Cancellation()).rows().forEachRemaining(out::add);
        return out;
    }
}
