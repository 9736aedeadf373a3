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

    @TempDir
    static Path dir;
    private static InProcessMetastore metastore;
    private static DuckDbOracle oracle;
    private static TestCluster nodes;
    private static ClusterSqlEngine engine;

    @BeforeAll
    static void start() throws Exception {
        metastore = new InProcessMetastore(dir.resolve("hms"));
        oracle = new DuckDbOracle(SCALE_FACTOR, TpchSchema.tables());
        org.apache.hadoop.conf.Configuration conf = MetastoreConf.newMetastoreConf();
        MetastoreConf.setVar(conf, MetastoreConf.ConfVars.THRIFT_URIS, metastore.uris());
        IMetaStoreClient admin = new HiveMetaStoreClient(conf);
        try {
            new TpchInMetastore(admin, "tpch", dir.resolve("text-and-orc")).registerAll(SCALE_FACTOR);
            new TpchInMetastore(admin, "tpch_parquet", dir.resolve("parquet")).registerParquetWrittenBy(oracle);
        } finally {
            admin.close();
        }
        nodes = new TestCluster(Files.createDirectories(dir.resolve("cluster")), 3);
        engine = ClusterSqlEngine.open(nodes.dir, TestCluster.TIMEOUT, Map.of(
                MetastoreCatalog.CATALOG_SETTING, MetastoreCatalog.CATALOG_NAME, MetastoreCatalog.URIS_SETTING,
                metastore.uris(), MetastoreCatalog.CONF_PREFIX + "mapreduce.input.fileinputformat.split.maxsize",
                Integer.toString(64 << 10)));
    }

    @AfterAll
    static void stop() throws Exception {
        for (AutoCloseable c : new AutoCloseable[] {engine, nodes, oracle, metastore}) {
            if (c != null) {
                c.close();
            }
        }
    }

    static Stream<Arguments> queries() {
        return Stream.of("tpch", "tpch_parquet").flatMap(db -> IntStream.rangeClosed(1, 22)
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
        return Stream.of("tpch", "tpch_parquet");
    }

    @Test
    void mapReduceModeRefusesParquetByName() throws Exception {
        try (SqlSession s = engine.openSession("analyst", "tpch_parquet", Map.of())) {
            s.execute("SET ooo.execution.mode=mapreduce", new Cancellation());
            SqlException e = assertThrows(SqlException.class, () -> rows(s, "SELECT count(*) FROM nation"));
            assertEquals(SqlException.NOT_SUPPORTED, e.sqlState());
            assertTrue(e.getMessage().contains("tpch_parquet.nation is held in Parquet files"), e.getMessage());
        }
    }

    private static List<Object[]> rows(SqlSession s, String sql) {
        List<Object[]> out = new ArrayList<>();
        s.execute(sql, new Cancellation()).rows().forEachRemaining(out::add);
        return out;
    }
}
