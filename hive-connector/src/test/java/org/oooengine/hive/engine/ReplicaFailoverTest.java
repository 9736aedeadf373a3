package org.oooengine.hive.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.oooengine.hive.engine.SqlCluster.rows;

import io.trino.tpch.TpchTable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.oooengine.core.cluster.ClusterManifest;
import org.oooengine.core.cluster.ClusterSpec;
import org.oooengine.hive.sql.SqlSession;

/**
 * Each partition on two of three nodes (its owner and the next): every table is stored twice, the
 * catalog counts each partition once, and with a node down — stopped before a query, or lost in
 * the middle of one — queries over scans, co-located, broadcast and shuffled joins and groups
 * merged on the nodes (TPC-H Q1, Q3, Q9, Q18, Q21 among them) answer as DuckDB does, read from
 * the replicas.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ReplicaFailoverTest {
    @RegisterExtension
    static final SqlCluster cluster = SqlCluster.of("ooo-replica-test", 3, TpchTable.getTables()).replication(2)
            .engine(tpch -> new ClusterSqlEngine(tpch.session, null, null, Map.of(LoadableFiles.ALLOWED_DIRS_SETTING,
                    Files.createDirectories(tpch.dir.resolve("incoming")).toString())));
    /** TPC-H queries of every shape: a scan's groups, joins broadcast and shuffled, IN and EXISTS subqueries. */
    private static final List<String> TPCH = List.of("q01", "q03", "q09", "q18", "q21");

    private static final List<String> QUERIES = List.of(
            // scan and a GROUP BY merged on the nodes
            "SELECT l_returnflag, l_linestatus, count(*), sum(l_quantity), sum(l_extendedprice * (1 - l_discount)) "
                    + "FROM lineitem WHERE l_shipdate <= DATE '1998-09-02' GROUP BY l_returnflag, l_linestatus",
            // lineitem and orders partitioned alike: joined where they lie
            "SELECT o_orderpriority, count(*), sum(l_quantity) FROM orders JOIN lineitem ON l_orderkey = o_orderkey "
                    + "WHERE o_orderdate < DATE '1994-01-01' GROUP BY o_orderpriority",
            // orders shuffled to customer's partitions; nation broadcast
            "SELECT n_name, count(*), sum(o_totalprice) FROM customer JOIN orders ON o_custkey = c_custkey "
                    + "JOIN nation ON c_nationkey = n_nationkey GROUP BY n_name",
            "SELECT count(*) FROM customer WHERE NOT EXISTS (SELECT 1 FROM orders WHERE o_custkey = c_custkey)",
            // groups of many keys merged on the nodes
            "SELECT o_custkey, count(*), max(o_totalprice) FROM orders GROUP BY o_custkey HAVING count(*) > 20");

    /** Only nation-sized sides broadcast: the others shuffle. */
    private static SqlSession session() {
        return cluster.session(Map.of("ooo.join.broadcast-max-bytes", "10000"));
    }

    private static void answersAsDuckDb() throws Exception {
        SqlSession s = session();
        for (String sql : QUERIES) {
            assertNull(OracleComparison.difference(rows(s, sql), cluster.oracle().rows(sql), false), sql);
        }
    }

    @Test
    @Order(1)
    void everyPartitionIsStoredTwiceAndCountedOnce() throws Exception {
        ClusterSpec spec = cluster.tpch().cluster.spec;
        assertEquals(List.of("n2", "n3"), spec.holders("orders", 1));
        assertEquals(List.of("n3", "n1"), spec.holders("orders", 2));
        ClusterManifest manifest = cluster.tpch().session.tables();
        assertEquals(List.of(), manifest.tableNames().stream().filter(ClusterSpec::isReplicaName).toList());
        long orders = ((Number) cluster.oracle().rows("SELECT count(*) FROM orders").get(0)[0]).longValue();
        assertEquals(orders, manifest.table("orders").orElseThrow().meta().rows());
        answersAsDuckDb();
    }

    @Test
    @Order(2)
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void aNodeDownHasItsPartitionsReadFromTheirReplicas() throws Exception {
        cluster.tpch().cluster.stop("n2");
        try {
            answersAsDuckDb();
            for (String q : TPCH) {
                String sql = TpchQueriesTest.text("queries/tpch/" + q + ".sql");
                boolean ordered = sql.toLowerCase(java.util.Locale.ROOT).contains("order by");
                assertNull(OracleComparison.difference(rows(cluster.session(), sql), cluster.oracle().rows(sql), ordered), q);
            }
            // sorted on the nodes, n3 sorting its partition and n2's apart: merged as two runs, not one
            String sorted = "SELECT o_orderkey, o_totalprice FROM orders ORDER BY o_totalprice, o_orderkey";
            assertNull(OracleComparison.difference(rows(cluster.session(), sorted), cluster.oracle().rows(sorted), true),
                    sorted);
            ClusterManifest manifest = cluster.tpch().session.tables();
            long orders = ((Number) cluster.oracle().rows("SELECT count(*) FROM orders").get(0)[0]).longValue();
            assertEquals(orders, manifest.table("orders").orElseThrow().meta().rows(), "counted from the replicas");
            assertTrue(manifest.table("orders").orElseThrow().missing().isEmpty());
            List<String> down = List.of("n1 UP", "n2 DOWN", "n3 UP");
            assertEquals(down, nodeStates(down, 15_000));
        } finally {
            cluster.tpch().cluster.restart("n2");
        }
        answersAsDuckDb();
        List<String> up = List.of("n1 UP", "n2 UP", "n3 UP");
        assertEquals(up, nodeStates(up, 15_000));
    }

    /**
     * sys.nodes's states once they are {@code expected}, or as they are after {@code withinMillis}
     * (a node stopped is DOWN after 3 s of silence, one started again UP at its first answer).
     */
    private static List<String> nodeStates(List<String> expected, long withinMillis) throws Exception {
        long deadline = System.currentTimeMillis() + withinMillis;
        while (true) {
            List<String> states = rows(cluster.session(), "SELECT node, state FROM sys.nodes ORDER BY node").stream()
                    .map(r -> r[0] + " " + r[1]).toList();
            if (states.equals(expected) || System.currentTimeMillis() > deadline) {
                return states;
            }
            Thread.sleep(200);
        }
    }

    /** A query running when a node ends runs again without it, and answers. */
    @Test
    @Order(3)
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void aNodeLostInTheMiddleOfAQueryIsPassedOverAndTheQueryAnswers() throws Exception {
        // every lineitem 125 times shuffled to customer's nodes: some work to interrupt
        String slow = "SELECT count(*), sum(x.l_quantity) FROM customer c JOIN (SELECT l_partkey, l_quantity FROM lineitem "
                + "CROSS JOIN nation CROSS JOIN region) x ON c.c_custkey = x.l_partkey";
        SqlSession s = session();
        long t0 = System.nanoTime();
        assertNull(OracleComparison.difference(rows(s, slow), cluster.oracle().rows(slow), false), slow);
        long undisturbed = System.nanoTime() - t0;
        CompletableFuture<List<Object[]>> running = CompletableFuture.supplyAsync(() -> rows(s, slow));
        Thread.sleep(Math.max(30, undisturbed / 4_000_000)); // a quarter of the way in: its pipelines run
        assertTrue(!running.isDone(), "the query ended before the node could be lost (it took "
                + undisturbed / 1_000_000 + " ms undisturbed)");
        cluster.tpch().cluster.stop("n3");
        try {
            List<Object[]> answer = running.get(150, TimeUnit.SECONDS);
            assertNull(OracleComparison.difference(answer, cluster.oracle().rows(slow), false), slow);
            answersAsDuckDb();
        } finally {
            cluster.tpch().cluster.restart("n3");
        }
    }

    /**
     * INSERT INTO, UPDATE and DELETE write in place on every holder of a row's partition, in one
     * statement: with a node down afterwards the table reads as DuckDB computes it from the same
     * changes, and a write that needs the node down fails naming it, changing nothing. A table that
     * asks for one copy is written on its owners alone, and read there only.
     */
    @Test
    @Order(4)
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void writesInPlaceReachEveryCopy() throws Exception {
        SqlSession s = session();
        String columns = "o_orderkey, o_custkey, o_totalprice, o_comment";
        s.execute("CREATE TABLE copied_orders TBLPROPERTIES ('ooo.primary.key'='o_orderkey') AS SELECT " + columns
                + " FROM orders", new org.oooengine.hive.sql.Cancellation());
        String added = "SELECT o_orderkey + 1000000 AS o_orderkey, o_custkey, o_totalprice, o_comment FROM orders "
                + "WHERE o_orderkey < 20000";
        update(s, "INSERT INTO copied_orders " + added);
        update(s, "UPDATE copied_orders SET o_comment = 'changed' WHERE o_custkey < 100");
        update(s, "DELETE FROM copied_orders WHERE o_orderkey < 30000");
        String expected = "SELECT o_orderkey, o_custkey, o_totalprice, CASE WHEN o_custkey < 100 THEN 'changed' "
                + "ELSE o_comment END AS o_comment FROM (SELECT " + columns + " FROM orders UNION ALL " + added
                + ") x WHERE o_orderkey >= 30000";
        // a table that asks for one copy is written on its owners alone
        s.execute("CREATE TABLE scratch_orders TBLPROPERTIES ('ooo.primary.key'='o_orderkey', 'ooo.replication'='1') AS "
                + "SELECT " + columns + " FROM orders", new org.oooengine.hive.sql.Cancellation());
        update(s, "INSERT INTO scratch_orders " + added);
        update(s, "UPDATE scratch_orders SET o_comment = 'changed' WHERE o_custkey < 100");
        update(s, "DELETE FROM scratch_orders WHERE o_orderkey < 30000");
        assertNull(OracleComparison.difference(rows(s, "SELECT * FROM scratch_orders"), cluster.oracle().rows(expected),
                false));
        for (String node : List.of("n1", "n2", "n3")) {
            List<String> stored = cluster.tpch().session.manifest(node).tables().stream()
                    .map(org.oooengine.core.store.StoreManifest.TableMeta::name).toList();
            assertTrue(stored.contains("scratch_orders") && stored.contains("copied_orders/partition-" + ("n1".equals(node) ? 2
                    : "n2".equals(node) ? 0 : 1)), node + " stores " + stored);
            assertTrue(stored.stream().noneMatch(t -> t.startsWith("scratch_orders/")), node + " stores " + stored);
        }
        cluster.tpch().cluster.stop("n2");
        try {
            org.oooengine.core.sql.SqlException once = org.junit.jupiter.api.Assertions.assertThrows(
                    org.oooengine.core.sql.SqlException.class, () -> rows(s, "SELECT count(*) FROM scratch_orders"));
            assertTrue(once.getMessage().contains("n2"), once.getMessage());
            assertNull(OracleComparison.difference(rows(s, "SELECT * FROM copied_orders"), cluster.oracle().rows(expected),
                    false), "read from n1's and n3's copies");
            org.oooengine.core.sql.SqlException refused = org.junit.jupiter.api.Assertions.assertThrows(
                    org.oooengine.core.sql.SqlException.class, () -> update(s, "DELETE FROM copied_orders"));
            assertTrue(refused.getMessage().contains("n2"), refused.getMessage());
            assertNull(OracleComparison.difference(rows(s, "SELECT * FROM copied_orders"), cluster.oracle().rows(expected),
                    false), "the failed DELETE changed nothing");
        } finally {
            cluster.tpch().cluster.restart("n2");
        }
        update(s, "DROP TABLE scratch_orders"); // kept once: a node's data deleted (order 6) would lose a partition of it
    }

    /**
     * A transactional table keeps each partition on both its holders, written in the same
     * transaction: with a node down its rows are read on their copies (alone and joined), a write
     * that needs the node fails naming it and changes nothing, and the table reads the same once
     * the node is back. A table may keep one copy instead; no other number than the cluster's.
     */
    @Test
    @Order(5)
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void transactionalTablesAreWrittenOnEveryHolder() throws Exception {
        SqlSession s = session();
        String create = "CREATE TABLE %s (id INT, name STRING, balance DECIMAL(12,2), PRIMARY KEY (id) DISABLE NOVALIDATE) "
                + "STORED AS ORC TBLPROPERTIES ('transactional'='true'%s)";
        update(s, String.format(create, "accounts", ""));
        long customers = ((Number) cluster.oracle().rows("SELECT count(*) FROM customer").get(0)[0]).longValue();
        assertEquals(customers, update(s, "INSERT INTO accounts SELECT c_custkey, c_name, c_acctbal FROM customer"),
                "rows counted once, not once per copy");
        update(s, "UPDATE accounts SET balance = balance + 1 WHERE id % 3 = 0");
        update(s, "DELETE FROM accounts WHERE id % 7 = 0");
        String expected = ACCOUNTS;
        String joined = "SELECT o_orderpriority, count(*), sum(balance) FROM accounts JOIN orders ON o_custkey = id "
                + "GROUP BY o_orderpriority";
        String joinedExpected = "SELECT o_orderpriority, count(*), sum(balance) FROM (" + expected + ") a JOIN orders "
                + "ON o_custkey = id GROUP BY o_orderpriority";
        assertNull(OracleComparison.difference(rows(s, "SELECT * FROM accounts"), cluster.oracle().rows(expected), false));
        assertEquals(List.of(), differingCopies("accounts"), "every copy holds its owner's rows");
        cluster.tpch().cluster.stop("n2");
        try {
            assertNull(OracleComparison.difference(rows(s, "SELECT * FROM accounts"), cluster.oracle().rows(expected),
                    false), "read on n1's and n3's copies");
            assertNull(OracleComparison.difference(rows(s, joined), cluster.oracle().rows(joinedExpected), false), joined);
            org.oooengine.core.sql.SqlException refused = org.junit.jupiter.api.Assertions.assertThrows(
                    org.oooengine.core.sql.SqlException.class, () -> update(s, "UPDATE accounts SET balance = 0"));
            assertTrue(refused.getMessage().contains("n2"), refused.getMessage());
            assertNull(OracleComparison.difference(rows(s, "SELECT * FROM accounts"), cluster.oracle().rows(expected),
                    false), "the failed UPDATE changed nothing");
        } finally {
            cluster.tpch().cluster.restart("n2");
        }
        assertNull(OracleComparison.difference(rows(s, "SELECT * FROM accounts"), cluster.oracle().rows(expected), false));
        update(s, String.format(create, "one_copy", ", 'ooo.replication'='1'"));
        assertEquals(customers, update(s, "INSERT INTO one_copy SELECT c_custkey, c_name, c_acctbal FROM customer"));
        assertEquals(List.of(customers), rows(s, "SELECT count(*) FROM one_copy").stream()
                .map(r -> ((Number) r[0]).longValue()).toList());
        org.oooengine.core.sql.SqlException three = org.junit.jupiter.api.Assertions.assertThrows(
                org.oooengine.core.sql.SqlException.class,
                () -> update(s, String.format(create, "three_copies", ", 'ooo.replication'='3'")));
        assertTrue(three.getMessage().contains("keeps 2 copies"), three.getMessage());
        org.oooengine.core.sql.SqlException inFiles = org.junit.jupiter.api.Assertions.assertThrows(
                org.oooengine.core.sql.SqlException.class, () -> update(s, "CREATE EXTERNAL TABLE in_files (id INT) "
                        + "STORED AS TEXTFILE LOCATION '/nowhere' TBLPROPERTIES ('ooo.replication'='2')"));
        assertTrue(inFiles.getMessage().contains("dfs.replication"), inFiles.getMessage());
    }

    /** What {@link #transactionalTablesAreWrittenOnEveryHolder} leaves in table accounts. */
    private static final String ACCOUNTS = "SELECT c_custkey AS id, c_name AS name, CASE WHEN c_custkey % 3 = 0 "
            + "THEN c_acctbal + 1 ELSE c_acctbal END AS balance FROM customer WHERE c_custkey % 7 <> 0";

    /**
     * A node restarted empty is passed over until {@code ooo cluster rebalance}'s repair puts its
     * partitions back — of the transactional tables too, their rows copied in a transaction while
     * writes go on — after which it serves the table alone where the other holders go down in turn.
     */
    @Test
    @Order(6)
    @Timeout(value = 240, unit = TimeUnit.SECONDS)
    void aNodeRestartedEmptyGetsItsTransactionalPartitionsBack() throws Exception {
        SqlSession s = session();
        var nodes = cluster.tpch().cluster;
        nodes.stop("n2");
        org.oooengine.core.storage.Directories.deleteRecursively(nodes.spec.dataDir(nodes.dir, nodes.spec.node("n2")));
        nodes.restart("n2");
        org.oooengine.core.cluster.NodeHealth health = cluster.tpch().session.serving().health().orElseThrow();
        awaitComplete(health, "n2", false);
        cluster.tpch().session.serving().probeAgain();
        assertNull(OracleComparison.difference(rows(s, "SELECT * FROM accounts"), cluster.oracle().rows(ACCOUNTS), false),
                "read on n1's and n3's copies while n2 is empty");

        org.oooengine.core.cluster.ReplicaRepair repair = new org.oooengine.core.cluster.ReplicaRepair(
                cluster.tpch().session.peers(), 0);
        org.oooengine.core.cluster.ReplicaRepair.Plan plan = repair.plan();
        assertTrue(plan.lost().isEmpty(), plan.toString());
        List<String> transactional = plan.copies().stream().filter(c -> c.transactional()
                && c.table().startsWith("accounts#")).map(c -> c.to() + " " + c.partition()).sorted().toList();
        assertEquals(List.of("n2 0", "n2 1"), transactional, "n2's own partition and its copy of n1's: " + plan);
        // a write that goes on meanwhile: refused while n2 lacks the table, else on every holder
        java.util.concurrent.atomic.AtomicBoolean repairing = new java.util.concurrent.atomic.AtomicBoolean(true);
        java.util.concurrent.atomic.AtomicInteger written = new java.util.concurrent.atomic.AtomicInteger();
        CompletableFuture<Void> writes = CompletableFuture.runAsync(() -> {
            while (repairing.get()) {
                try {
                    update(s, "UPDATE accounts SET balance = balance + 0 WHERE id = 1");
                    written.incrementAndGet();
                } catch (org.oooengine.core.sql.SqlException refused) {
                    // n2 lacks the table still
                }
            }
        });
        try {
            repair.run(plan, new org.oooengine.core.cluster.ReplicaRepair.Listener() {
                @Override
                public void tableStarted(String node, String table, long bytes) {
                }

                @Override
                public void copied(long bytes) {
                }

                @Override
                public void tableDone(String node, String table, long rows, long bytes, java.time.Duration took) {
                }
            });
        } finally {
            repairing.set(false);
        }
        writes.get(60, TimeUnit.SECONDS);
        assertTrue(repair.plan().nothingToDo());
        assertEquals(List.of(), differingCopies("accounts"), "the copies put back hold their owners' rows");
        awaitComplete(health, "n2", true);
        update(s, "UPDATE accounts SET balance = balance + 0 WHERE id = 1");
        for (String other : List.of("n1", "n3")) {
            nodes.stop(other);
            try {
                assertNull(OracleComparison.difference(rows(s, "SELECT * FROM accounts"), cluster.oracle().rows(ACCOUNTS),
                        false), "with " + other + " down, after the repair (" + written.get() + " writes meanwhile)");
            } finally {
                nodes.restart(other);
            }
        }
    }

    /**
     * A transactional table a session reads from its analytical copies (each node's, of its own
     * rows) is read in the query's transaction, on the holders of its partitions up, while a node
     * is down: the answer stays DuckDB's.
     */
    @Test
    @Order(7)
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void analyticalCopiesGiveWayToTheTableWhileANodeIsDown() throws Exception {
        SqlSession s = session();
        update(s, "CREATE TABLE htap_accounts (id INT, name STRING, balance DECIMAL(12,2), PRIMARY KEY (id) DISABLE "
                + "NOVALIDATE) STORED AS ORC TBLPROPERTIES ('transactional'='true', 'ooo.htap.copies'='true')");
        update(s, "INSERT INTO htap_accounts SELECT c_custkey, c_name, c_acctbal FROM customer");
        update(s, "SET ooo.htap.reads=copies");
        String query = "SELECT count(*), sum(balance) FROM htap_accounts";
        List<Object[]> expected = cluster.oracle().rows("SELECT count(*), sum(c_acctbal) FROM customer");
        long deadline = System.nanoTime() + java.time.Duration.ofSeconds(60).toNanos();
        while (OracleComparison.difference(rows(s, query), expected, false) != null && System.nanoTime() < deadline) {
            Thread.sleep(100); // the copies apply the insert
        }
        assertNull(OracleComparison.difference(rows(s, query), expected, false), "read from the copies");
        cluster.tpch().cluster.stop("n2");
        try {
            assertNull(OracleComparison.difference(rows(s, query), expected, false), "read on n1's and n3's partitions");
        } finally {
            cluster.tpch().cluster.restart("n2");
        }
        update(s, "DROP TABLE htap_accounts");
    }

    /** The partitions of transactional table {@code table} whose copies differ from their owner's rows. */
    private static List<String> differingCopies(String table) {
        org.oooengine.core.cluster.Peers peers = cluster.tpch().session.peers();
        String stored = org.oooengine.core.cluster.TransactionalTables.tables(peers, "n1").stream()
                .filter(n -> n.startsWith(table + "#") && !ClusterSpec.isReplicaName(n)).findFirst().orElseThrow();
        return org.oooengine.core.cluster.TransactionalTables.differingCopies(peers, stored);
    }

    private static void awaitComplete(org.oooengine.core.cluster.NodeHealth health, String node, boolean complete)
            throws InterruptedException {
        long deadline = System.nanoTime() + java.time.Duration.ofSeconds(20).toNanos();
        while (health.complete(node) != complete && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertEquals(complete, health.complete(node), node + " holds all it should");
    }

    private static long update(SqlSession s, String sql) {
        return s.execute(sql, new org.oooengine.hive.sql.Cancellation()).updateCount();
    }

    /**
     * Tables kept twice are read hedged, also where the nodes write what they read into files: a
     * part whose node is lost while it writes runs again on the other holder of its partition,
     * and only the files of the run whose rows count are committed. With n2 stopped while the
     * nodes write, the INSERT ends and writes every row once.
     */
    @Test
    @Order(8)
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void anInsertIntoFilesWritesEveryRowOnceWhenANodeIsLostWhileItWrites() throws Exception {
        Path dir = Files.createDirectories(cluster.tpch().dir.resolve("incoming").resolve("from_copies"));
        var nodes = cluster.tpch().cluster;
        SqlSession s = cluster.session();
        rows(s, "CREATE EXTERNAL TABLE from_copies (" + ExternalTablesTest.columns(TpchTable.ORDERS) + ") STORED AS ORC "
                + "LOCATION '" + dir + "'");
        String insert = "INSERT OVERWRITE TABLE from_copies " + WarehouseWritesTest.MANY_ROWS;
        long expected = ((Number) cluster.oracle().rows("SELECT count(*) FROM (" + WarehouseWritesTest.MANY_ROWS + ")")
                .get(0)[0]).longValue();
        long t0 = System.nanoTime();
        assertEquals(expected, s.execute(insert, new org.oooengine.hive.sql.Cancellation()).updateCount());
        long undisturbedMillis = (System.nanoTime() - t0) / 1_000_000;
        for (int attempt = 1; ; attempt++) {
            CompletableFuture<Long> overwrite = CompletableFuture.supplyAsync(
                    () -> s.execute(insert, new org.oooengine.hive.sql.Cancellation()).updateCount());
            while (!overwrite.isDone() && WarehouseWritesTest.hidden(dir).isEmpty()) {
                Thread.sleep(1);
            }
            Thread.sleep(Math.max(20, undisturbedMillis / 3)); // the nodes are writing
            boolean interrupting = !overwrite.isDone();
            if (interrupting) {
                nodes.stop("n2");
            }
            try {
                assertEquals(expected, overwrite.get(120, TimeUnit.SECONDS));
            } finally {
                if (interrupting) {
                    nodes.restart("n2");
                }
            }
            if (interrupting) {
                break;
            }
            assertTrue(attempt < 3, "the overwrite ended before a node could be lost, three times (it took "
                    + undisturbedMillis + " ms undisturbed)");
        }
        String summary = "SELECT count(*), sum(o_totalprice), max(o_comment), count(DISTINCT o_orderkey) FROM ";
        assertNull(OracleComparison.difference(rows(s, summary + "from_copies"),
                cluster.oracle().rows(summary + "(" + WarehouseWritesTest.MANY_ROWS + ")"), false));
        assertEquals(List.of(), WarehouseWritesTest.hidden(dir));
    }
}
