package org.oooengine.hive.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.oooengine.hive.engine.SqlCluster.rows;

import io.trino.tpch.TpchTable;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.oooengine.core.sql.SqlException;
import org.oooengine.hive.sql.Cancellation;
import org.oooengine.hive.sql.SqlSession;

/**
 * Joins whose side moves to the nodes where its partners are: answers equal DuckDB's, and a node
 * lost while rows are being shuffled fails the statement by name within seconds, after which the
 * cluster answers again.
 */
class ShuffleTest {
    /** Every lineitem 625 times (nation twice, broadcast) shuffled to customer's nodes: seconds of work to interrupt. */
    private static final String SLOW = "SELECT count(*) FROM customer c JOIN (SELECT l_partkey FROM lineitem "
            + "CROSS JOIN nation n1 CROSS JOIN nation n2) x ON c.c_custkey = x.l_partkey";
    /** SLOW's work 25 times over (nation a third time): far longer than a cancel may take, even on a loaded machine. */
    private static final String SLOWER = "SELECT count(*) FROM customer c JOIN (SELECT l_partkey FROM lineitem "
            + "CROSS JOIN nation n1 CROSS JOIN nation n2 CROSS JOIN nation n3) x ON c.c_custkey = x.l_partkey";

    @RegisterExtension
    static final SqlCluster cluster = SqlCluster.of("ooo-shuffle-test", 3,
            TpchTable.CUSTOMER, TpchTable.ORDERS, TpchTable.LINE_ITEM, TpchTable.NATION);

    /** A session where only nation-sized sides are broadcast: the others shuffle. */
    private static SqlSession session() {
        return cluster.session(Map.of("ooo.join.broadcast-max-bytes", "10000"));
    }

    @Test
    void joinsWithATablePartitionedOnTheKeyShuffleTheOtherSideAndAnswerAsDuckDb() throws Exception {
        SqlSession s = session();
        for (String sql : List.of(
                // a sum over both sides: no grouping of orders before the join (EagerAggregation)
                "SELECT c_mktsegment, count(*), sum(o_totalprice - c_acctbal) FROM customer JOIN orders ON o_custkey = c_custkey "
                        + "GROUP BY c_mktsegment",
                "SELECT c_count, count(*) AS custdist FROM (SELECT c_custkey, count(o_orderkey) AS c_count FROM customer "
                        + "LEFT OUTER JOIN orders ON c_custkey = o_custkey AND o_comment NOT LIKE '%special%requests%' "
                        + "GROUP BY c_custkey) c_orders GROUP BY c_count",
                "SELECT count(*) FROM customer WHERE NOT EXISTS (SELECT 1 FROM orders WHERE o_custkey = c_custkey)",
                "SELECT count(*), sum(c_acctbal) FROM customer WHERE c_custkey IN (SELECT o_custkey FROM orders "
                        + "WHERE o_totalprice > 300000)",
                "SELECT n_name, sum(l_extendedprice) FROM lineitem, orders, customer, nation WHERE l_orderkey = o_orderkey "
                        + "AND o_custkey = c_custkey AND c_nationkey = n_nationkey AND l_returnflag = 'R' GROUP BY n_name")) {
            String plan = explain(s, "EXPLAIN " + sql);
            assertTrue(plan.contains("build: shuffle #0"), plan);
            assertTrue(plan.contains("to the nodes that own it in customer"), plan);
            List<Object[]> ours = rows(s, sql);
            assertNull(OracleComparison.difference(ours, cluster.oracle().rows(sql), false), sql);
        }
        // a semi join whose kept side moves: orders shuffled to customer's nodes, built there, marked by
        // the customers that match, then grouped on customer's nodes by the key they were shuffled on
        String kept = "SELECT o_custkey, count(*), sum(o_totalprice) FROM orders WHERE o_custkey IN "
                + "(SELECT c_custkey FROM customer WHERE c_acctbal > 1000) GROUP BY o_custkey";
        SqlSession noBroadcast = cluster.session(Map.of("ooo.join.broadcast-max-bytes", "0"));
        String keptPlan = explain(noBroadcast, "EXPLAIN " + kept);
        assertTrue(keptPlan.contains("HashJoin RIGHT_SEMI [c_custkey = o_custkey], build: shuffle #0"), keptPlan);
        assertTrue(keptPlan.contains("(each group on one node)"), keptPlan);
        assertNull(OracleComparison.difference(rows(noBroadcast, kept), cluster.oracle().rows(kept), false), kept);
        // a scalar subquery's row goes to every node, which joins it there
        String scalar = "SELECT c_mktsegment, count(*) FROM customer WHERE c_acctbal > (SELECT avg(c_acctbal) FROM customer) "
                + "GROUP BY c_mktsegment";
        String scalarPlan = explain(s, "EXPLAIN " + scalar);
        assertTrue(scalarPlan.contains("[each node] HashJoin CROSS, build: broadcast #0"), scalarPlan);
        assertNull(OracleComparison.difference(rows(s, scalar), cluster.oracle().rows(scalar), false), scalar);
        // EXPLAIN ANALYZE counts the rows the producers shuffled: every order has a customer
        String analyzed = explain(s, "EXPLAIN ANALYZE SELECT count(*) FROM customer JOIN orders ON o_custkey = c_custkey");
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("Shuffle #0 by o_custkey[^\\n]*\\n *Gather [^\\n]*"
                + "\\[actual rows ([\\d,]+),").matcher(analyzed);
        assertTrue(m.find(), analyzed);
        assertEquals(cluster.tpch().single.table("orders").rows(), Long.parseLong(m.group(1).replace(",", "")), analyzed);
        // and the bytes they sent other nodes
        assertTrue(Pattern.compile("Shuffle #0 by o_custkey[^\\n]*\\n *Gather [^\\n]*, shuffled [\\d.]+ \\w+\\]").matcher(analyzed).find(), analyzed);
    }

    @Test
    void factsGroupedEarlyOnEachNodeMoveAsGroupsToTheirCustomersNodes() throws Exception {
        // orders grouped by customer before meeting customer (EagerAggregation): each node groups the
        // orders it holds and shuffles its groups to customer's nodes, where the join and the first
        // half of the GROUP BY run; customer itself is never gathered
        SqlSession noBroadcast = cluster.session(Map.of("ooo.join.broadcast-max-bytes", "0"));
        String sql = "SELECT c_mktsegment, count(*), sum(o_totalprice), min(o_orderdate), count(o_clerk) FROM customer "
                + "JOIN orders ON o_custkey = c_custkey GROUP BY c_mktsegment";
        String plan = planMatching(noBroadcast, sql, "\\[each node\\] Aggregate[^\\n]*o_custkey");
        assertTrue(plan.contains("to the nodes that own it in customer"), plan);
        assertFalse(Pattern.compile("Scan customer(?![^\\n]*\\[each node\\])").matcher(plan).find(), plan);
        assertNull(OracleComparison.difference(rows(noBroadcast, sql), cluster.oracle().rows(sql), false), sql);
    }

    /**
     * A LEFT join's padded side grouped by its join key before the join (EagerAggregation): each
     * node counts the orders it holds per customer and shuffles its groups to the customers'
     * nodes. A customer without orders counts 0 and sums NULL, a group key from the padded side is
     * NULL for it, and count(*), which counts the padded row, keeps the join as it is; grouped
     * on the kept side, each group meets its customer or none as its orders did: all as DuckDB.
     */
    @Test
    void factsOfALeftJoinGroupedEarlyAnswerAsDuckDb() throws Exception {
        SqlSession noBroadcast = cluster.session(Map.of("ooo.join.broadcast-max-bytes", "0"));
        String perCustomer = "SELECT c_custkey, count(o_orderkey), sum(o_totalprice), min(o_orderdate) FROM customer "
                + "LEFT JOIN orders ON c_custkey = o_custkey AND o_orderpriority <> '1-URGENT' GROUP BY c_custkey";
        String plan = planMatching(noBroadcast, perCustomer, "\\[each node\\] Aggregate keys \\[o_custkey\\]");
        assertTrue(plan.contains("coalesce(sum(partial count(o_orderkey)), 0)"), plan);
        String kept = "SELECT o_orderstatus, count(*), sum(o_totalprice) FROM orders LEFT JOIN customer "
                + "ON o_custkey = c_custkey AND c_acctbal > 0 GROUP BY o_orderstatus";
        planMatching(noBroadcast, kept, "\\[each node\\] Aggregate keys \\[o_custkey, o_orderstatus\\]");
        for (String sql : List.of(perCustomer,
                "SELECT c_mktsegment, o_orderstatus, count(o_clerk), max(o_totalprice) FROM customer LEFT JOIN orders "
                        + "ON c_custkey = o_custkey AND o_totalprice > 300000 GROUP BY c_mktsegment, o_orderstatus",
                "SELECT c_nationkey, count(*), count(o_orderkey) FROM customer LEFT JOIN orders ON c_custkey = o_custkey "
                        + "AND o_orderstatus = 'P' GROUP BY c_nationkey",
                // the kept side grouped: each order's group meets its customer, or none, as each order did
                "SELECT o_orderstatus, count(*), sum(o_totalprice), count(c_name) FROM orders LEFT JOIN customer "
                        + "ON o_custkey = c_custkey AND c_acctbal > 0 GROUP BY o_orderstatus",
                kept)) {
            assertNull(OracleComparison.difference(rows(noBroadcast, sql), cluster.oracle().rows(sql), false), sql);
        }
    }

    /** Slow joins that move one side to the other's nodes, or both sides by key, and how EXPLAIN shows it. */
    static Stream<Arguments> slowShuffles() {
        return Stream.of(Arguments.of(SLOW, "build: shuffle #0"),
                Arguments.of("SELECT count(*) FROM orders o JOIN (SELECT l_partkey FROM lineitem CROSS JOIN nation n1 "
                        + "CROSS JOIN nation n2) x ON o.o_custkey = x.l_partkey", "Shuffle build rows by"));
    }

    @ParameterizedTest
    @MethodSource("slowShuffles")
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void aNodeLostDuringAShuffleFailsTheStatementByNameAndTheClusterAnswersAgain(String slow, String shown) throws Exception {
        SqlSession s = session();
        assertTrue(explain(s, "EXPLAIN " + slow).contains(shown), explain(s, "EXPLAIN " + slow));
        CompletableFuture<List<Object[]>> running = CompletableFuture.supplyAsync(() -> rows(s, slow));
        awaitPipelines(running);
        Thread.sleep(1000); // into the shuffle: a loaded machine only makes it last longer
        assertTrue(!running.isDone(), "the shuffle ended before the node could be lost");
        long t0 = System.nanoTime();
        cluster.tpch().cluster.stop("n2");
        try {
            running.get(60, TimeUnit.SECONDS);
            fail("a statement whose node was lost returned rows");
        } catch (ExecutionException e) {
            SqlException cause = (SqlException) e.getCause();
            assertTrue(cause.getMessage().contains("n2"), cause.getMessage());
            assertEquals(SqlException.NODE_FAILURE, cause.sqlState(), cause.getMessage());
        } finally {
            cluster.tpch().cluster.restart("n2");
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        assertTrue(seconds < 30, "failed after " + seconds + " s");
        String sql = "SELECT c_mktsegment, count(*) FROM customer JOIN orders ON o_custkey = c_custkey GROUP BY c_mktsegment";
        assertNull(OracleComparison.difference(rows(session(), sql), cluster.oracle().rows(sql), false), sql);
    }

    /**
     * Cancelled, the statement fails as cancelled and its pipelines end on every node, long before
     * its work could have. The 10 s allowed are over ten times what a quiet machine takes (well
     * under a second), so that the test holds on a loaded machine; how fast a cancel stops the
     * nodes is a latency for a benchmark to measure, not this test.
     */
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void aCancelledStatementStopsItsWorkOnEveryNode() throws Exception {
        SqlSession s = session();
        Cancellation cancel = new Cancellation();
        CompletableFuture<Void> running = CompletableFuture.runAsync(() ->
                s.execute(SLOWER, cancel).rows().forEachRemaining(r -> { }));
        awaitPipelines(running);
        assertTrue(!running.isDone(), "the statement ended before it could be cancelled");
        long t0 = System.nanoTime();
        cancel.cancel();
        try {
            running.get(30, TimeUnit.SECONDS);
            fail("a cancelled statement returned");
        } catch (ExecutionException e) {
            assertEquals(SqlException.CANCELLED, ((SqlException) e.getCause()).sqlState(), e.getCause().getMessage());
        }
        while (pipelinesRunning() > 0 && System.nanoTime() - t0 < 10_000_000_000L) {
            Thread.sleep(20);
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        assertEquals(0, pipelinesRunning(), "pipelines still running " + seconds + " s after the cancel");
    }

    /** Waits until the statement's pipelines run on the nodes (or it has ended). */
    private static void awaitPipelines(CompletableFuture<?> running) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (pipelinesRunning() == 0 && !running.isDone()) {
            assertTrue(System.nanoTime() < deadline, "no pipeline runs on the nodes 60 s after the statement started");
            Thread.sleep(20);
        }
    }

    private static int pipelinesRunning() {
        return cluster.tpch().session.stats().values().stream().mapToInt(n -> n.get("pipelinesRunning").asInt()).sum();
    }

    /** EXPLAIN of {@code sql}, which must show a match of {@code regex}. */
    private static String planMatching(SqlSession s, String sql, String regex) {
        String plan = explain(s, "EXPLAIN " + sql);
        assertTrue(Pattern.compile(regex).matcher(plan).find(), plan);
        return plan;
    }

    private static String explain(SqlSession s, String sql) {
        StringBuilder out = new StringBuilder();
        rows(s, sql).forEach(r -> out.append(r[0]).append('\n'));
        return out.toString();
    }
}
