package org.oooengine.hive.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.oooengine.hive.engine.SqlCluster.rows;

import io.trino.tpch.TpchTable;
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
    static final SqlCluster cluster = SqlCluster.of("ooo-replica-test", 3, TpchTable.getTables()).replication(2);
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
        // every lineitem 25 times shuffled to customer's nodes: a few seconds of work to interrupt
        String slow = "SELECT count(*), sum(x.l_quantity) FROM customer c JOIN (SELECT l_partkey, l_quantity FROM lineitem "
                + "CROSS JOIN nation) x ON c.c_custkey = x.l_partkey";
        SqlSession s = session();
        long t0 = System.nanoTime();
        assertNull(OracleComparison.difference(rows(s, slow), cluster.oracle().rows(slow), false), slow);
        long undisturbed = System.nanoTime() - t0;
        CompletableFuture<List<Object[]>> running = CompletableFuture.supplyAsync(() -> rows(s, slow));
        Thread.sleep(Math.max(100, undisturbed / 6_000_000)); // some way in: its pipelines run
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
     * changes, and a write that needs the node down fails naming it, changing nothing.
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
        cluster.tpch().cluster.stop("n2");
        try {
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
    }

    private static long update(SqlSession s, String sql) {
        return s.execute(sql, new org.oooengine.hive.sql.Cancellation()).updateCount();
    }
}
