package org.oooengine.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hive.metastore.HiveMetaStoreClient;
import org.apache.hadoop.hive.metastore.IMetaStoreClient;
import org.apache.hadoop.hive.metastore.api.FieldSchema;
import org.apache.hadoop.hive.metastore.conf.MetastoreConf;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.oooengine.cluster.bench.tpcds.TpcdsBench;
import org.oooengine.cluster.bench.tpcds.TpcdsDuckDb;
import org.oooengine.cluster.bench.tpcds.TpcdsQueries;
import org.oooengine.cluster.bench.tpcds.TpcdsQueryResult;
import org.oooengine.cluster.bench.tpcds.TpcdsReport;
import org.oooengine.core.cluster.TestCluster;
import org.oooengine.core.tpcds.TpcdsGenerator;
import org.oooengine.core.tpcds.TpcdsSchema;
import org.oooengine.core.tpch.DuckDbOracle;
import org.oooengine.core.tpch.TpchSchema;
import org.oooengine.core.types.Column;
import org.oooengine.hive.engine.ClusterSqlEngine;
import org.oooengine.hive.engine.OracleComparison;
import org.oooengine.hive.engine.TpchQueriesTest;
import org.oooengine.hive.metastore.HiveOrcWriter;
import org.oooengine.hive.metastore.InProcessMetastore;
import org.oooengine.hive.metastore.MetastoreCatalog;
import org.oooengine.hive.metastore.TpchInMetastore;
import org.oooengine.hive.sql.Cancellation;
import org.oooengine.hive.sql.SqlSession;

/**
 * TPC-H and TPC-DS (SF 0.01) over a Hive warehouse on HDFS (a MiniDFSCluster) that other tools
 * wrote, found through a real Hive metastore ({@code ooo.catalog=hms}) and read by two node
 * daemons: DuckDB's Parquet files (TPC-H's orders and TPC-DS's date_dim in Hive's partition
 * directories, by status and by year) and, for four TPC-DS tables, ORC files written by Hive's own
 * ORC output format. Every answer is DuckDB's over the rows it wrote; EXPLAIN shows the partitions
 * a query does not ask for pruned, and EXPLAIN ANALYZE that the nodes read the rows.
 */
@ExtendWith(SharedMiniHadoop.class)
class WarehouseOnHdfsQueriesTest {
    private static final double SCALE_FACTOR = 0.01;
    private static final String TPCH = "tpch_hdfs";
    private static final String TPCDS = "tpcds_hdfs";
    /** TPC-DS tables written as ORC by Hive; the others are DuckDB's Parquet. */
    private static final Set<String> ORC_TABLES = Set.of("store_sales", "item", "customer", "web_returns");
    /** TPC-DS tables in Hive's partition directories, by the column named. */
    private static final Map<String, String> PARTITIONED = Map.of("date_dim", "d_year");

    @TempDir
    static java.nio.file.Path dir;
    private static InProcessMetastore metastore;
    private static TestCluster cluster;
    private static ClusterSqlEngine engine;
    private static DuckDbOracle tpch;
    private static TpcdsDuckDb tpcds;
    private static TpcdsBench bench;
    private static String hdfs;

    @BeforeAll
    static void start(MiniHadoop hadoop, InProcessMetastore sharedMetastore) throws Exception {
        hdfs = hadoop.hdfsUri();
        metastore = sharedMetastore;
        tpch = new DuckDbOracle(SCALE_FACTOR, TpchSchema.tables());
        tpcds = TpcdsDuckDb.inMemory(new TpcdsGenerator(SCALE_FACTOR), (table, done, expected) -> { });
        Configuration client = MetastoreConf.newMetastoreConf();
        MetastoreConf.setVar(client, MetastoreConf.ConfVars.THRIFT_URIS, metastore.uris());
        IMetaStoreClient admin = new HiveMetaStoreClient(client);
        try {
            new TpchInMetastore(admin, TPCH, new Path(hdfs + "/warehouse/" + TPCH), hadoop.jobConf())
                    .registerParquetWrittenBy(tpch);
            registerTpcds(new TpchInMetastore(admin, TPCDS, new Path(hdfs + "/warehouse/" + TPCDS), hadoop.jobConf()));
        } finally {
            admin.close();
        }
        cluster = new TestCluster(Files.createDirectories(dir.resolve("cluster")), 2);
        engine = ClusterSqlEngine.open(cluster.dir, TestCluster.TIMEOUT, Map.of(
                MetastoreCatalog.CATALOG_SETTING, MetastoreCatalog.CATALOG_NAME,
                MetastoreCatalog.URIS_SETTING, metastore.uris(),
                MetastoreCatalog.CONF_PREFIX + "fs.defaultFS", hdfs));
        bench = new TpcdsBench(() -> engine.openSession("analyst", TPCDS, Map.of()), tpcds, 0, Duration.ofSeconds(120));
    }

    /** DuckDB writes every TPC-DS table as Parquet, copied onto HDFS; Hive's ORC writer writes {@link #ORC_TABLES}. */
    private static void registerTpcds(TpchInMetastore warehouse) throws Exception {
        java.nio.file.Path local = dir.resolve("tpcds-parquet");
        tpcds.writeParquet(local, PARTITIONED);
        FileSystem fs = warehouse.fileSystem();
        for (var table : TpcdsSchema.tables()) {
            String name = table.getName();
            List<Column> columns = new ArrayList<>(TpcdsSchema.definition(table).schema().columns());
            Path location = warehouse.location(name);
            String key = PARTITIONED.get(name);
            if (ORC_TABLES.contains(name)) {
                String select = columns.stream().map(Column::name).collect(Collectors.joining(", "));
                HiveOrcWriter.write(new Path(location, "000000_0"), fs.getConf(), TpchInMetastore.fields(columns),
                        tpcds.rows("SELECT " + select + " FROM " + name));
                warehouse.createTable(name, TpchInMetastore.fields(columns), List.of(), TpchInMetastore.orc(location.toString()));
            } else if (key != null) {
                fs.copyFromLocalFile(new Path(local.resolve(name).toUri()), location);
                Column partitionColumn = columns.remove(columns.stream().map(Column::name).toList().indexOf(key));
                List<FieldSchema> data = TpchInMetastore.fields(columns);
                warehouse.createTable(name, data, TpchInMetastore.fields(List.of(partitionColumn)),
                        TpchInMetastore.parquet(location.toString()));
                for (FileStatus p : fs.listStatus(location)) {
                    warehouse.addPartition(name, List.of(p.getPath().getName().substring(key.length() + 1)),
                            TpchInMetastore.parquet(p.getPath().toString()), data);
                }
            } else {
                fs.copyFromLocalFile(new Path(local.resolve(name).toUri()), location);
                warehouse.createTable(name, TpchInMetastore.fields(columns), List.of(),
                        TpchInMetastore.parquet(location.toString()));
            }
        }
    }

    @AfterAll
    static void stop() throws Exception {
        try (AutoCloseable b = bench; AutoCloseable e = engine; AutoCloseable c = cluster; AutoCloseable d = tpcds;
             AutoCloseable h = tpch) {
            // closed in reverse order; Hadoop, shared with the other classes, stops after the last
        }
    }

    static Stream<String> tpchQueries() {
        return IntStream.rangeClosed(1, 22).mapToObj(i -> String.format(Locale.ROOT, "q%02d", i));
    }

    static Stream<Integer> tpcdsQueries() {
        return TpcdsQueries.all().stream();
    }

    @ParameterizedTest
    @MethodSource("tpchQueries")
    void tpchAnswersAsDuckDb(String q) throws Exception {
        String sql = TpchQueriesTest.text("queries/tpch/" + q + ".sql");
        try (SqlSession s = engine.openSession("analyst", TPCH, Map.of())) {
            boolean ordered = sql.toLowerCase(Locale.ROOT).contains("order by");
            assertNull(OracleComparison.difference(rows(s, sql), tpch.rows(sql), ordered), q);
        }
    }

    @ParameterizedTest
    @MethodSource("tpcdsQueries")
    void tpcdsAnswersAsDuckDb(int q) {
        TpcdsQueryResult r = bench.run(q);
        assertEquals(TpcdsQueryResult.Status.OK, r.status(), TpcdsReport.progress(r));
    }

    @Test
    void partitionsAQueryDoesNotAskForArePrunedAndTheNodesReadTheRest() throws Exception {
        try (SqlSession s = engine.openSession("analyst", TPCDS, Map.of())) {
            String plan = text(s, "EXPLAIN SELECT count(*) FROM store_sales JOIN date_dim ON ss_sold_date_sk = d_date_sk "
                    + "WHERE d_year IN (2000, 2001)");
            assertTrue(plan.matches("(?s).*Scan tpcds_hdfs\\.date_dim .*\\[files: 2 of [0-9]+ partitions, .*"), plan);
        }
        long finished = ((Number) tpch.rows("SELECT count(*) FROM orders WHERE o_orderstatus = 'F'").get(0)[0]).longValue();
        try (SqlSession s = engine.openSession("analyst", TPCH, Map.of())) {
            String plan = text(s, "EXPLAIN ANALYZE SELECT count(*), sum(o_totalprice) FROM orders WHERE o_orderstatus = 'F'");
            assertTrue(plan.contains("[files: 1 of 3 partitions"), plan);
            assertTrue(plan.contains(String.format(Locale.ROOT, "nodes read %,d rows", finished)), plan);
        }
    }

    /**
     * INSERT OVERWRITE ... PARTITION of an ORC table on HDFS from the Parquet orders: the nodes
     * write the files on HDFS from their own pipelines (named by node), in Hive's partition
     * directories, the metastore is told of each partition, and what reads back equals DuckDB's.
     */
    @Test
    void theNodesWriteATablesFilesOnHdfsAndTheMetastoreKnowsItsPartitions() throws Exception {
        String location = hdfs + "/warehouse/" + TPCH + "/orders_written";
        String where = " WHERE o_orderdate >= DATE '1995-01-01'";
        try (SqlSession s = engine.openSession("analyst", TPCH, Map.of())) {
            s.execute("CREATE EXTERNAL TABLE orders_written (o_orderkey bigint, o_custkey bigint, o_totalprice decimal(15,2), "
                    + "o_orderdate date, o_orderpriority string, o_clerk string, o_shippriority int, o_comment string) "
                    + "PARTITIONED BY (o_orderstatus string) STORED AS ORC LOCATION '" + location + "'", new Cancellation());
            long written = s.execute("INSERT OVERWRITE TABLE orders_written PARTITION (o_orderstatus) SELECT o_orderkey, "
                    + "o_custkey, o_totalprice, o_orderdate, o_orderpriority, o_clerk, o_shippriority, o_comment, "
                    + "o_orderstatus FROM orders" + where, new Cancellation()).updateCount();
            assertEquals(((Number) tpch.rows("SELECT count(*) FROM orders" + where).get(0)[0]).longValue(), written);
            String perStatus = "SELECT o_orderstatus, count(*), sum(o_totalprice), min(o_orderdate), max(o_comment) FROM %s "
                    + "GROUP BY o_orderstatus";
            assertNull(OracleComparison.difference(rows(s, perStatus.formatted("orders_written")),
                    tpch.rows(perStatus.formatted("orders" + where)), false));

            FileSystem fs = new Path(location).getFileSystem(new Configuration());
            List<String> files = new ArrayList<>();
            for (var it = fs.listFiles(new Path(location), true); it.hasNext(); ) {
                Path file = it.next().getPath();
                files.add(file.getParent().getName() + "/" + file.getName());
            }
            assertTrue(files.stream().allMatch(f -> f.matches("o_orderstatus=[FOP]/part-[0-9a-f]+-n[12]-.*\\.orc")), files.toString());
            Configuration client = MetastoreConf.newMetastoreConf();
            MetastoreConf.setVar(client, MetastoreConf.ConfVars.THRIFT_URIS, metastore.uris());
            IMetaStoreClient admin = new HiveMetaStoreClient(client);
            try {
                List<String> expected = tpch.rows("SELECT DISTINCT o_orderstatus FROM orders" + where + " ORDER BY 1").stream()
                        .map(r -> "o_orderstatus=" + r[0]).toList();
                assertEquals(expected, admin.listPartitionNames(TPCH, "orders_written", (short) -1).stream().sorted().toList());
            } finally {
                admin.close();
            }
            s.execute("DROP TABLE orders_written", new Cancellation());
        }
    }

    private static List<Object[]> rows(SqlSession s, String sql) {
        List<Object[]> rows = new ArrayList<>();
        s.execute(sql, new Cancellation()).rows().forEachRemaining(rows::add);
        return rows;
    }

    private static String text(SqlSession s, String sql) {
        return rows(s, sql).stream().map(r -> (String) r[0]).collect(Collectors.joining("\n"));
    }
}
