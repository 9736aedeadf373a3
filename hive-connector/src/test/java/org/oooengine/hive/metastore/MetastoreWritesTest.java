package org.oooengine.hive.metastore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.trino.tpch.TpchTable;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.hive.common.type.HiveDecimal;
import org.apache.hadoop.hive.metastore.HiveMetaStoreClient;
import org.apache.hadoop.hive.metastore.IMetaStoreClient;
import org.apache.hadoop.hive.metastore.api.ColumnStatistics;
import org.apache.hadoop.hive.metastore.api.ColumnStatisticsData;
import org.apache.hadoop.hive.metastore.api.ColumnStatisticsDesc;
import org.apache.hadoop.hive.metastore.api.ColumnStatisticsObj;
import org.apache.hadoop.hive.metastore.api.FieldSchema;
import org.apache.hadoop.hive.metastore.api.StringColumnStatsData;
import org.apache.hadoop.hive.metastore.api.StorageDescriptor;
import org.apache.hadoop.hive.metastore.conf.MetastoreConf;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.oooengine.core.cluster.TestCluster;
import org.oooengine.core.settings.CoordinatorSettings;
import org.oooengine.core.sql.SqlException;
import org.oooengine.core.tpch.DuckDbOracle;
import org.oooengine.core.tpch.TpchSchema;
import org.oooengine.core.types.Column;
import org.oooengine.hive.engine.ClusterSqlEngine;
import org.oooengine.hive.engine.OracleComparison;
import org.oooengine.hive.sql.Cancellation;
import org.oooengine.hive.sql.SqlSession;

/**
 * INSERT into a Hive metastore's tables (ooo.catalog=hms): three nodes write ORC, Parquet and
 * text files where the metastore says the tables are, the partitions written are added to the
 * metastore, and Hive's own readers (hive-exec's input formats and SerDes, as the storage
 * descriptors name them) read what was written as DuckDB has it.
 */
class MetastoreWritesTest {
    private static final double SCALE_FACTOR = 0.01;
    private static final String DB = "warehouse_writes";

    @TempDir
    static Path dir;
    private static DuckDbOracle oracle;
    private static IMetaStoreClient admin;
    private static TestCluster nodes;
    private static ClusterSqlEngine engine;

    @BeforeAll
    static void start() throws Exception {
        InProcessMetastore metastore = InProcessMetastore.shared();
        oracle = new DuckDbOracle(SCALE_FACTOR, List.of(TpchTable.ORDERS, TpchTable.CUSTOMER));
        org.apache.hadoop.conf.Configuration conf = MetastoreConf.newMetastoreConf();
        MetastoreConf.setVar(conf, MetastoreConf.ConfVars.THRIFT_URIS, metastore.uris());
        admin = new HiveMetaStoreClient(conf);
        TpchInMetastore tables = new TpchInMetastore(admin, DB, dir.resolve("warehouse"));
        tables.register(TpchTable.ORDERS, SCALE_FACTOR);
        tables.register(TpchTable.CUSTOMER, SCALE_FACTOR);
        // empty tables as a Hive user's CREATE TABLE makes them
        List<Column> orders = TpchSchema.definition(TpchTable.ORDERS).schema().columns();
        List<FieldSchema> fileColumns = TpchInMetastore.fields(orders.stream()
                .filter(c -> !c.name().equals("o_orderstatus")).toList());
        tables.createTable("orders_by_status", fileColumns, List.of(new FieldSchema("o_orderstatus", "string", null)),
                TpchInMetastore.orc(directory("orders_by_status")));
        List<FieldSchema> customer = TpchInMetastore.fields(TpchSchema.definition(TpchTable.CUSTOMER).schema().columns());
        tables.createTable("customer_parquet", customer, List.of(), TpchInMetastore.parquet(directory("customer_parquet")));
        tables.createTable("customer_text", customer, List.of(),
                TpchInMetastore.text(directory("customer_text"), '|'));
        tables.createTable("events", List.of(new FieldSchema("id", "bigint", null)),
                List.of(new FieldSchema("day", "date", null)), TpchInMetastore.text(directory("events"), ','));
        tables.createTable("visits", List.of(new FieldSchema("id", "bigint", null)), List.of(
                new FieldSchema("day", "date", null), new FieldSchema("site", "string", null)),
                TpchInMetastore.text(directory("visits"), ','));
        nodes = new TestCluster(Files.createDirectories(dir.resolve("cluster")), 3);
        engine = ClusterSqlEngine.open(nodes.dir, TestCluster.TIMEOUT, Map.of(
                MetastoreCatalog.CATALOG_SETTING, MetastoreCatalog.CATALOG_NAME, MetastoreCatalog.URIS_SETTING,
                metastore.uris(), CoordinatorSettings.LOAD_ALLOWED_DIRS.name(), dir.resolve("warehouse").toString()));
    }

    private static String directory(String table) throws Exception {
        return Files.createDirectories(dir.resolve("warehouse").resolve(table)).toUri().toString();
    }

    @AfterAll
    static void stop() throws Exception {
        for (AutoCloseable c : new AutoCloseable[] {engine, nodes, oracle, admin::close}) {
            if (c != null) {
                c.close();
            }
        }
    }

    private static List<Object[]> rows(SqlSession s, String sql) {
        List<Object[]> out = new ArrayList<>();
        var result = s.execute(sql, new Cancellation());
        if (result.hasResultSet()) {
            result.rows().forEachRemaining(out::add);
        }
        return out;
    }

    @Test
    void dynamicPartitionsAreAddedToTheMetastoreAndHiveReadsTheOrcFiles() throws Exception {
        try (SqlSession s = engine.openSession("analyst", DB, Map.of())) {
            rows(s, "INSERT INTO orders_by_status PARTITION (o_orderstatus) SELECT o_orderkey, o_custkey, o_totalprice, "
                    + "o_orderdate, o_orderpriority, o_clerk, o_shippriority, o_comment, o_orderstatus FROM orders");
            assertEquals(List.of("o_orderstatus=F", "o_orderstatus=O", "o_orderstatus=P"),
                    admin.listPartitionNames(DB, "orders_by_status", (short) -1).stream().sorted().toList());
            String perStatus = "SELECT o_orderstatus, count(*), sum(o_totalprice), max(o_comment) FROM %s "
                    + "GROUP BY o_orderstatus";
            assertNull(OracleComparison.difference(rows(s, perStatus.formatted("orders_by_status")),
                    oracle.rows(perStatus.formatted("orders")), false));

            // Hive's reader: the same rows per status
            Map<String, long[]> hive = new TreeMap<>();
            Map<String, BigDecimal> hiveTotals = new TreeMap<>();
            for (List<Object> row : HiveReaders.rows(admin, DB, "orders_by_status")) {
                String status = (String) row.get(row.size() - 1);
                hive.computeIfAbsent(status, k -> new long[2])[0]++;
                hive.get(status)[1] += ((Number) row.get(0)).longValue();
                hiveTotals.merge(status, ((HiveDecimal) row.get(2)).bigDecimalValue(), BigDecimal::add);
            }
            for (Object[] expected : oracle.rows("SELECT o_orderstatus, count(*), sum(o_orderkey), sum(o_totalprice) "
                    + "FROM orders GROUP BY o_orderstatus")) {
                long[] got = hive.get((String) expected[0]);
                assertEquals(((Number) expected[1]).longValue(), got[0], "rows of " + expected[0]);
                assertEquals(((Number) expected[2]).longValue(), got[1], "keys of " + expected[0]);
                assertEquals(0, new BigDecimal(expected[3].toString()).compareTo(hiveTotals.get((String) expected[0])));
            }

            // an overwrite of one partition replaces that one only
            rows(s, "INSERT OVERWRITE TABLE orders_by_status PARTITION (o_orderstatus = 'P') SELECT o_orderkey, o_custkey, "
                    + "o_totalprice, o_orderdate, o_orderpriority, o_clerk, o_shippriority, o_comment FROM orders "
                    + "WHERE o_orderstatus = 'P' AND o_orderkey < 10000");
            assertNull(OracleComparison.difference(rows(s, perStatus.formatted("orders_by_status")),
                    oracle.rows(perStatus.formatted("orders WHERE o_orderstatus <> 'P' OR o_orderkey < 10000")), false));
        }
    }

    @Test
    void hiveReadsTheParquetAndTextFilesWritten() throws Exception {
        try (SqlSession s = engine.openSession("analyst", DB, Map.of())) {
            for (String table : List.of("customer_parquet", "customer_text")) {
                rows(s, "INSERT OVERWRITE TABLE " + table + " SELECT * FROM customer WHERE c_custkey > 100");
                rows(s, "INSERT INTO " + table + " SELECT * FROM customer WHERE c_custkey <= 100");
                String summary = "SELECT count(*), sum(c_custkey), sum(c_acctbal), max(c_comment) FROM ";
                assertNull(OracleComparison.difference(rows(s, summary + table), oracle.rows(summary + "customer"), false));
                List<List<Object>> hive = HiveReaders.rows(admin, DB, table);
                Object[] expected = oracle.rows("SELECT count(*), sum(c_custkey), sum(c_acctbal) FROM customer").get(0);
                assertEquals(((Number) expected[0]).longValue(), hive.size(), table);
                assertEquals(((Number) expected[1]).longValue(), hive.stream().mapToLong(r -> ((Number) r.get(0)).longValue())
                        .sum(), table);
                assertEquals(0, new BigDecimal(expected[2].toString()).compareTo(hive.stream()
                        .map(r -> ((HiveDecimal) r.get(5)).bigDecimalValue()).reduce(BigDecimal.ZERO, BigDecimal::add)), table);
            }
        }
    }

    /** Partition directories another tool made are entered by MSCK REPAIR TABLE; ADD PARTITION makes one. */
    @Test
    void repairAndAddPartitionEnterPartitionsInTheMetastore() throws Exception {
        Path events = dir.resolve("warehouse").resolve("events");
        Files.createDirectories(events.resolve("day=2026-01-01"));
        Files.writeString(events.resolve("day=2026-01-01/000000_0"), "1\n2\n");
        Files.createDirectories(events.resolve("day=2026-01-02"));
        Files.writeString(events.resolve("day=2026-01-02/000000_0"), "3\n");
        try (SqlSession s = engine.openSession("analyst", DB, Map.of())) {
            assertEquals(0L, ((Number) rows(s, "SELECT count(*) FROM events").get(0)[0]).longValue());
            rows(s, "MSCK REPAIR TABLE events");
            assertEquals(List.of("day=2026-01-01", "day=2026-01-02"),
                    admin.listPartitionNames(DB, "events", (short) -1).stream().sorted().toList());
            assertEquals(List.of(3L, 6L), List.of(rows(s, "SELECT count(*), sum(id) FROM events").get(0)));
            rows(s, "MSCK REPAIR TABLE events"); // nothing new: nothing changes

            rows(s, "ALTER TABLE events ADD PARTITION (day = DATE '2026-01-03')");
            assertTrue(Files.isDirectory(events.resolve("day=2026-01-03")));
            assertEquals(3, admin.listPartitionNames(DB, "events", (short) -1).size());
            SqlException again = assertThrows(SqlException.class,
                    () -> rows(s, "ALTER TABLE events ADD PARTITION (day = DATE '2026-01-03')"));
            assertEquals(SqlException.ALREADY_EXISTS, again.sqlState());
            rows(s, "ALTER TABLE events ADD IF NOT EXISTS PARTITION (day = DATE '2026-01-03')");
            rows(s, "INSERT INTO events PARTITION (day = DATE '2026-01-03') VALUES (10)");
            assertEquals(List.of(4L, 16L), List.of(rows(s, "SELECT count(*), sum(id) FROM events").get(0)));
            assertEquals(4, HiveReaders.rows(admin, DB, "events").size()); // Hive reads them too
        }
    }

    /**
     * DROP PARTITION forgets the partitions a spec matches, all of its columns or some; an external
     * table's files stay, as in Hive. A spec that matches none is an error but with IF EXISTS, and a
     * comparison other than = is refused by name.
     */
    @Test
    void dropPartitionForgetsThePartitionsItMatches() throws Exception {
        try (SqlSession s = engine.openSession("analyst", DB, Map.of())) {
            long id = 1;
            for (String day : List.of("2026-02-01", "2026-02-02")) {
                for (String site : List.of("a", "b")) {
                    rows(s, "INSERT INTO visits PARTITION (day = DATE '" + day + "', site = '" + site + "') VALUES (" + id++ + ")");
                }
            }
            assertEquals(4, admin.listPartitionNames(DB, "visits", (short) -1).size());
            rows(s, "ALTER TABLE visits DROP PARTITION (day = DATE '2026-02-01', site = 'a')");
            assertEquals(List.of(3L, 9L), List.of(rows(s, "SELECT count(*), sum(id) FROM visits").get(0)));
            rows(s, "ALTER TABLE visits DROP PARTITION (site = 'b')"); // day 1's and day 2's
            assertEquals(List.of("day=2026-02-02/site=a"), admin.listPartitionNames(DB, "visits", (short) -1));
            assertEquals(List.of(1L, 3L), List.of(rows(s, "SELECT count(*), sum(id) FROM visits").get(0)));
            assertTrue(Files.isDirectory(dir.resolve("warehouse/visits/day=2026-02-01/site=b"))); // external: kept

            SqlException none = assertThrows(SqlException.class, () -> rows(s, "ALTER TABLE visits DROP PARTITION (site = 'b')"));
            assertEquals(SqlException.UNKNOWN_TABLE, none.sqlState());
            assertTrue(none.getMessage().contains("no partition matches {site=b}"), none.getMessage());
            rows(s, "ALTER TABLE visits DROP IF EXISTS PARTITION (site = 'b')");
            SqlException range = assertThrows(SqlException.class,
                    () -> rows(s, "ALTER TABLE visits DROP PARTITION (day > DATE '2026-02-01')"));
            assertEquals(SqlException.NOT_SUPPORTED, range.sqlState());
            assertTrue(range.getMessage().contains("a comparison other than ="), range.getMessage());
            SqlException notAColumn = assertThrows(SqlException.class,
                    () -> rows(s, "ALTER TABLE visits DROP PARTITION (id = 1)"));
            assertTrue(notAColumn.getMessage().contains("not a partition column"), notAColumn.getMessage());
            assertEquals(1, admin.listPartitionNames(DB, "visits", (short) -1).size());
        }
    }

    /**
     * ANALYZE TABLE keeps what it counts in the table's parameters, beside Hive's and Spark's own;
     * a column Spark counted (its {@code spark.sql.statistics} parameters) the planner reads too.
     */
    @Test
    void analyzeKeepsStatisticsInTheTableParameters() throws Exception {
        try (SqlSession s = engine.openSession("analyst", DB, Map.of())) {
            rows(s, "ANALYZE TABLE orders COMPUTE STATISTICS FOR COLUMNS o_orderpriority, o_orderdate");
            Map<String, String> parameters = admin.getTable(DB, "orders").getParameters();
            assertEquals("15000", parameters.get("ooo.stats.rows"));
            assertEquals("5", parameters.get("ooo.stats.o_orderpriority.distinct"));
            assertEquals("0", parameters.get("ooo.stats.o_orderdate.nulls"));

            String bySegment = "EXPLAIN SELECT c_mktsegment, count(*) FROM customer GROUP BY c_mktsegment";
            assertFalse(plan(s, bySegment).contains("(est. 5 rows)"));
            var customer = admin.getTable(DB, "customer");
            customer.getParameters().put("spark.sql.statistics.colStats.c_mktsegment.distinctCount", "5");
            admin.alter_table(DB, "customer", customer);
            String planned = plan(s, bySegment);
            assertTrue(planned.matches("(?s).*FinalAggregate [^\n]*\\(est\\. 5 rows\\).*"), planned);

            // what Hive counted (its ANALYZE, or its statistics gathered as it wrote the table)
            String byClerk = "EXPLAIN SELECT o_clerk, count(*) FROM orders GROUP BY o_clerk";
            assertFalse(plan(s, byClerk).contains("(est. 1,000 rows)"));
            ColumnStatisticsData clerks = ColumnStatisticsData.stringStats(new StringColumnStatsData(15, 15.0, 0, 1000));
            for (String partition : admin.listPartitionNames(DB, "orders", (short) -1)) {
                ColumnStatisticsDesc of = new ColumnStatisticsDesc(false, DB, "orders");
                of.setPartName(partition);
                ColumnStatistics hive = new ColumnStatistics(of, List.of(new ColumnStatisticsObj("o_clerk", "string", clerks)));
                hive.setEngine("hive");
                admin.updatePartitionColumnStatistics(hive);
            }
            String byHive = plan(s, byClerk);
            assertTrue(byHive.matches("(?s).*FinalAggregate [^\n]*\\(est\\. 1,000 rows\\).*"), byHive);
        }
    }

    private static String plan(SqlSession s, String explain) {
        return rows(s, explain).stream().map(r -> (String) r[0]).collect(java.util.stream.Collectors.joining("\n"));
    }

    /**
     * CREATE DATABASE, CREATE TABLE ... AS SELECT in ORC and Parquet, CREATE EXTERNAL TABLE over
     * files (partitioned too) and DROP enter and remove Hive's own external tables: Hive reads what
     * the engine wrote, a dropped table's files stay, and a table on the nodes is refused.
     */
    @Test
    void tablesCreatedAndDroppedHereAreHiveExternalTables() throws Exception {
        Path warehouse = dir.resolve("warehouse");
        Object[] expected = oracle.rows("SELECT count(*), sum(c_custkey), sum(c_acctbal) FROM customer").get(0);
        String summary = "SELECT count(*), sum(c_custkey), sum(c_acctbal), max(c_comment) FROM ";
        try (SqlSession s = engine.openSession("analyst", DB, Map.of())) {
            rows(s, "CREATE DATABASE made_here COMMENT 'made by the engine'");
            assertEquals("made by the engine", admin.getDatabase("made_here").getDescription());
            for (String format : List.of("orc", "parquet")) {
                String name = "customer_" + format;
                Path location = warehouse.resolve("made_" + format);
                assertEquals(((Number) expected[0]).longValue(), s.execute("CREATE TABLE made_here." + name + " STORED AS "
                        + format + " LOCATION '" + location + "' AS SELECT * FROM customer", new Cancellation()).updateCount());
                org.apache.hadoop.hive.metastore.api.Table hive = admin.getTable("made_here", name);
                assertEquals("EXTERNAL_TABLE", hive.getTableType());
                assertEquals("c_acctbal", hive.getSd().getCols().get(5).getName());
                assertEquals("decimal(15,2)", hive.getSd().getCols().get(5).getType());
                List<List<Object>> read = HiveReaders.rows(admin, "made_here", name);
                assertEquals(((Number) expected[0]).longValue(), read.size(), format);
                assertEquals(((Number) expected[1]).longValue(), read.stream().mapToLong(r -> ((Number) r.get(0)).longValue())
                        .sum(), format);
                assertEquals(0, new BigDecimal(expected[2].toString()).compareTo(read.stream()
                        .map(r -> ((HiveDecimal) r.get(5)).bigDecimalValue()).reduce(BigDecimal.ZERO, BigDecimal::add)));
                assertNull(OracleComparison.difference(rows(s, summary + "made_here." + name),
                        oracle.rows(summary + "customer"), false));
            }

            // an external table over files already there, and a partitioned one written by INSERT
            String columns = String.join(", ", TpchSchema.definition(TpchTable.CUSTOMER).schema().columns().stream()
                    .map(c -> c.name() + " " + (c.type().precision() == 0 && c.type().kind().name().equals("VARCHAR")
                            ? "string" : c.type().toString())).toList());
            rows(s, "CREATE EXTERNAL TABLE made_here.over_orc (" + columns + ") STORED AS ORC LOCATION '"
                    + warehouse.resolve("made_orc") + "'");
            assertNull(OracleComparison.difference(rows(s, summary + "made_here.over_orc"), oracle.rows(summary + "customer"),
                    false));
            Path byNation = Files.createDirectories(warehouse.resolve("by_nation"));
            rows(s, "CREATE EXTERNAL TABLE made_here.by_nation (c_custkey BIGINT, c_name STRING) PARTITIONED BY "
                    + "(c_nationkey BIGINT) ROW FORMAT DELIMITED FIELDS TERMINATED BY '|' STORED AS TEXTFILE LOCATION '"
                    + byNation + "'");
            assertEquals("|", admin.getTable("made_here", "by_nation").getSd().getSerdeInfo().getParameters()
                    .get("field.delim"));
            rows(s, "INSERT INTO made_here.by_nation PARTITION (c_nationkey) SELECT c_custkey, c_name, c_nationkey "
                    + "FROM customer WHERE c_nationkey < 3");
            assertEquals(List.of("c_nationkey=0", "c_nationkey=1", "c_nationkey=2"),
                    admin.listPartitionNames("made_here", "by_nation", (short) -1).stream().sorted().toList());
            assertEquals(((Number) oracle.rows("SELECT count(*) FROM customer WHERE c_nationkey < 3").get(0)[0]).longValue(),
                    HiveReaders.rows(admin, "made_here", "by_nation").size());

            // a table on the nodes has no place in a metastore
            SqlException onNodes = assertThrows(SqlException.class,
                    () -> rows(s, "CREATE TABLE made_here.on_nodes (id BIGINT)"));
            assertEquals(SqlException.NOT_SUPPORTED, onNodes.sqlState());
            assertTrue(onNodes.getMessage().contains("CREATE EXTERNAL TABLE"), onNodes.getMessage());
            // nor a location SQL may not read
            assertThrows(org.oooengine.hive.security.AccessDeniedException.class, () -> rows(s,
                    "CREATE TABLE made_here.escaped STORED AS ORC LOCATION '" + dir.resolve("escaped") + "' AS SELECT 1 AS a"));
            assertFalse(admin.tableExists("made_here", "escaped"));
            assertFalse(Files.exists(dir.resolve("escaped")));

            SqlException complex = assertThrows(SqlException.class, () -> rows(s, "CREATE EXTERNAL TABLE made_here.arrays "
                    + "(a ARRAY<INT>) STORED AS ORC LOCATION '" + warehouse.resolve("made_orc") + "'"));
            assertEquals(SqlException.NOT_SUPPORTED, complex.sqlState());
            SqlException keptDefault = assertThrows(SqlException.class, () -> rows(s, "DROP DATABASE default CASCADE"));
            assertTrue(keptDefault.getMessage().contains("keeps its default database"), keptDefault.getMessage());
            assertTrue(admin.getAllTables("default") != null);
            rows(s, "DROP TABLE made_here.never_there"); // a missing table, as Hive's hive.exec.drop.ignorenonexistent

            // dropped: the metastore forgets them, their files stay (external tables)
            rows(s, "DROP TABLE made_here.over_orc");
            assertFalse(admin.tableExists("made_here", "over_orc"));
            assertTrue(Files.list(warehouse.resolve("made_orc")).findAny().isPresent());
            SqlException notEmpty = assertThrows(SqlException.class, () -> rows(s, "DROP DATABASE made_here"));
            assertTrue(notEmpty.getMessage().contains("CASCADE"), notEmpty.getMessage());
            rows(s, "DROP DATABASE made_here CASCADE");
            assertFalse(admin.getAllDatabases().contains("made_here"));
            assertTrue(Files.list(warehouse.resolve("made_parquet")).findAny().isPresent());
            rows(s, "DROP TABLE IF EXISTS made_here_not.at_all");
        }
    }

    @Test
    void statementsThatWouldChangeTheCatalogOtherwiseAreRefused() throws Exception {
        try (SqlSession s = engine.openSession("analyst", DB, Map.of())) {
            SqlException rename = assertThrows(SqlException.class,
                    () -> rows(s, "ALTER TABLE customer_text RENAME TO customer_renamed"));
            assertEquals(SqlException.NOT_SUPPORTED, rename.sqlState());
            assertTrue(rename.getMessage().contains("change the catalog through Hive"), rename.getMessage());
            SqlException update = assertThrows(SqlException.class,
                    () -> rows(s, "UPDATE customer_text SET c_name = 'x' WHERE c_custkey = 1"));
            assertEquals(SqlException.NOT_SUPPORTED, update.sqlState());
        }
    }
}
