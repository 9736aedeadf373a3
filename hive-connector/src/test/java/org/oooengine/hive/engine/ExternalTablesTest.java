package org.oooengine.hive.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.trino.tpch.TpchTable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.oooengine.core.sql.SqlException;
import org.oooengine.core.tpch.TpchSchema;
import org.oooengine.core.types.Column;
import org.oooengine.core.types.TypeKind;
import org.oooengine.hive.security.AccessDeniedException;
import org.oooengine.hive.sql.SqlSession;

/**
 * CREATE EXTERNAL TABLE over files another tool wrote (DuckDB: Parquet in Hive's partition
 * directories by month, CSV text), read by three nodes, joined with the nodes' own tables, and
 * answered as DuckDB answers; their locations judged as LOAD DATA's files are; dropping one leaves
 * its files.
 */
class ExternalTablesTest {
    /** The directory SQL may read files from. */
    private static Path incoming;

    @RegisterExtension
    static final SqlCluster cluster = SqlCluster.of("ooo-external-test", 3, TpchTable.ORDERS, TpchTable.CUSTOMER)
            .engine(tpch -> {
                incoming = Files.createDirectories(tpch.dir.resolve("incoming"));
                return new ClusterSqlEngine(tpch.session, tpch.cluster.dir, SqlCluster.catalogFile(tpch),
                        Map.of(LoadableFiles.ALLOWED_DIRS_SETTING, incoming.toString(),
                                "mapreduce.input.fileinputformat.split.maxsize", Integer.toString(32 << 10)));
            });

    @BeforeAll
    static void writeFiles() throws Exception {
        // orders by month, the month a DATE partition column the files leave out, as Hive lays them out
        cluster.oracle().execute("COPY (SELECT *, CAST(date_trunc('month', o_orderdate) AS DATE) AS o_month FROM orders) "
                + "TO '" + incoming.resolve("orders_by_month") + "' (FORMAT PARQUET, PARTITION_BY (o_month), "
                + "ROW_GROUP_SIZE 1000)");
        Files.createDirectories(incoming.resolve("customers_csv"));
        cluster.oracle().execute("COPY customer TO '" + incoming.resolve("customers_csv/part-0.csv")
                + "' (FORMAT CSV, HEADER false, DELIMITER '|', QUOTE '')");
        // DuckDB answers over the same Parquet files, read as Hive partitions
        cluster.oracle().execute("CREATE VIEW orders_pq AS SELECT * FROM read_parquet('" + incoming.resolve("orders_by_month")
                + "/*/*.parquet', hive_partitioning = true)");
        cluster.oracle().execute("CREATE VIEW customer_csv AS SELECT * FROM customer");
    }

    /** The DDL column list of a TPC-H table, {@code leftOut} left out. */
    static String columns(TpchTable<?> table, String... leftOut) {
        StringJoiner j = new StringJoiner(", ");
        for (Column c : TpchSchema.definition(table).schema().columns()) {
            if (!List.of(leftOut).contains(c.name())) {
                j.add(c.name() + " " + (c.type().kind() == TypeKind.VARCHAR && c.type().precision() == 0 ? "string"
                        : c.type().toString().toLowerCase(java.util.Locale.ROOT)));
            }
        }
        return j.toString();
    }

    private static long rowsReadBy(String node, String analyzed) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile(node + " read ([0-9,]+) rows").matcher(analyzed);
        assertTrue(m.find(), analyzed);
        return Long.parseLong(m.group(1).replace(",", ""));
    }

    /** The orders Parquet files by month as table {@code orders}, the customers' CSV file as {@code customers}. */
    private static void createTables(SqlSession s, String orders, String customers) {
        SqlCluster.rows(s, "CREATE EXTERNAL TABLE " + orders + " (" + columns(TpchTable.ORDERS) + ") "
                + "PARTITIONED BY (o_month DATE) STORED AS PARQUET LOCATION '" + incoming.resolve("orders_by_month") + "'");
        SqlCluster.rows(s, "CREATE EXTERNAL TABLE " + customers + " (" + columns(TpchTable.CUSTOMER) + ") "
                + "ROW FORMAT DELIMITED FIELDS TERMINATED BY '|' LOCATION '" + incoming.resolve("customers_csv") + "'");
    }

    /** The groups a plan's final aggregation is estimated to make. */
    private static long groupsEstimated(String plan) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("FinalAggregate [^\n]*\\(est\\. ([0-9,]+) rows?\\)")
                .matcher(plan);
        assertTrue(m.find(), plan);
        return Long.parseLong(m.group(1).replace(",", ""));
    }

    private static String explain(SqlSession s, String sql) {
        return SqlCluster.rows(s, sql).stream().map(r -> (String) r[0]).collect(Collectors.joining("\n"));
    }

    private static void assertSameAsDuckDb(SqlSession s, String sql) throws Exception {
        assertNull(OracleComparison.difference(SqlCluster.rows(s, sql), cluster.oracle().rows(sql), sql.contains("ORDER BY")),
                sql);
    }

    @Test
    void parquetPartitionedByMonthAndCsvAreReadByTheNodesAndJoinedWithTheirTables() throws Exception {
        try (SqlSession s = cluster.session()) {
            createTables(s, "orders_pq", "customer_csv");
            assertSameAsDuckDb(s, "SELECT o_month, count(*), sum(o_totalprice) FROM orders_pq WHERE o_month BETWEEN "
                    + "DATE '1995-01-01' AND DATE '1995-06-01' GROUP BY o_month ORDER BY o_month");
            assertSameAsDuckDb(s, "SELECT count(*), sum(o_totalprice), min(o_orderdate), max(o_comment) FROM orders_pq");
            assertSameAsDuckDb(s, "SELECT * FROM orders_pq WHERE o_orderkey < 200 ORDER BY o_orderkey");
            // files joined with the nodes' own table, and with each other
            assertSameAsDuckDb(s, "SELECT c_mktsegment, count(*), sum(o_totalprice) FROM orders_pq JOIN customer "
                    + "ON o_custkey = c_custkey GROUP BY c_mktsegment ORDER BY c_mktsegment");
            assertSameAsDuckDb(s, "SELECT c_nationkey, count(*) FROM orders_pq JOIN customer_csv ON o_custkey = c_custkey "
                    + "WHERE o_orderstatus = 'F' GROUP BY c_nationkey");

            // partitions pruned from the WHERE clause, on ranges and IN lists of dates, as EXPLAIN tells
            long months = ((Number) cluster.oracle().rows("SELECT count(DISTINCT o_month) FROM orders_pq").get(0)[0]).longValue();
            String pruned = explain(s, "EXPLAIN SELECT count(*) FROM orders_pq WHERE o_month BETWEEN DATE '1995-01-01' "
                    + "AND DATE '1995-06-01'");
            // a file per month: 6 of them kept, and the bytes kept of the table's
            assertTrue(pruned.matches("(?s).*\\[files: 6 of " + months + " partitions, 6 of " + months
                    + " files, 6 splits, [0-9.]+ KiB of [0-9.]+ [KM]iB, stealing\\].*"), pruned);
            String inList = "SELECT o_month, count(*) FROM orders_pq WHERE o_month IN (DATE '1995-01-01', DATE '1996-03-01') "
                    + "AND o_totalprice > 1000 GROUP BY o_month";
            assertTrue(explain(s, "EXPLAIN " + inList).contains("[files: 2 of " + months + " partitions"));
            assertSameAsDuckDb(s, inList);
            String analyzed = explain(s, "EXPLAIN ANALYZE " + inList);
            // the bytes read from the files, and those a node read again from its cache of them
            assertTrue(analyzed.matches("(?s).*nodes read [0-9,]+ rows \\([0-9.]+ (B|[KM]iB) of files"
                    + "(; [0-9.]+ [KM]iB from the nodes' cache of files)?\\).*"), analyzed);
            // no row group's keys are below 1: the footers' statistics skip them all, no row is read
            String skipped = explain(s, "EXPLAIN ANALYZE SELECT count(*) FROM orders_pq WHERE o_orderkey < 1");
            assertTrue(skipped.contains("nodes read 0 rows"), skipped);
            assertTrue(skipped.matches("(?s).*nodes read 0 rows \\(([0-9,]+) of \\1 row groups and stripes skipped by "
                    + "their statistics\\).*"), skipped);
            assertTrue(explain(s, "EXPLAIN SELECT * FROM customer_csv").contains("[files: 1 files, "));
            // the Parquet footers bound o_shippriority (always 0) to one value, hence one group
            String grouped = explain(s, "EXPLAIN SELECT o_shippriority, count(*) FROM orders_pq GROUP BY o_shippriority");
            assertTrue(grouped.matches("(?s).*FinalAggregate keys \\[o_shippriority\\][^\n]*\\(est\\. 1 row\\).*"), grouped);

            String described = SqlCluster.rows(s, "DESCRIBE FORMATTED orders_pq").stream()
                    .map(r -> r[0] + " " + r[1]).collect(Collectors.joining("\n"));
            assertTrue(described.contains("files at file:" + incoming.toRealPath().resolve("orders_by_month")), described);

            SqlException write = assertThrows(SqlException.class,
                    () -> SqlCluster.rows(s, "DELETE FROM customer_csv WHERE c_custkey = 1"));
            assertEquals(SqlException.NOT_SUPPORTED, write.sqlState());
            assertTrue(write.getMessage().contains("whose rows are the files at"), write.getMessage());
            assertTrue(write.getMessage().contains("other than by INSERT"), write.getMessage());

            // SHOW CREATE TABLE gives the statement that makes each again, as it was
            for (String table : List.of("orders_pq", "customer_csv")) {
                String all = "SELECT * FROM " + table;
                List<Object[]> before = SqlCluster.rows(s, all);
                String ddl = SqlCluster.rows(s, "SHOW CREATE TABLE " + table).stream().map(r -> (String) r[0])
                        .collect(Collectors.joining("\n"));
                assertTrue(ddl.startsWith("CREATE EXTERNAL TABLE `default`.`" + table + "` (") && ddl.contains("\nLOCATION 'file:"),
                        ddl);
                SqlCluster.rows(s, "DROP TABLE " + table);
                SqlCluster.rows(s, ddl);
                assertNull(OracleComparison.difference(SqlCluster.rows(s, all), before, false), ddl);
            }
            assertTrue(SqlCluster.rows(s, "SHOW CREATE TABLE orders_pq").stream().map(r -> (String) r[0])
                    .anyMatch(l -> l.equals("PARTITIONED BY (`o_month` date)")));

            SqlCluster.rows(s, "DROP TABLE orders_pq");
            SqlCluster.rows(s, "DROP TABLE customer_csv");
            assertTrue(Files.exists(incoming.resolve("customers_csv/part-0.csv")), "an external table's files stay");
        }
    }

    /**
     * ANALYZE TABLE counts a file table's rows and its columns' distinct values on the nodes and
     * keeps them with the table: the planner estimates from them what footers do not say (a
     * string's distinct values, a text file's exact rows).
     */
    @Test
    void analyzeTableGivesThePlannerDistinctValuesAndRows() throws Exception {
        try (SqlSession s = cluster.session()) {
            createTables(s, "orders_an", "customer_an");
            long clerks = ((Number) cluster.oracle().rows("SELECT count(DISTINCT o_clerk) FROM orders").get(0)[0]).longValue();
            long customers = ((Number) cluster.oracle().rows("SELECT count(*) FROM customer").get(0)[0]).longValue();
            String byClerk = "EXPLAIN SELECT o_clerk, count(*) FROM orders_an GROUP BY o_clerk";
            long before = groupsEstimated(explain(s, byClerk));
            assertTrue(Math.abs(before - clerks) > clerks * 0.03, "estimated " + before + " clerks before ANALYZE");
            SqlCluster.rows(s, "ANALYZE TABLE orders_an COMPUTE STATISTICS FOR COLUMNS");
            long after = groupsEstimated(explain(s, byClerk));
            assertTrue(Math.abs(after - clerks) <= clerks * 0.03, "estimated " + after + " of " + clerks + " clerks");
            assertEquals(15_000L, SqlCluster.rows(s, "SELECT count(*) FROM orders_an").get(0)[0]);

            // a text table's rows are estimated from a sample of its lines until counted
            SqlCluster.rows(s, "ANALYZE TABLE customer_an COMPUTE STATISTICS");
            String scan = explain(s, "EXPLAIN SELECT * FROM customer_an");
            assertTrue(scan.contains(String.format("(est. %,d rows)", customers)), scan);
            SqlCluster.rows(s, "ANALYZE TABLE customer_an COMPUTE STATISTICS FOR COLUMNS c_mktsegment, c_nationkey");
            String properties = SqlCluster.rows(s, "DESCRIBE FORMATTED customer_an").stream()
                    .map(r -> r[1] + "=" + r[2]).collect(Collectors.joining("\n"));
            assertTrue(properties.contains("ooo.stats.c_mktsegment.distinct=5"), properties);
            assertTrue(properties.contains("ooo.stats.c_nationkey.nulls=0"), properties);
            String ddl = SqlCluster.rows(s, "SHOW CREATE TABLE customer_an").stream().map(r -> (String) r[0])
                    .collect(Collectors.joining("\n"));
            assertFalse(ddl.contains("ooo.stats"), ddl);

            SqlCluster.rows(s, "ANALYZE TABLE orders_an COMPUTE STATISTICS NOSCAN");
            SqlException partition = assertThrows(SqlException.class, () -> SqlCluster.rows(s,
                    "ANALYZE TABLE orders_an PARTITION (o_month = DATE '1995-01-01') COMPUTE STATISTICS"));
            assertEquals(SqlException.NOT_SUPPORTED, partition.sqlState());
            assertTrue(partition.getMessage().contains("ANALYZE TABLE ... PARTITION"), partition.getMessage());
            SqlException column = assertThrows(SqlException.class, () -> SqlCluster.rows(s,
                    "ANALYZE TABLE orders_an COMPUTE STATISTICS FOR COLUMNS o_nothing"));
            assertEquals(SqlException.UNKNOWN_COLUMN, column.sqlState());
            SqlCluster.rows(s, "CREATE VIEW late_orders AS SELECT * FROM orders_an WHERE o_orderstatus = 'F'");
            SqlException view = assertThrows(SqlException.class, () -> SqlCluster.rows(s,
                    "ANALYZE TABLE late_orders COMPUTE STATISTICS"));
            assertEquals(SqlException.NOT_SUPPORTED, view.sqlState());
            assertTrue(view.getMessage().contains("a view or a system table"), view.getMessage());
            SqlCluster.rows(s, "DROP VIEW late_orders");

            // a table on the nodes has its statistics collected anew there
            SqlCluster.rows(s, "ANALYZE TABLE customer COMPUTE STATISTICS FOR COLUMNS");
            assertSameAsDuckDb(s, "SELECT c_mktsegment, count(*) FROM customer GROUP BY c_mktsegment");
            SqlCluster.rows(s, "DROP TABLE orders_an");
            SqlCluster.rows(s, "DROP TABLE customer_an");
        }
    }

    /**
     * Lines of orders (three to an order) in a Parquet file written in order of their order key,
     * in row groups of 1,000 rows (an order's lines may end one group and start the next), probe
     * orders read from files. A build side too large for every node, its share of a node not, goes
     * to the nodes whose splits may hold each row's key, and those splits are read where they are
     * assigned. Inner, left, semi and anti joins, and a join on a key an inner join equated with
     * the lines' order key, answer as DuckDB does; the same lines written in another order are
     * joined otherwise, and so are they where the build fits on every node, and lines in order of
     * a decimal column meeting integer keys.
     */
    @Test
    void buildRowsGoOnlyToTheNodesWhoseSplitsOfAnOrderedFileHoldTheirKeys() throws Exception {
        cluster.oracle().execute("CREATE TABLE lines AS SELECT o_orderkey AS l_orderkey, n AS l_n, o_totalprice AS l_price "
                + "FROM orders, range(3) t(n)");
        cluster.oracle().execute("CREATE VIEW orders_files AS SELECT * FROM orders_pq");
        for (String order : List.of("sorted", "shuffled")) {
            parquetCopy("lines", "lines_" + order, order.equals("sorted") ? "l_orderkey, l_n" : "l_price, l_n");
        }
        List<String> joins = List.of(
                "SELECT count(*), sum(l_price) FROM %s JOIN orders_files ON l_orderkey = o_orderkey "
                        + "WHERE o_orderdate < DATE '1995-01-01'",
                "SELECT count(*), count(o.o_orderkey), sum(l_price) FROM %s LEFT JOIN "
                        + "(SELECT * FROM orders_files WHERE o_orderdate < DATE '1995-01-01') o ON l_orderkey = o.o_orderkey",
                "SELECT count(*), sum(l_price) FROM %s WHERE l_orderkey IN "
                        + "(SELECT o_orderkey FROM orders_files WHERE o_orderdate < DATE '1995-01-01')",
                "SELECT count(*), sum(l_price) FROM %s WHERE NOT EXISTS "
                        + "(SELECT 1 FROM orders_files WHERE o_orderkey = l_orderkey AND o_orderdate >= DATE '1995-01-01')",
                // routed by the key an inner join equated with the lines' order key
                "SELECT count(*), count(o.o_orderkey), sum(l_price) FROM %s "
                        + "JOIN (SELECT o_orderkey AS k FROM orders_files WHERE o_orderdate < DATE '1992-07-01') s ON l_orderkey = s.k "
                        + "LEFT JOIN (SELECT * FROM orders_files WHERE o_orderdate < DATE '1995-01-01') o ON s.k = o.o_orderkey");
        try (SqlSession s = cluster.session()) {
            SqlCluster.rows(s, "CREATE EXTERNAL TABLE orders_files (" + columns(TpchTable.ORDERS) + ") "
                    + "PARTITIONED BY (o_month DATE) STORED AS PARQUET LOCATION '" + incoming.resolve("orders_by_month") + "'");
            for (String order : List.of("sorted", "shuffled")) {
                String table = "lines_" + order;
                SqlCluster.rows(s, "CREATE EXTERNAL TABLE " + table + " (l_orderkey BIGINT, l_n BIGINT, l_price DECIMAL(15,2)) "
                        + "STORED AS PARQUET LOCATION '" + incoming.resolve(table) + "'");
                for (String join : joins) {
                    String sql = String.format(join, table);
                    String everyNode = explain(s, "EXPLAIN " + sql);
                    assertFalse(everyNode.contains("routed by ranges"), everyNode);
                    assertSameAsDuckDb(s, sql);
                    // the build's keys, 8 bytes each, are twice what a node may hold and more than its share of three
                    long limit = 4 * rowsGathered(everyNode, "o_orderkey");
                    try (SqlSession shares = cluster.session(Map.of("ooo.join.broadcast-max-bytes", Long.toString(limit)))) {
                        String plan = explain(shares, "EXPLAIN " + sql);
                        boolean routed = order.equals("sorted");
                        assertEquals(routed, plan.contains("routed by ranges"), plan);
                        assertEquals(routed, plan.contains("each row to the nodes whose splits hold its o_orderkey"), plan);
                        assertEquals(routed, plan.contains("(each split read on its node: a join routes by its ranges)"), plan);
                        // that scan's splits are not shared out as the session says: EXPLAIN does not say they are
                        assertEquals(routed, plan.matches("(?s).*, where assigned\\] \\(each split read on its node.*"), plan);
                        assertSameAsDuckDb(shares, sql);
                    }
                }
                SqlCluster.rows(s, "DROP TABLE " + table);
            }
            // a decimal column in order holds unscaled values (3.00 as 300): an integer key equated with it is not routed by them
            Path file = Files.createDirectories(incoming.resolve("lines_dec")).resolve("part-0.parquet");
            cluster.oracle().execute("CREATE VIEW lines_dec AS SELECT CAST(l_orderkey AS DECIMAL(12,2)) AS l_amt, l_price FROM lines");
            cluster.oracle().execute("COPY (SELECT * FROM lines_dec ORDER BY l_amt) TO '" + file
                    + "' (FORMAT PARQUET, ROW_GROUP_SIZE 1000)");
            SqlCluster.rows(s, "CREATE EXTERNAL TABLE lines_dec (l_amt DECIMAL(12,2), l_price DECIMAL(15,2)) "
                    + "STORED AS PARQUET LOCATION '" + file.getParent() + "'");
            String sql = "SELECT count(*), count(o.o_orderkey), sum(l_price) FROM lines_dec "
                    + "JOIN (SELECT o_orderkey AS k FROM orders_files WHERE o_orderdate < DATE '1992-07-01') s ON l_amt = s.k "
                    + "LEFT JOIN (SELECT * FROM orders_files WHERE o_orderdate < DATE '1995-01-01') o ON s.k = o.o_orderkey";
            for (long limit : new long[] {20_000, 80_000}) {
                try (SqlSession shares = cluster.session(Map.of("ooo.join.broadcast-max-bytes", Long.toString(limit)))) {
                    String plan = explain(shares, "EXPLAIN " + sql);
                    assertFalse(plan.contains("routed by ranges"), plan);
                    assertSameAsDuckDb(shares, sql);
                }
            }
            SqlCluster.rows(s, "DROP TABLE lines_dec");
            SqlCluster.rows(s, "DROP TABLE orders_files");
        }
    }

    /**
     * Lines in files held in order of their order key, declared the first column of a key the
     * writers keep (RELY): a GROUP BY or a window by it runs whole on each node, the nodes reading
     * slices of its values (lines of an order straddle row groups, so a split a slice's bound
     * falls in is read by two nodes, each keeping its part; lines whose key is null are kept by
     * one); joined with themselves on it, each node joins its slice. The same lines in another
     * order, or without the key declared, are grouped and joined as before; every answer DuckDB's.
     */
    @Test
    void aGroupByTheKeyOfFilesInKeyOrderRunsWholeOnEachNodeReadingASlice() throws Exception {
        cluster.oracle().execute("CREATE TABLE keyed_lines AS SELECT CASE WHEN o_orderkey % 97 = 0 THEN NULL ELSE o_orderkey END "
                + "AS l_orderkey, n AS l_n, o_totalprice AS l_price FROM orders, range(7) t(n)");
        List<String> queries = List.of(
                "SELECT l_orderkey, count(*), sum(l_price) FROM %s GROUP BY l_orderkey",
                "SELECT l_orderkey, sum(l_price) FROM %s GROUP BY l_orderkey HAVING sum(l_price) > 400000",
                "SELECT count(*), sum(l_price) FROM %s WHERE l_orderkey IN "
                        + "(SELECT l_orderkey FROM %s GROUP BY l_orderkey HAVING sum(l_price) > 400000)",
                "SELECT l_orderkey, l_n, rank() OVER (PARTITION BY l_orderkey ORDER BY l_n DESC) FROM %s "
                        + "WHERE l_price > 300000 ORDER BY l_orderkey NULLS FIRST, l_n");
        List<String> selfJoins = List.of(
                "SELECT count(*), sum(a.l_price - b.l_price) FROM %s a JOIN %s b ON a.l_orderkey = b.l_orderkey "
                        + "AND a.l_n < b.l_n",
                "SELECT count(*), sum(l_price) FROM %s a WHERE EXISTS (SELECT 1 FROM %s b "
                        + "WHERE b.l_orderkey = a.l_orderkey AND b.l_n <> a.l_n AND b.l_price > 300000)",
                "SELECT count(*), sum(l_price) FROM %s a WHERE NOT EXISTS (SELECT 1 FROM %s b "
                        + "WHERE b.l_orderkey = a.l_orderkey AND b.l_n > a.l_n AND b.l_price > 200000)",
                "SELECT count(*), count(b.l_n) FROM %s a LEFT JOIN %s b ON a.l_orderkey = b.l_orderkey "
                        + "AND b.l_n = a.l_n + 1");
        try (SqlSession s = cluster.session()) {
            for (String order : List.of("sorted", "shuffled")) {
                String table = "keyed_lines_" + order;
                Path file = parquetCopy("keyed_lines", table, order.equals("sorted") ? "l_orderkey NULLS FIRST, l_n" : "l_price, l_n");
                for (boolean declared : new boolean[] {true, false}) {
                    SqlCluster.rows(s, "CREATE EXTERNAL TABLE " + table + " (l_orderkey BIGINT, l_n BIGINT, "
                            + "l_price DECIMAL(15,2)" + (declared ? ", PRIMARY KEY (l_orderkey, l_n) DISABLE NOVALIDATE RELY" : "")
                            + ") STORED AS PARQUET LOCATION '" + file.getParent() + "'");
                    boolean sliced = declared && order.equals("sorted");
                    for (String query : queries) {
                        String sql = query.replace("%s", table);
                        String plan = explain(s, "EXPLAIN " + sql);
                        assertEquals(sliced, plan.contains("(each node reads a slice of the values of l_orderkey)"), plan);
                        assertEquals(sliced, plan.contains(", where assigned] (each node reads a slice"), plan);
                        assertSameAsDuckDb(s, sql);
                    }
                    // joined with itself on the key, too large to send to every node: each node joins its slice
                    try (SqlSession small = cluster.session(Map.of("ooo.join.broadcast-max-bytes", "1000"))) {
                        for (String join : selfJoins) {
                            String sql = join.replace("%s", table);
                            String plan = explain(small, "EXPLAIN " + sql);
                            assertEquals(sliced, plan.contains("co-located (the same slice of default." + table), plan);
                            assertSameAsDuckDb(small, sql);
                        }
                    }
                    SqlCluster.rows(s, "DROP TABLE " + table);
                }
            }
        }
    }

    /**
     * Orders and their lines in files, each held in order of its order key declared RELY: joined
     * on it, too large to send to every node, each node reads a slice of the orders' values and
     * the lines of the same values (the lines' splits cut where the orders' start, an order's
     * lines straddling row groups and slices alike), and joins them there, as over the engine's
     * own tables partitioned by the key; a TPC-H Q21 of them too. Lines in another order are
     * joined as before. Every answer DuckDB's, lines whose key is null and orders without lines
     * among them.
     */
    @Test
    void twoTablesInFilesInOrderOfOneKeyAreJoinedOnEachNodeReadingTheSameSlices() throws Exception {
        cluster.oracle().execute("CREATE TABLE alike_lines AS SELECT CASE WHEN o_orderkey % 97 = 0 THEN NULL ELSE o_orderkey END "
                + "AS l_orderkey, n AS l_n, o_totalprice - 1000 * n AS l_price FROM orders, range(7) t(n) "
                + "WHERE o_orderkey % 11 <> 0");
        cluster.oracle().execute("CREATE TABLE alike_orders AS SELECT o_orderkey, o_totalprice AS o_price, "
                + "o_orderstatus AS o_status FROM orders WHERE o_orderkey % 13 <> 0");
        List<String> joins = List.of(
                "SELECT count(*), sum(l_price - o_price) FROM %l l JOIN %o o ON l.l_orderkey = o.o_orderkey "
                        + "WHERE o_status = 'F'",
                "SELECT o_status, count(*) FROM %o o WHERE EXISTS (SELECT 1 FROM %l l WHERE l.l_orderkey = o.o_orderkey "
                        + "AND l.l_price > 300000) GROUP BY o_status",
                "SELECT count(*), sum(o_price) FROM %o o WHERE NOT EXISTS (SELECT 1 FROM %l l "
                        + "WHERE l.l_orderkey = o.o_orderkey AND l.l_n > 4)",
                "SELECT count(*), count(o.o_orderkey) FROM %l l LEFT JOIN %o o ON l.l_orderkey = o.o_orderkey",
                "SELECT count(*), count(l.l_n) FROM %o o LEFT JOIN %l l ON l.l_orderkey = o.o_orderkey AND l.l_n = 6",
                "SELECT o.o_orderkey, count(*), sum(l_price) FROM %l l JOIN %o o ON l.l_orderkey = o.o_orderkey "
                        + "GROUP BY o.o_orderkey HAVING sum(l_price) > 1000000",
                "SELECT o_status, count(*) FROM %l a JOIN %o o ON a.l_orderkey = o.o_orderkey WHERE o_price > 100000 "
                        + "AND EXISTS (SELECT 1 FROM %l b WHERE b.l_orderkey = a.l_orderkey AND b.l_n <> a.l_n) "
                        + "AND NOT EXISTS (SELECT 1 FROM %l c WHERE c.l_orderkey = a.l_orderkey AND c.l_n > a.l_n "
                        + "AND c.l_price > 250000) GROUP BY o_status");
        String orders = "alike_orders_sorted";
        Path ordersFile = parquetCopy("alike_orders", orders, "o_orderkey");
        try (SqlSession s = cluster.session(Map.of("ooo.join.broadcast-max-bytes", "1000"))) {
            SqlCluster.rows(s, "CREATE EXTERNAL TABLE " + orders + " (o_orderkey BIGINT, o_price DECIMAL(15,2), "
                    + "o_status STRING, PRIMARY KEY (o_orderkey) DISABLE NOVALIDATE RELY) STORED AS PARQUET LOCATION '"
                    + ordersFile.getParent() + "'");
            for (String order : List.of("sorted", "shuffled")) {
                String lines = "alike_lines_" + order;
                Path file = parquetCopy("alike_lines", lines, order.equals("sorted") ? "l_orderkey NULLS FIRST, l_n" : "l_price, l_n");
                SqlCluster.rows(s, "CREATE EXTERNAL TABLE " + lines + " (l_orderkey BIGINT, l_n BIGINT, l_price DECIMAL(15,2), "
                        + "PRIMARY KEY (l_orderkey, l_n) DISABLE NOVALIDATE RELY) STORED AS PARQUET LOCATION '"
                        + file.getParent() + "'");
                boolean alike = order.equals("sorted");
                for (String join : joins) {
                    String sql = join.replace("%l", lines).replace("%o", orders);
                    String plan = explain(s, "EXPLAIN " + sql);
                    assertEquals(alike, plan.matches("(?s).*co-located \\(the same slice of default\\.alike_(orders|lines)_sorted.*"),
                            plan);
                    assertEquals(alike, plan.contains("(each node reads a slice of the values of o_orderkey)")
                            && plan.contains("(each node reads a slice of the values of l_orderkey)"), plan);
                    assertSameAsDuckDb(s, sql);
                }
                SqlCluster.rows(s, "DROP TABLE " + lines);
            }
            SqlCluster.rows(s, "DROP TABLE " + orders);
        }
    }

    /**
     * DuckDB's table {@code rows} written in order of {@code orderBy} to a Parquet file of row
     * groups of 1,000 rows under directory {@code name}, and a view {@code name} of it to answer
     * over: the file.
     */
    private static Path parquetCopy(String rows, String name, String orderBy) throws Exception {
        Path file = Files.createDirectories(incoming.resolve(name)).resolve("part-0.parquet");
        cluster.oracle().execute("COPY (SELECT * FROM " + rows + " ORDER BY " + orderBy + ") TO '" + file
                + "' (FORMAT PARQUET, ROW_GROUP_SIZE 1000)");
        cluster.oracle().execute("CREATE VIEW " + name + " AS SELECT * FROM " + rows);
        return file;
    }

    /** The rows a plan's gather of the one column {@code column} is estimated to bring. */
    private static long rowsGathered(String plan, String column) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("Gather \\[" + column + "\\]\\s+\\(est\\. ([0-9,]+) rows?\\)")
                .matcher(plan);
        assertTrue(m.find(), plan);
        return Long.parseLong(m.group(1).replace(",", ""));
    }

    /**
     * Strings whose row groups' ranges overlap, each group holding values of its own, in a file
     * DuckDB wrote with bloom filters: an equality reads the one group whose filter may hold it.
     * A node keeps the split of a group it read whole so, and reads it from there after, its
     * ranges being all it keeps to skip by.
     */
    @Test
    void bloomFiltersSkipTheRowGroupsWithoutTheValue() throws Exception {
        Path file = Files.createDirectories(incoming.resolve("keys")).resolve("part-0.parquet");
        cluster.oracle().execute("CREATE TABLE keys AS SELECT 'k' || ((range % 500) * 4 + range // 20480) AS s, range AS n "
                + "FROM range(81920)");
        cluster.oracle().execute("COPY keys TO '" + file + "' (FORMAT PARQUET, ROW_GROUP_SIZE 20480)");
        String one = "SELECT count(*), sum(n) FROM keys WHERE s = 'k9'";
        String none = "SELECT count(*) FROM keys WHERE s = 'k2001'"; // no such key, not in k9's group's filter
        try (SqlSession s = cluster.session(Map.of("ooo.files.cache", "false"))) {
            SqlCluster.rows(s, "CREATE EXTERNAL TABLE keys (s STRING, n BIGINT) STORED AS PARQUET LOCATION '"
                    + file.getParent() + "'");
            assertSameAsDuckDb(s, one);
            assertEquals(20_480, rowsReadBy("nodes", explain(s, "EXPLAIN ANALYZE " + one)));
            assertEquals(0, rowsReadBy("nodes", explain(s, "EXPLAIN ANALYZE " + none)));
            assertEquals(81_920, rowsReadBy("nodes", explain(s, "EXPLAIN ANALYZE SELECT count(*) FROM keys WHERE s > 'k9'")));
        }
        try (SqlSession s = cluster.session(Map.of("ooo.files.scheduling", "local"))) {
            explain(s, "EXPLAIN ANALYZE " + one); // k9's group read whole: its split kept on the node assigned it
            String plan = explain(s, "EXPLAIN ANALYZE " + none);
            assertEquals(20_480, rowsReadBy("nodes", plan));
            assertTrue(plan.contains(" KiB from the nodes' cache of files"), plan); // the others' filters read from their files
            assertSameAsDuckDb(s, none);
            SqlCluster.rows(s, "DROP TABLE keys");
        }
    }

    /**
     * An ORC file written with bloom filters of a string and a key column, row groups of 1,000
     * rows: an equality reads the row groups whose statistics and filters may hold it (ORC's
     * search argument), a string between two that are there none.
     */
    @Test
    void orcBloomFiltersSkipTheRowGroupsWithoutTheValue() throws Exception {
        Path file = Files.createDirectories(incoming.resolve("orc_keys")).resolve("part-0.orc");
        var types = List.of(org.oooengine.core.types.DataType.varchar(0), org.oooengine.core.types.DataType.BIGINT);
        var schema = org.oooengine.mapreduce.OrcRows.schema(List.of("s", "n"), types);
        var rows = new org.oooengine.mapreduce.OrcRows(types);
        var conf = new org.apache.hadoop.conf.Configuration();
        try (var w = org.apache.orc.OrcFile.createWriter(new org.apache.hadoop.fs.Path(file.toUri()),
                org.apache.orc.OrcFile.writerOptions(conf).setSchema(schema).bloomFilterColumns("s,n").rowIndexStride(1_000))) {
            var batch = schema.createRowBatch(1_000);
            for (long i = 0; i < 20_000; i++) {
                rows.write(batch, batch.size++, new Object[] {"k" + i, i});
                if (batch.size == batch.getMaxSize()) {
                    w.addRowBatch(batch);
                    batch.reset();
                }
            }
        }
        try (SqlSession s = cluster.session()) {
            SqlCluster.rows(s, "CREATE EXTERNAL TABLE orc_keys (s STRING, n BIGINT) STORED AS ORC LOCATION '"
                    + file.getParent() + "'");
            Object[] found = SqlCluster.rows(s, "SELECT count(*), sum(n) FROM orc_keys WHERE s = 'k12345'").get(0);
            assertEquals(List.of(1L, 12_345L), List.of(((Number) found[0]).longValue(), ((Number) found[1]).longValue()));
            assertEquals(1_000, rowsReadBy("nodes", explain(s, "EXPLAIN ANALYZE SELECT count(*) FROM orc_keys WHERE n = 777")));
            assertTrue(rowsReadBy("nodes", explain(s, "EXPLAIN ANALYZE SELECT count(*) FROM orc_keys WHERE s = 'k12345'")) <= 2_000);
            assertEquals(0, rowsReadBy("nodes", explain(s, "EXPLAIN ANALYZE SELECT count(*) FROM orc_keys WHERE s = 'k12345a'")));
            assertEquals(20_000, rowsReadBy("nodes", explain(s, "EXPLAIN ANALYZE SELECT count(*) FROM orc_keys WHERE s > 'k9'")));
            SqlCluster.rows(s, "DROP TABLE orc_keys");
        }
    }

    /**
     * Whichever way the nodes share the splits out — each its own, stealing the others' not yet
     * started, or all from one queue — and however unevenly they were assigned, every row is read once.
     */
    @Test
    void everySchedulingOfSplitsReadsEveryRowOnce() throws Exception {
        try (SqlSession s = cluster.session()) {
            SqlCluster.rows(s, "CREATE EXTERNAL TABLE orders_sched (" + columns(TpchTable.ORDERS) + ") "
                    + "PARTITIONED BY (o_month DATE) STORED AS PARQUET LOCATION '" + incoming.resolve("orders_by_month") + "'");
            String sql = "SELECT count(*), sum(o_totalprice), count(DISTINCT o_orderkey) FROM orders_sched";
            List<Object[]> expected = cluster.oracle().rows(sql.replace("orders_sched", "orders"));
            for (String pattern : List.of("local", "stealing", "shared")) {
                for (String skew : List.of("", "n1=50")) {
                    SqlCluster.rows(s, "SET ooo.files.scheduling=" + pattern);
                    SqlCluster.rows(s, "SET ooo.files.skew=" + skew);
                    assertNull(OracleComparison.difference(SqlCluster.rows(s, sql), expected, false), pattern + " " + skew);
                }
            }
            // assigned almost all to n1 (n1=50) and read only where assigned: the others read next to nothing
            SqlCluster.rows(s, "SET ooo.files.scheduling=local");
            String local = explain(s, "EXPLAIN ANALYZE SELECT count(*) FROM orders_sched");
            long total = ((Number) expected.get(0)[0]).longValue();
            assertTrue(rowsReadBy("n2", local) + rowsReadBy("n3", local) < total / 10, local);
            assertTrue(explain(s, "EXPLAIN SELECT count(*) FROM orders_sched").contains(", local]"));
            // the same assignment with stealing: the others take n1's splits from the back of its queue,
            // reading more than their own; the whole scan takes milliseconds, so a run in which n1 was
            // through its splits before they asked is tried again
            SqlCluster.rows(s, "SET ooo.files.scheduling=stealing");
            long othersLocal = rowsReadBy("n2", local) + rowsReadBy("n3", local);
            String stolen = "";
            for (int attempt = 0; attempt < 10; attempt++) {
                stolen = explain(s, "EXPLAIN ANALYZE SELECT count(*) FROM orders_sched");
                assertTrue(stolen.contains(String.format(java.util.Locale.ROOT, "nodes read %,d rows", total)), stolen);
                boolean taken = stolen.matches("(?s).*, [0-9,]+ of [0-9,]+ splits taken from other nodes' queues.*");
                // without a line by node the nodes read alike: n2 and n3 took most of n1's splits
                if (taken && (!stolen.contains("(by node:") || rowsReadBy("n2", stolen) + rowsReadBy("n3", stolen) > othersLocal)) {
                    break;
                }
                assertTrue(attempt < 9, "n2 and n3 never took n1's splits: " + stolen);
            }
            SqlException badSkew = assertThrows(SqlException.class, () -> SqlCluster.rows(s, "SET ooo.files.skew=n1"));
            assertTrue(badSkew.getMessage().contains("is not node=factor"), badSkew.getMessage());
            SqlCluster.rows(s, "DROP TABLE orders_sched");
        }
    }

    /**
     * A node reads the columns of the splits it read before from its cache of them, as EXPLAIN
     * ANALYZE tells, answering as the oracle does; {@code SET ooo.files.cache=false} reads the
     * files alone.
     */
    @Test
    void theNodesReadTheSplitsTheyReadBeforeFromTheirCaches() throws Exception {
        try (SqlSession s = cluster.session()) {
            SqlCluster.rows(s, "CREATE EXTERNAL TABLE orders_kept (" + columns(TpchTable.ORDERS) + ") "
                    + "PARTITIONED BY (o_month DATE) STORED AS PARQUET LOCATION '" + incoming.resolve("orders_by_month") + "'");
            SqlCluster.rows(s, "SET ooo.files.scheduling=local"); // each split read by the node it is assigned to
            String sql = "SELECT o_orderpriority, count(*), sum(o_totalprice) FROM orders_kept GROUP BY o_orderpriority";
            List<Object[]> expected = cluster.oracle().rows(sql.replace("orders_kept", "orders"));
            assertNull(OracleComparison.difference(SqlCluster.rows(s, sql), expected, false));
            String again = explain(s, "EXPLAIN ANALYZE " + sql);
            assertTrue(again.matches("(?s).*nodes read [0-9,]+ rows \\(0 B of files; [0-9.]+ [KM]iB from the nodes' "
                    + "cache of files\\).*"), again);
            assertNull(OracleComparison.difference(SqlCluster.rows(s, sql), expected, false));
            SqlCluster.rows(s, "SET ooo.files.cache=false");
            assertTrue(explain(s, "EXPLAIN " + sql).contains(", local, not cached]"));
            String files = explain(s, "EXPLAIN ANALYZE " + sql);
            assertTrue(files.matches("(?s).*nodes read [0-9,]+ rows \\([0-9.]+ [KM]iB of files\\).*"), files);
            assertNull(OracleComparison.difference(SqlCluster.rows(s, sql), expected, false));
            SqlCluster.rows(s, "DROP TABLE orders_kept");
        }
    }

    /**
     * A primary key declared on a table in files is kept and shown, never checked; declared RELY
     * the planner trusts it as Hive's does: the few orders are grouped by customer key before they
     * meet the many customers, whose other columns the key determines (TPC-H Q10's shape), where
     * without it grouping them first is not estimated to pay. A key to be enforced, or a foreign
     * key, is refused by name.
     */
    @Test
    void aPrimaryKeyDeclaredRelyIsTrustedByThePlanner() throws Exception {
        try (SqlSession s = cluster.session()) {
            SqlCluster.rows(s, "CREATE EXTERNAL TABLE orders_k (" + columns(TpchTable.ORDERS) + ") "
                    + "PARTITIONED BY (o_month DATE) STORED AS PARQUET LOCATION '" + incoming.resolve("orders_by_month") + "'");
            for (String rely : List.of("RELY", "NORELY")) {
                SqlCluster.rows(s, "CREATE EXTERNAL TABLE customer_" + rely + " (" + columns(TpchTable.CUSTOMER)
                        + ", CONSTRAINT customer_pk PRIMARY KEY (c_custkey) DISABLE NOVALIDATE " + rely + ") "
                        + "ROW FORMAT DELIMITED FIELDS TERMINATED BY '|' LOCATION '" + incoming.resolve("customers_csv") + "'");
                cluster.oracle().execute("CREATE OR REPLACE VIEW customer_" + rely + " AS SELECT * FROM customer");
            }
            cluster.oracle().execute("CREATE OR REPLACE VIEW orders_k AS SELECT * FROM orders");
            String byCustomer = "SELECT c_custkey, c_name, c_acctbal, count(*), sum(o_totalprice) FROM orders_k "
                    + "JOIN customer_%s ON o_custkey = c_custkey WHERE o_orderstatus = 'F' AND o_orderpriority = '1-URGENT' "
                    + "GROUP BY c_custkey, c_name, c_acctbal";
            String relied = explain(s, "EXPLAIN " + byCustomer.formatted("rely"));
            assertTrue(relied.contains("keys [o_custkey]"), relied);
            String notRelied = explain(s, "EXPLAIN " + byCustomer.formatted("norely"));
            assertFalse(notRelied.contains("keys [o_custkey]"), notRelied);
            for (String rely : List.of("rely", "norely")) {
                assertSameAsDuckDb(s, byCustomer.formatted(rely));
            }

            String ddl = SqlCluster.rows(s, "SHOW CREATE TABLE customer_rely").stream().map(r -> (String) r[0])
                    .collect(Collectors.joining("\n"));
            assertTrue(ddl.contains("CONSTRAINT `customer_pk` PRIMARY KEY (`c_custkey`) DISABLE NOVALIDATE RELY"), ddl);
            String described = SqlCluster.rows(s, "DESCRIBE FORMATTED customer_norely").stream()
                    .map(r -> r[0] + "=" + r[1]).collect(Collectors.joining("\n"));
            assertTrue(described.contains("Column Name:=c_custkey\nRely:=false"), described);

            SqlException enforced = assertThrows(SqlException.class, () -> SqlCluster.rows(s, "CREATE EXTERNAL TABLE c2 "
                    + "(c_custkey BIGINT, PRIMARY KEY (c_custkey) ENABLE) LOCATION '" + incoming.resolve("customers_csv") + "'"));
            assertEquals(SqlException.NOT_SUPPORTED, enforced.sqlState());
            assertTrue(enforced.getMessage().contains("an enforced PRIMARY KEY of table c2"), enforced.getMessage());
            SqlException foreign = assertThrows(SqlException.class, () -> SqlCluster.rows(s, "CREATE EXTERNAL TABLE o2 "
                    + "(o_custkey BIGINT, FOREIGN KEY (o_custkey) REFERENCES customer_rely (c_custkey) DISABLE NOVALIDATE) "
                    + "LOCATION '" + incoming.resolve("customers_csv") + "'"));
            assertTrue(foreign.getMessage().contains("FOREIGN KEY of table o2"), foreign.getMessage());
            for (String t : List.of("orders_k", "customer_rely", "customer_norely")) {
                SqlCluster.rows(s, "DROP TABLE " + t);
            }
        }
    }

    @Test
    void aLocationOrAFileOutsideTheAllowedDirectoriesIsRefused() throws Exception {
        try (SqlSession s = cluster.session()) {
            AccessDeniedException outside = assertThrows(AccessDeniedException.class, () -> SqlCluster.rows(s,
                    "CREATE EXTERNAL TABLE pw (line STRING) LOCATION '/etc'"));
            assertTrue(outside.getMessage().contains("is not under a directory SQL may read files from"),
                    outside.getMessage());
            // a symlink put inside an allowed directory after the table was created is judged when a statement reads it
            Path trap = Files.createDirectories(incoming.resolve("trap"));
            Files.writeString(trap.resolve("ok.txt"), "fine\n");
            SqlCluster.rows(s, "CREATE EXTERNAL TABLE trap (line STRING) LOCATION '" + trap + "'");
            assertEquals(1L, ((Number) SqlCluster.rows(s, "SELECT count(*) FROM trap").get(0)[0]).longValue());
            Files.createSymbolicLink(trap.resolve("passwd"), Path.of("/etc/passwd"));
            AccessDeniedException link = assertThrows(AccessDeniedException.class,
                    () -> SqlCluster.rows(s, "SELECT * FROM trap"));
            assertTrue(link.getMessage().contains("(really /etc/passwd) is not under a directory SQL may read files from"),
                    link.getMessage());
            SqlException db = assertThrows(SqlException.class, () -> SqlCluster.rows(s, "CREATE DATABASE d LOCATION '/etc'"));
            assertEquals(SqlException.NOT_SUPPORTED, db.sqlState());
            assertTrue(db.getMessage().contains("LOCATION of a database"), db.getMessage());
            SqlException header = assertThrows(SqlException.class, () -> SqlCluster.rows(s, "CREATE EXTERNAL TABLE h "
                    + "(a INT) LOCATION '" + trap + "' TBLPROPERTIES ('skip.header.line.count'='1')"));
            assertEquals(SqlException.NOT_SUPPORTED, header.sqlState());
            assertTrue(header.getMessage().contains("'skip.header.line.count'"), header.getMessage());
            SqlException noLocation = assertThrows(SqlException.class,
                    () -> SqlCluster.rows(s, "CREATE EXTERNAL TABLE nowhere (a INT)"));
            assertTrue(noLocation.getMessage().contains("needs a LOCATION"), noLocation.getMessage());
            SqlCluster.rows(s, "DROP TABLE trap");
        }
    }
}
