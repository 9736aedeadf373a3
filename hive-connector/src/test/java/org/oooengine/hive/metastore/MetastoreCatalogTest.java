package org.oooengine.hive.metastore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.trino.tpch.TpchTable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.apache.hadoop.hive.metastore.HiveMetaStoreClient;
import org.apache.hadoop.hive.metastore.IMetaStoreClient;
import org.apache.hadoop.hive.metastore.api.FieldSchema;
import org.apache.hadoop.hive.metastore.conf.MetastoreConf;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.oooengine.core.cluster.TestCluster;
import org.oooengine.core.tpch.DuckDbOracle;
import org.oooengine.core.tpch.TpchSchema;
import org.oooengine.optimizer.catalog.TableInfo;
import org.oooengine.hive.engine.ClusterSqlEngine;
import org.oooengine.hive.engine.OracleComparison;
import org.oooengine.hive.engine.TpchQueriesTest;
import org.oooengine.hive.files.FileAccess;
import org.oooengine.hive.files.FileLayout;
import org.oooengine.hive.sql.Cancellation;
import org.oooengine.optimizer.catalog.ResultColumn;
import org.oooengine.core.sql.SqlException;
import org.oooengine.hive.sql.SqlSession;
import org.oooengine.hive.sql.analyze.QueryAnalyzer;
import org.oooengine.hive.sql.exec.Executor;
import org.oooengine.hive.sql.exec.IndexJoinRunner;
import org.oooengine.hive.sql.exec.TableReader;
import org.oooengine.hive.sql.parse.HiveSqlParser;

/**
 * A real Hive 4.1 metastore, run in this JVM, holding generated TPC-H tables (SF 0.01) as
 * external tables in files: text with three field delimiters, ORC, and orders partitioned by status.
 * The catalog lists and maps them as Hive declared them; their rows, read by the coordinator or
 * by MapReduce scan jobs, and the TPC-H queries over them, match DuckDB's on the same generated data.
 */
class MetastoreCatalogTest {
    private static final double SCALE_FACTOR = 0.01;
    private static final String DB = "tpch";
    /** Where the coordinator lets SQL read local files: the tables' files are there. */
    private static final String ALLOWED_DIRS = org.oooengine.core.settings.CoordinatorSettings.LOAD_ALLOWED_DIRS.name();

    @TempDir
    static Path dir;
    private static InProcessMetastore metastore;
    private static MetastoreCatalog catalog;
    private static TableReader reader;
    private static DuckDbOracle oracle;

    @BeforeAll
    static void start() throws Exception {
        metastore = InProcessMetastore.shared();
        IMetaStoreClient admin = new HiveMetaStoreClient(clientConf(metastore.uris()));
        try {
            TpchInMetastore tpch = new TpchInMetastore(admin, DB, dir.resolve("tables"));
            tpch.registerAll(SCALE_FACTOR);
            Path events = Files.createDirectories(dir.resolve("tables/events"));
            tpch.createTable("events", List.of(new FieldSchema("id", "int", null), new FieldSchema("payload", "binary", null)),
                    List.of(), TpchInMetastore.text(events.toUri().toString(), ','));
            HiveTypedFiles.register(tpch, dir.resolve("tables"));
            Path clicks = Files.createDirectories(dir.resolve("tables/clicks"));
            tpch.createTable("clicks", List.of(new FieldSchema("id", "int", null)), List.of(),
                    TpchInMetastore.storage(clicks.toUri().toString(), "org.apache.hadoop.hive.serde2.avro.AvroSerDe",
                            "org.apache.hadoop.hive.ql.io.avro.AvroContainerInputFormat",
                            "org.apache.hadoop.hive.ql.io.avro.AvroContainerOutputFormat", Map.of()));
        } finally {
            admin.close();
        }
        catalog = MetastoreCatalog.fromSettings(Map.of(MetastoreCatalog.URIS_SETTING, metastore.uris(),
                MetastoreCatalog.CONF_PREFIX + "metastore.client.socket.timeout", "60s"));
        reader = catalog.tableReader(FileAccess.ANY);
        oracle = new DuckDbOracle(SCALE_FACTOR, TpchSchema.tables());
    }

    private static org.apache.hadoop.conf.Configuration clientConf(String uris) {
        org.apache.hadoop.conf.Configuration conf = MetastoreConf.newMetastoreConf();
        MetastoreConf.setVar(conf, MetastoreConf.ConfVars.THRIFT_URIS, uris);
        return conf;
    }

    @AfterAll
    static void stop() throws Exception {
        if (oracle != null) {
            oracle.close();
        }
        if (catalog != null) {
            catalog.close();
        }
    }

    @Test
    void listsDatabasesAndEveryTableEvenOnesItCannotRead() {
        // the metastore is this JVM's, which other test classes add databases to
        assertTrue(catalog.databases().containsAll(List.of("default", DB)), catalog.databases().toString());
        List<String> names = catalog.tables(DB).stream().map(TableInfo::name).sorted().toList();
        assertEquals(List.of("clicks", "customer", "events", "lineitem", "nation", "orders", "part", "partsupp",
                "readings_orc", "readings_text", "region", "supplier"), names);
        assertEquals(List.of(), catalog.tables("no_such_database"));
    }

    @Test
    void mapsColumnsLocationAndLayoutAsHiveDeclaredThem() {
        TableInfo lineitem = catalog.table(DB, "lineitem").orElseThrow();
        assertEquals(TpchSchema.definition(TpchTable.LINE_ITEM).schema().names(),
                lineitem.columns().stream().map(ResultColumn::name).toList());
        assertEquals("decimal(15,2)", lineitem.columns().get(lineitem.indexOf("l_extendedprice")).type().toString());
        assertEquals("date", lineitem.columns().get(lineitem.indexOf("l_shipdate")).type().toString());
        assertTrue(lineitem.storage().endsWith("/tables/lineitem"), lineitem.storage());
        assertEquals(FileLayout.ORC, FileLayout.fromProperties(lineitem.properties()).orElseThrow());
        assertEquals("TRUE", lineitem.properties().get("EXTERNAL"));

        FileLayout region = FileLayout.fromProperties(catalog.table(DB, "region").orElseThrow().properties()).orElseThrow();
        assertEquals('\t', region.fieldDelimiter());
        FileLayout nation = FileLayout.fromProperties(catalog.table(DB, "nation").orElseThrow().properties()).orElseThrow();
        assertEquals(FileLayout.TEXT, nation);

        TableInfo orders = catalog.table(DB, "orders").orElseThrow();
        assertEquals("o_orderstatus", orders.columns().get(orders.columns().size() - 1).name(), "partition keys come last");
        assertTrue(catalog.table(DB, "no_such_table").isEmpty());
    }

    @Test
    void aTableOfUnsupportedTypesOrFormatIsListedButRefusedByNameWhenQueried() {
        TableInfo listed = catalog.tables(DB).stream().filter(t -> t.name().equals("events")).findFirst().orElseThrow();
        assertEquals(List.of("id"), listed.columns().stream().map(ResultColumn::name).toList());
        SqlException events = assertThrows(SqlException.class, () -> catalog.table(DB, "events"));
        assertEquals(SqlException.NOT_SUPPORTED, events.sqlState());
        assertEquals("table tpch.events: column payload: type binary not supported yet", events.getMessage());
        SqlException clicks = assertThrows(SqlException.class, () -> catalog.table(DB, "clicks"));
        assertTrue(clicks.getMessage().startsWith("table tpch.clicks: stored with SerDe "
                + "org.apache.hadoop.hive.serde2.avro.AvroSerDe"), clicks.getMessage());
        assertTrue(clicks.getMessage().endsWith("not supported yet (text with LazySimpleSerDe, ORC and Parquet are)"),
                clicks.getMessage());
    }

    /** TINYINT, SMALLINT, FLOAT, BOOLEAN and TIMESTAMP columns as Hive writes them: text, and ORC's byte, short and float. */
    @ParameterizedTest
    @MethodSource("typedTables")
    void hivesOtherPrimitiveTypesReadFromTextAndOrc(String table) throws Exception {
        String sql = "SELECT id, small, f, flag, CAST(ts AS STRING), year(ts), id + 1, f * 2 FROM " + table + " ORDER BY id";
        var plan = org.oooengine.optimizer.rel.IndexJoinChoice.apply(new QueryAnalyzer(catalog, DB).query(HiveSqlParser.parse(sql)),
                org.oooengine.optimizer.rel.JoinChooser.HASH_JOINS_ONLY);
        List<String> rows = new Executor(reader, (spec, cancel, sink) -> {
            throw new AssertionError("no index join");
        }, new Cancellation()).runToList(plan).stream().map(java.util.Arrays::toString).toList();
        assertEquals(HiveTypedFiles.EXPECTED, rows, table);
    }

    static Stream<String> typedTables() {
        return Stream.of("readings_text", "readings_orc");
    }

    @Test
    void settingsWithoutUrisAreRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> MetastoreCatalog.fromSettings(Map.of(MetastoreCatalog.CATALOG_SETTING, "hms")));
        assertEquals("ooo.catalog=hms needs ooo.catalog.hms.uris, e.g. thrift://metastore:9083", e.getMessage());
    }

    /** The coordinator over a cluster with {@code ooo.catalog=hms}: the metastore's tables, queried and described, and no DDL. */
    @Test
    void aCoordinatorServesTheMetastoresTables() throws Exception {
        try (TestCluster cluster = new TestCluster(Files.createDirectories(dir.resolve("cluster")), 1);
             ClusterSqlEngine engine = ClusterSqlEngine.open(cluster.dir, TestCluster.TIMEOUT,
                     Map.of(MetastoreCatalog.CATALOG_SETTING, MetastoreCatalog.CATALOG_NAME,
                             MetastoreCatalog.URIS_SETTING, metastore.uris(), ALLOWED_DIRS, dir.resolve("tables").toString()))) {
            SqlSession s = engine.openSession("analyst", DB, Map.of());
            List<Object[]> count = new ArrayList<>();
            s.execute("SELECT count(*) FROM nation WHERE n_regionkey = 1", new Cancellation()).rows().forEachRemaining(count::add);
            assertEquals(5L, ((Number) count.get(0)[0]).longValue());
            List<String> described = new ArrayList<>();
            s.execute("DESCRIBE FORMATTED nation", new Cancellation()).rows()
                    .forEachRemaining(r -> described.add(r[0] + " " + r[1]));
            assertTrue(described.stream().anyMatch(l -> l.startsWith("Storage: files at ")), described.toString());
            SqlException ddl = assertThrows(SqlException.class,
                    () -> s.execute("CREATE TABLE t (a INT)", new Cancellation()));
            assertEquals(SqlException.NOT_SUPPORTED, ddl.sqlState());
            assertTrue(ddl.getMessage().contains("ooo.catalog=hms"), ddl.getMessage());
        }
        IllegalArgumentException bogus = assertThrows(IllegalArgumentException.class, () -> ClusterSqlEngine.open(
                dir.resolve("cluster"), TestCluster.TIMEOUT, Map.of(MetastoreCatalog.CATALOG_SETTING, "bogus")));
        assertTrue(bogus.getMessage().contains("ooo.catalog is 'bogus'; expected embedded or hms"), bogus.getMessage());
    }

    /**
     * In MapReduce mode each table is read by a scan job over its files (local job runner): text in
     * its delimiter, ORC, every partition with its status; the rows are DuckDB's.
     */
    @Test
    void mapReduceModeReadsEveryTableWithAScanJobOverItsFiles() throws Exception {
        Path hadoopTmp = dir.resolve("hadoop-tmp");
        try (TestCluster cluster = new TestCluster(Files.createDirectories(dir.resolve("cluster-mr")), 1);
             ClusterSqlEngine engine = ClusterSqlEngine.open(cluster.dir, TestCluster.TIMEOUT,
                     Map.of(MetastoreCatalog.CATALOG_SETTING, MetastoreCatalog.CATALOG_NAME,
                             MetastoreCatalog.URIS_SETTING, metastore.uris(), "hadoop.tmp.dir", hadoopTmp.toString(),
                             ALLOWED_DIRS, dir.resolve("tables").toString()));
             SqlSession s = engine.openSession("analyst", DB, Map.of())) {
            s.execute("SET ooo.execution.mode=mapreduce", new Cancellation());
            for (String name : tpchTables().toList()) {
                TableInfo table = catalog.table(DB, name).orElseThrow();
                String sql = "SELECT " + table.columns().stream().map(ResultColumn::name).collect(Collectors.joining(", "))
                        + " FROM " + name;
                List<Object[]> plan = new ArrayList<>();
                s.execute("EXPLAIN " + sql, new Cancellation()).rows().forEachRemaining(plan::add);
                assertTrue(plan.stream().anyMatch(r -> ((String) r[0]).contains("[MapReduce scan job]")), name);
                List<Object[]> ours = new ArrayList<>();
                s.execute(sql, new Cancellation()).rows().forEachRemaining(ours::add);
                assertNull(OracleComparison.difference(ours, oracle.rows(sql), false), name);
            }
        }
        try (Stream<Path> left = Files.list(hadoopTmp.resolve("ooo-sql"))) {
            assertEquals(List.of(), left.toList(), "job directories left behind");
        }
    }

    static Stream<String> tpchTables() {
        return TpchSchema.tables().stream().map(TpchTable::getTableName);
    }

    /** Every row of every table, text, ORC or partitioned, as DuckDB holds it. */
    @ParameterizedTest
    @MethodSource("tpchTables")
    void everyRowReadsAsDuckDbHoldsIt(String name) throws Exception {
        TableInfo table = catalog.table(DB, name).orElseThrow();
        BitSet all = new BitSet();
        all.set(0, table.columns().size());
        List<Object[]> ours = java.util.Collections.synchronizedList(new ArrayList<>());
        reader.scan(table, all, new Cancellation(), ours::add);
        String columns = table.columns().stream().map(ResultColumn::name).collect(Collectors.joining(", "));
        List<Object[]> expected = oracle.rows("SELECT " + columns + " FROM " + name);
        assertTrue(expected.size() > 0);
        assertNull(OracleComparison.difference(ours, expected, false), name);
    }

    static Stream<String> queries() {
        return IntStream.rangeClosed(1, 22).mapToObj(i -> String.format(Locale.ROOT, "q%02d", i));
    }

    /** The 22 TPC-H queries over the metastore's tables return DuckDB's rows (hash joins: these tables have no indexes). */
    @ParameterizedTest
    @MethodSource("queries")
    @Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void tpchQueryOverMetastoreTablesMatchesDuckDb(String q) throws Exception {
        String sql = TpchQueriesTest.text("queries/tpch/" + q + ".sql");
        IndexJoinRunner noIndexJoins = (spec, cancel, sink) -> {
            throw new AssertionError("no index join over tables without indexes");
        };
        var plan = org.oooengine.optimizer.rel.IndexJoinChoice.apply(new QueryAnalyzer(catalog, DB).query(HiveSqlParser.parse(sql)),
                org.oooengine.optimizer.rel.JoinChooser.HASH_JOINS_ONLY);
        List<Object[]> ours = new Executor(reader, noIndexJoins, new Cancellation()).runToList(plan);
        boolean ordered = sql.toLowerCase(Locale.ROOT).contains("order by");
        assertNull(OracleComparison.difference(ours, oracle.rows(sql), ordered), q);
    }
}
