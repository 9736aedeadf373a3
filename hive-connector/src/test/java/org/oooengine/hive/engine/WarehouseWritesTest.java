package org.oooengine.hive.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.trino.tpch.TpchTable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.oooengine.core.sql.SqlException;
import org.oooengine.hive.security.AccessDeniedException;
import org.oooengine.hive.sql.Cancellation;
import org.oooengine.hive.sql.SqlSession;

/**
 * INSERT INTO, INSERT OVERWRITE (of tables, of static and dynamic partitions) and CREATE TABLE ...
 * LOCATION ... AS SELECT over tables held in files, in every format: the rows read back equal
 * DuckDB's answer over the TPC-H tables they came from, DuckDB reads the Parquet files written,
 * and nothing of a statement's own is left in the table's directories.
 */
class WarehouseWritesTest {
    private static Path incoming;

    @RegisterExtension
    static final SqlCluster cluster = SqlCluster.of("ooo-warehouse-writes", 3, TpchTable.ORDERS, TpchTable.CUSTOMER)
            .engine(tpch -> {
                incoming = Files.createDirectories(tpch.dir.resolve("incoming"));
                return new ClusterSqlEngine(tpch.session, tpch.cluster.dir, SqlCluster.catalogFile(tpch),
                        Map.of(LoadableFiles.ALLOWED_DIRS_SETTING, incoming.toString()));
            });

    private static String columns(TpchTable<?> table, String... leftOut) {
        return ExternalTablesTest.columns(table, leftOut);
    }

    /** Our answer to {@code ours} equals DuckDB's to {@code theirs}. */
    private static void assertSame(SqlSession s, String ours, String theirs) throws Exception {
        assertNull(OracleComparison.difference(SqlCluster.rows(s, ours), cluster.oracle().rows(theirs), false), ours);
    }

    /** The statements' own directories under {@code dir} (staging, replaced), listed while they may come and go. */
    static List<String> hidden(Path dir) throws Exception {
        while (true) {
            try (Stream<Path> all = Files.walk(dir)) {
                return all.map(p -> p.getFileName().toString()).filter(n -> n.startsWith(".ooo-")).toList();
            } catch (java.io.UncheckedIOException e) { // one deleted while it was listed: list again
                Thread.onSpinWait();
            }
        }
    }

    private static long update(SqlSession s, String sql) {
        return s.execute(sql, new Cancellation()).updateCount();
    }

    @Test
    void insertIntoAndOverwriteInEveryFormat() throws Exception {
        String summary = "SELECT count(*), sum(o_totalprice), min(o_orderdate), max(o_comment), count(o_clerk) FROM ";
        try (SqlSession s = cluster.session()) {
            for (String format : List.of("textfile", "orc", "parquet")) {
                Path dir = Files.createDirectories(incoming.resolve("orders_" + format));
                String t = "orders_" + format;
                SqlCluster.rows(s, "CREATE EXTERNAL TABLE " + t + " (" + columns(TpchTable.ORDERS) + ") STORED AS "
                        + format + " LOCATION '" + dir + "'");
                assertEquals(cluster.oracle().rows("SELECT count(*) FROM orders WHERE o_orderkey < 20000").get(0)[0],
                        update(s, "INSERT INTO " + t + " SELECT * FROM orders WHERE o_orderkey < 20000"));
                SqlCluster.rows(s, "INSERT INTO TABLE " + t + " SELECT * FROM orders WHERE o_orderkey >= 20000");
                assertSame(s, summary + t, summary + "orders");
                assertSame(s, "SELECT * FROM " + t + " WHERE o_custkey < 50", "SELECT * FROM orders WHERE o_custkey < 50");

                SqlCluster.rows(s, "INSERT OVERWRITE TABLE " + t + " SELECT * FROM orders WHERE o_orderstatus = 'P'");
                assertSame(s, summary + t, summary + "orders WHERE o_orderstatus = 'P'");
                SqlCluster.rows(s, "INSERT INTO " + t + " VALUES (1, 2, 'X', 3.25, DATE '2000-01-01', '1-URGENT', "
                        + "NULL, 0, 'values')");
                assertEquals(List.of(1L, "X", "values"), List.of(SqlCluster.rows(s, "SELECT o_orderkey, o_orderstatus, "
                        + "o_comment FROM " + t + " WHERE o_orderstatus = 'X'").get(0)));
                assertEquals(List.of(), hidden(dir));

                // the planner knows the rows: ORC's and Parquet's footers count them, a text file's first lines estimate them
                long rows = ((Number) SqlCluster.rows(s, "SELECT count(*) FROM " + t).get(0)[0]).longValue();
                String plan = String.join("\n", SqlCluster.rows(s, "EXPLAIN SELECT o_comment FROM " + t).stream()
                        .map(r -> (String) r[0]).toList());
                java.util.regex.Matcher est = java.util.regex.Pattern.compile("est\\. ([0-9,]+) rows").matcher(plan);
                assertTrue(est.find(), plan);
                long estimated = Long.parseLong(est.group(1).replace(",", ""));
                if (format.equals("textfile")) {
                    assertTrue(Math.abs(estimated - rows) < rows / 4, estimated + " of " + rows);
                } else {
                    assertEquals(rows, estimated, plan);
                }
            }
            // another engine reads the Parquet files written
            cluster.oracle().execute("CREATE VIEW written_pq AS SELECT * FROM read_parquet('"
                    + incoming.resolve("orders_parquet") + "/*.parquet')");
            assertSame(s, "SELECT * FROM orders_parquet", "SELECT * FROM written_pq");
        }
    }

    @Test
    void staticAndDynamicPartitions() throws Exception {
        Path dir = Files.createDirectories(incoming.resolve("orders_by_status"));
        try (SqlSession s = cluster.session()) {
            SqlCluster.rows(s, "CREATE EXTERNAL TABLE by_status (" + columns(TpchTable.ORDERS, "o_orderstatus",
                    "o_orderpriority") + ") PARTITIONED BY (o_orderstatus STRING, o_orderpriority STRING) STORED AS ORC "
                    + "LOCATION '" + dir + "'");
            String fileColumns = "o_orderkey, o_custkey, o_totalprice, o_orderdate, o_clerk, o_shippriority, o_comment";
            // all dynamic: a directory for each pair of values
            SqlCluster.rows(s, "INSERT INTO by_status PARTITION (o_orderstatus, o_orderpriority) SELECT " + fileColumns
                    + ", o_orderstatus, o_orderpriority FROM orders");
            assertTrue(Files.isDirectory(dir.resolve("o_orderstatus=F/o_orderpriority=1-URGENT")));
            String perPartition = "SELECT o_orderstatus, o_orderpriority, count(*), sum(o_totalprice) FROM %s "
                    + "GROUP BY o_orderstatus, o_orderpriority";
            assertSame(s, perPartition.formatted("by_status"), perPartition.formatted("orders"));

            // static then dynamic: only the partitions written are replaced
            SqlCluster.rows(s, "INSERT OVERWRITE TABLE by_status PARTITION (o_orderstatus = 'P', o_orderpriority) SELECT "
                    + fileColumns + ", o_orderpriority FROM orders WHERE o_orderstatus = 'P' AND o_orderpriority = '5-LOW' "
                    + "AND o_orderkey < 30000");
            String expected = "SELECT o_orderstatus, o_orderpriority, count(*), sum(o_totalprice) FROM orders WHERE NOT "
                    + "(o_orderstatus = 'P' AND o_orderpriority = '5-LOW' AND o_orderkey >= 30000) "
                    + "GROUP BY o_orderstatus, o_orderpriority";
            assertSame(s, perPartition.formatted("by_status"), expected);

            // all static, no row: the partition is emptied
            SqlCluster.rows(s, "INSERT OVERWRITE TABLE by_status PARTITION (o_orderstatus = 'O', o_orderpriority = '2-HIGH') "
                    + "SELECT " + fileColumns + " FROM orders WHERE o_orderkey < 0");
            assertEquals(0L, ((Number) SqlCluster.rows(s, "SELECT count(*) FROM by_status WHERE o_orderstatus = 'O' "
                    + "AND o_orderpriority = '2-HIGH'").get(0)[0]).longValue());
            assertEquals(List.of(), hidden(dir));

            SqlException order = assertThrows(SqlException.class, () -> SqlCluster.rows(s, "INSERT INTO by_status "
                    + "PARTITION (o_orderstatus, o_orderpriority = '1-URGENT') SELECT " + fileColumns + ", o_orderstatus "
                    + "FROM orders"));
            assertEquals(SqlException.NOT_SUPPORTED, order.sqlState());
            assertTrue(order.getMessage().contains("static ones come first"), order.getMessage());
            SqlException missing = assertThrows(SqlException.class, () -> SqlCluster.rows(s, "INSERT INTO by_status "
                    + "PARTITION (o_orderstatus = 'F') SELECT " + fileColumns + " FROM orders"));
            assertTrue(missing.getMessage().contains("is partitioned by 2 (o_orderstatus, o_orderpriority)"),
                    missing.getMessage());
        }
    }

    /**
     * An INSERT whose query ends in a pipeline of the nodes has each node write what its run
     * produces: the rows never meet on the coordinator, so a statement memory far below them is no
     * bound; each node writes files of its own, dynamic partitions cut on the nodes. A query whose
     * rows meet on the coordinator (ORDER BY ... LIMIT) has them written as before.
     */
    @Test
    void theNodesWriteTheRowsTheirPipelinesProduce() throws Exception {
        Path dir = Files.createDirectories(incoming.resolve("orders_from_nodes"));
        Path byPriority = Files.createDirectories(incoming.resolve("orders_by_priority"));
        try (SqlSession s = cluster.session(Map.of("ooo.query.max-memory", "200000"))) {
            SqlCluster.rows(s, "CREATE EXTERNAL TABLE from_nodes (" + columns(TpchTable.ORDERS) + ") STORED AS ORC "
                    + "LOCATION '" + dir + "'");
            String select = "SELECT o.* FROM orders o JOIN customer c ON o_custkey = c_custkey WHERE c_mktsegment <> 'BUILDING'";
            assertEquals(cluster.oracle().rows("SELECT count(*) FROM (" + select + ")").get(0)[0],
                    update(s, "INSERT INTO from_nodes " + select));
            assertSame(s, "SELECT * FROM from_nodes", select);
            List<String> written = files(dir);
            for (String node : List.of("n1", "n2", "n3")) {
                assertTrue(written.stream().anyMatch(f -> f.matches("part-.*-" + node + "-.*\\.orc")), written.toString());
            }

            SqlCluster.rows(s, "CREATE EXTERNAL TABLE by_priority (" + columns(TpchTable.ORDERS, "o_orderpriority")
                    + ") PARTITIONED BY (o_orderpriority STRING) STORED AS PARQUET LOCATION '" + byPriority + "'");
            update(s, "INSERT OVERWRITE TABLE by_priority PARTITION (o_orderpriority) SELECT o_orderkey, o_custkey, "
                    + "o_orderstatus, o_totalprice, o_orderdate, o_clerk, o_shippriority, o_comment, o_orderpriority FROM orders");
            String perPartition = "SELECT o_orderpriority, count(*), sum(o_totalprice), max(o_comment) FROM %s "
                    + "GROUP BY o_orderpriority";
            assertSame(s, perPartition.formatted("by_priority"), perPartition.formatted("orders"));
            assertTrue(Files.isDirectory(byPriority.resolve("o_orderpriority=3-MEDIUM")));

            update(s, "INSERT OVERWRITE TABLE from_nodes SELECT * FROM orders ORDER BY o_totalprice DESC LIMIT 10");
            assertSame(s, "SELECT * FROM from_nodes", "SELECT * FROM orders ORDER BY o_totalprice DESC LIMIT 10");
            assertEquals(List.of(), hidden(dir));
            assertEquals(List.of(), hidden(byPriority));
        }
    }

    /**
     * Plans whose last part shuffles write where that part ends too: a join of both sides shuffled
     * by key, a GROUP BY merged on the nodes (with a projection after it), a window over rows
     * shuffled by its partition key, a UNION ALL of pipelines. Under a statement memory far below
     * their rows, each node writes files of its own, and the table reads as DuckDB's answer.
     */
    @Test
    void plansThatShuffleWriteWhereTheirLastPartEnds() throws Exception {
        Path dir = Files.createDirectories(incoming.resolve("shuffled_writes"));
        Path perComment = Files.createDirectories(incoming.resolve("per_comment"));
        Path ranked = Files.createDirectories(incoming.resolve("ranked"));
        try (SqlSession s = cluster.session(Map.of("ooo.query.max-memory", "200000", "ooo.join.broadcast-max-bytes", "0"))) {
            SqlCluster.rows(s, "CREATE EXTERNAL TABLE shuffled_writes (" + columns(TpchTable.ORDERS) + ") STORED AS ORC "
                    + "LOCATION '" + dir + "'");
            String joined = "SELECT o.* FROM orders o JOIN customer c ON o_custkey = c_custkey WHERE c_acctbal > 0";
            assertWrittenByEveryNode(s, "INSERT OVERWRITE TABLE shuffled_writes " + joined, dir, "orc");
            assertSame(s, "SELECT * FROM shuffled_writes", joined);
            String both = "SELECT * FROM orders WHERE o_orderkey < 20000 UNION ALL SELECT * FROM orders WHERE o_totalprice > 1000";
            assertWrittenByEveryNode(s, "INSERT OVERWRITE TABLE shuffled_writes " + both, dir, "orc");
            assertSame(s, "SELECT * FROM shuffled_writes", both);

            SqlCluster.rows(s, "CREATE EXTERNAL TABLE per_comment (c STRING, n BIGINT, total DECIMAL(15,2)) STORED AS PARQUET "
                    + "LOCATION '" + perComment + "'");
            String groups = "SELECT concat('c:', o_comment), count(*) + 1, sum(o_totalprice) FROM orders GROUP BY o_comment";
            assertWrittenByEveryNode(s, "INSERT INTO per_comment " + groups, perComment, "parquet");
            assertSame(s, "SELECT * FROM per_comment", groups);

            SqlCluster.rows(s, "CREATE EXTERNAL TABLE ranked (custkey BIGINT, orderkey BIGINT, r BIGINT) STORED AS ORC "
                    + "LOCATION '" + ranked + "'");
            String window = "SELECT o_custkey, o_orderkey, rank() OVER (PARTITION BY o_custkey ORDER BY o_totalprice DESC) "
                    + "FROM orders";
            assertWrittenByEveryNode(s, "INSERT INTO ranked " + window, ranked, "orc");
            assertSame(s, "SELECT * FROM ranked", window);
            for (Path d : List.of(dir, perComment, ranked)) {
                assertEquals(List.of(), hidden(d));
            }
        }
    }

    /** Runs {@code insert}, after which each node has written files of its own into {@code dir}. */
    private static void assertWrittenByEveryNode(SqlSession s, String insert, Path dir, String suffix) throws Exception {
        update(s, insert);
        List<String> written = files(dir);
        for (String node : List.of("n1", "n2", "n3")) {
            assertTrue(written.stream().anyMatch(f -> f.matches("part-.*-" + node + "-.*\\." + suffix)), insert + ": " + written);
        }
    }

    @Test
    void dateAndIntegerPartitionsArePrunedAfterTheyAreWritten() throws Exception {
        Path dir = Files.createDirectories(incoming.resolve("orders_by_month"));
        try (SqlSession s = cluster.session()) {
            SqlCluster.rows(s, "CREATE EXTERNAL TABLE by_month (" + columns(TpchTable.ORDERS) + ") "
                    + "PARTITIONED BY (o_month DATE) STORED AS PARQUET LOCATION '" + dir + "'");
            SqlCluster.rows(s, "INSERT INTO by_month PARTITION (o_month) SELECT *, CAST(trunc(o_orderdate, 'MM') AS DATE) "
                    + "FROM orders");
            assertTrue(Files.isDirectory(dir.resolve("o_month=1995-01-01")));
            String explained = String.join("\n", SqlCluster.rows(s, "EXPLAIN SELECT count(*) FROM by_month WHERE o_month "
                    + "= DATE '1995-01-01'").stream().map(r -> (String) r[0]).toList());
            assertTrue(explained.contains("[files: 1 of "), explained);
            assertSame(s, "SELECT count(*), sum(o_totalprice) FROM by_month WHERE o_month = DATE '1995-01-01'",
                    "SELECT count(*), sum(o_totalprice) FROM orders WHERE date_trunc('month', o_orderdate) = DATE '1995-01-01'");

            // ADD PARTITION makes an empty directory; MSCK has nothing to enter: the directories are the partitions
            long before = update(s, "MSCK REPAIR TABLE by_month");
            assertEquals(1L, update(s, "ALTER TABLE by_month ADD PARTITION (o_month = DATE '2001-01-01')"));
            assertTrue(Files.isDirectory(dir.resolve("o_month=2001-01-01")));
            assertEquals(before + 1, update(s, "MSCK REPAIR TABLE by_month"));
            SqlException again = assertThrows(SqlException.class,
                    () -> SqlCluster.rows(s, "ALTER TABLE by_month ADD PARTITION (o_month = DATE '2001-01-01')"));
            assertEquals(SqlException.ALREADY_EXISTS, again.sqlState());
            SqlCluster.rows(s, "ALTER TABLE by_month ADD IF NOT EXISTS PARTITION (o_month = DATE '2001-01-01')");
            // the embedded catalog's partitions are the directories: it has none to forget
            SqlException drop = assertThrows(SqlException.class,
                    () -> SqlCluster.rows(s, "ALTER TABLE by_month DROP PARTITION (o_month = DATE '2001-01-01')"));
            assertEquals(SqlException.NOT_SUPPORTED, drop.sqlState());
            assertTrue(drop.getMessage().contains("finds a table's partitions by listing its directories"), drop.getMessage());
            assertTrue(Files.isDirectory(dir.resolve("o_month=2001-01-01")));
            SqlException notPartitioned = assertThrows(SqlException.class,
                    () -> SqlCluster.rows(s, "MSCK REPAIR TABLE orders"));
            assertEquals(SqlException.NOT_SUPPORTED, notPartitioned.sqlState());
            assertTrue(notPartitioned.getMessage().contains("which is not partitioned"), notPartitioned.getMessage());
        }
    }

    @Test
    void createTableAsSelectWritesFilesAtItsLocation() throws Exception {
        try (SqlSession s = cluster.session()) {
            Path dir = incoming.resolve("customer_copy"); // made by the statement
            assertEquals(cluster.oracle().rows("SELECT count(*) FROM customer").get(0)[0],
                    update(s, "CREATE TABLE customer_copy STORED AS PARQUET LOCATION '" + dir + "' AS SELECT * FROM customer"));
            assertSame(s, "SELECT * FROM customer_copy", "SELECT * FROM customer");
            assertTrue(SqlCluster.rows(s, "SHOW CREATE TABLE customer_copy").stream().map(r -> (String) r[0])
                    .anyMatch(l -> l.startsWith("CREATE EXTERNAL TABLE")));
            cluster.oracle().execute("CREATE VIEW customer_written AS SELECT * FROM read_parquet('" + dir + "/*.parquet')");
            assertSame(s, "SELECT c_custkey, c_name, c_acctbal FROM customer_copy",
                    "SELECT c_custkey, c_name, c_acctbal FROM customer_written");

            SqlException again = assertThrows(SqlException.class, () -> SqlCluster.rows(s,
                    "CREATE TABLE customer_again STORED AS ORC LOCATION '" + dir + "' AS SELECT * FROM customer"));
            assertTrue(again.getMessage().contains("holds files already"), again.getMessage());
            AccessDeniedException outside = assertThrows(AccessDeniedException.class, () -> SqlCluster.rows(s,
                    "CREATE TABLE escaped STORED AS ORC LOCATION '" + incoming.resolve("../escaped") + "' AS SELECT 1"));
            assertTrue(outside.getMessage().contains("is not under a directory SQL may read files from"),
                    outside.getMessage());
            assertTrue(!Files.exists(incoming.resolve("../escaped")));
            SqlException partitioned = assertThrows(SqlException.class, () -> SqlCluster.rows(s, "CREATE TABLE p "
                    + "PARTITIONED BY (k INT) STORED AS ORC LOCATION '" + incoming.resolve("p") + "' AS SELECT 1 AS a"));
            assertEquals(SqlException.NOT_SUPPORTED, partitioned.sqlState());
        }
    }

    /** About 300,000 rows of orders (each 20 times): an overwrite the nodes take a while to write. */
    static final String MANY_ROWS = "SELECT o.* FROM orders o, customer c WHERE c.c_custkey <= 20";

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void anInsertOverwriteCancelledWhileTheNodesWriteLeavesTheTableAsItWas() throws Exception {
        Path dir = Files.createDirectories(incoming.resolve("orders_cancelled"));
        try (SqlSession s = cluster.session()) {
            tableWithSomeOrders(s, "orders_cancelled", "ORC", dir);
            Throwable failed = interruptedLeavingTheTable(s, "orders_cancelled", dir, Cancellation::cancel, () -> { });
            assertTrue(String.valueOf(failed.getMessage()).contains("cancelled"), failed.toString());
        }
    }

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void anInsertOverwriteWhoseNodeIsLostWhileItWritesFailsNamingItAndLeavesTheTableAsItWas() throws Exception {
        Path dir = Files.createDirectories(incoming.resolve("orders_lost"));
        var nodes = cluster.tpch().cluster;
        try (SqlSession s = cluster.session()) {
            tableWithSomeOrders(s, "orders_lost", "PARQUET", dir);
            Throwable failed = interruptedLeavingTheTable(s, "orders_lost", dir, cancellation -> nodes.stop("n2"), () -> {
                nodes.restart("n2");
                cluster.tpch().session.serving().probeAgain();
            });
            assertTrue(String.valueOf(failed.getMessage()).contains("n2"), failed.toString());
        }
    }

    /**
     * Runs {@code INSERT OVERWRITE TABLE table} (over {@code dir}) of {@link #MANY_ROWS} and, once
     * its staging directory shows the nodes writing, has {@code interrupt} stop it and, once it
     * ended, {@code recover} undo the interruption; checks the table's files and rows are as
     * before and returns what the statement failed with. A
     * statement that ended before it was interrupted (a very fast host) is undone and tried again,
     * up to three times.
     */
    private static Throwable interruptedLeavingTheTable(SqlSession s, String table, Path dir,
                                                        java.util.function.Consumer<Cancellation> interrupt,
                                                        Runnable recover) throws Exception {
        for (int attempt = 1; ; attempt++) {
            String before = summary(s, table);
            List<String> files = files(dir);
            Cancellation cancellation = new Cancellation();
            CompletableFuture<Long> overwrite = CompletableFuture.supplyAsync(() -> s.execute(
                    "INSERT OVERWRITE TABLE " + table + " " + MANY_ROWS, cancellation).updateCount());
            while (!overwrite.isDone() && hidden(dir).stream().noneMatch(n -> n.startsWith(".ooo-staging-"))) {
                Thread.sleep(1);
            }
            boolean interrupting = !overwrite.isDone();
            if (interrupting) {
                interrupt.accept(cancellation);
            }
            Throwable failed = null;
            try {
                overwrite.get(60, TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                failed = e.getCause();
            } finally {
                if (interrupting) {
                    recover.run();
                }
            }
            if (failed != null) {
                assertUnchanged(s, table, dir, files, before);
                return failed;
            }
            assertTrue(attempt < 3, "the overwrite ended before it was interrupted, three times");
            update(s, "INSERT OVERWRITE TABLE " + table + " SELECT * FROM orders WHERE o_orderkey < 5000");
        }
    }

    /** Creates table {@code name} over {@code dir} holding the orders of keys below 5,000. */
    private static void tableWithSomeOrders(SqlSession s, String name, String format, Path dir) {
        SqlCluster.rows(s, "CREATE EXTERNAL TABLE " + name + " (" + columns(TpchTable.ORDERS) + ") STORED AS " + format
                + " LOCATION '" + dir + "'");
        update(s, "INSERT INTO " + name + " SELECT * FROM orders WHERE o_orderkey < 5000");
    }

    private static String summary(SqlSession s, String table) {
        return java.util.Arrays.toString(SqlCluster.rows(s, "SELECT count(*), sum(o_totalprice), max(o_comment) FROM "
                + table).get(0));
    }

    private static List<String> files(Path dir) throws Exception {
        try (Stream<Path> all = Files.walk(dir)) {
            return all.map(p -> dir.relativize(p).toString()).sorted().toList();
        }
    }

    private static void assertUnchanged(SqlSession s, String table, Path dir, List<String> files, String summary)
            throws Exception {
        assertEquals(files, files(dir), "the table's files");
        assertEquals(List.of(), hidden(dir));
        assertEquals(summary, summary(s, table));
    }
}
