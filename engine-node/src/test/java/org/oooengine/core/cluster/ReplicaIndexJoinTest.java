package org.oooengine.core.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.oooengine.core.exec.CollectingSink;
import org.oooengine.core.stats.StoreStatistics;
import org.oooengine.core.stats.TableStatistics;
import org.oooengine.core.tpch.JoinQueries;

/**
 * The out-of-order index join on three nodes keeping each partition twice: with every node up a
 * node reads the partitions it holds a copy of itself, and with one node down its fragment runs on
 * the holder of its partition's copy and every probe of its partitions goes there; OL, PL, Q3' and
 * Q8' return DuckDB's rows in every mode either way. A node that answers slowly is found slow by the
 * heartbeats, its partition joined on its copy's holder, and probes to it passed over or hedged to
 * the other holder, with the same rows.
 */
class ReplicaIndexJoinTest {
    private static TpchCluster tpch;

    @BeforeAll
    static void start() throws Exception {
        tpch = TpchCluster.withCopies("ooo-replica-join-test");
    }

    @AfterAll
    static void stop() throws Exception {
        if (tpch != null) {
            tpch.close();
        }
    }

    @Test
    void indexJoinsAnswerWithANodeDown() throws Exception {
        List<JoinQueries.Query> queries = new ArrayList<>();
        for (String name : List.of("OL", "PL", "Q3", "Q8'")) {
            queries.add(tpch.session.query(JoinQueries.shape(name), 0.02));
        }
        List<List<String>> expected = new ArrayList<>();
        for (JoinQueries.Query q : queries) {
            expected.add(tpch.expected(q.spec()));
            assertFalse(expected.get(expected.size() - 1).isEmpty());
        }
        answer(queries, expected);
        tpch.cluster.stop("n2");
        try {
            answer(queries, expected);
            awaitState(tpch.session.serving().health().orElseThrow(), "n2", NodeHealth.State.DOWN);
        } finally {
            tpch.cluster.restart("n2");
        }
    }

    @Test
    void aSlowNodeIsPassedOverAndItsSlowRequestsHedged() throws Exception {
        JoinQueries.Query q = tpch.session.query(JoinQueries.shape("PL"), 0.05);
        List<String> expected = tpch.expected(q.spec());
        tpch.cluster.stop("n2");
        // well above a busy machine's 0.99 quantile of a fast node's answer times, the hedge's wait
        tpch.cluster.restart("n2", Duration.ofMillis(60));
        try {
            NodeHealth health = tpch.session.serving().health().orElseThrow();
            awaitState(health, "n2", NodeHealth.State.SLOW);
            assertEquals(NodeHealth.State.UP, health.state("n1"));
            ClusterSession.JoinRun first = joined(q, expected);
            assertTrue(first.fragments().stream().noneMatch(f -> f.node().equals("n2")),
                    "the slow node's partition is joined on its copy: " + first.fragments());
            long hedged = 0;
            int runs = 0;
            // The first runs teach the nodes their peers' answer times; from then on a request goes to
            // the slow node only in its probe slots, and is hedged. How many runs that takes depends on
            // the machine's load: up to a bound.
            long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
            while (hedged == 0 && (runs < 6 || System.nanoTime() < deadline)) {
                hedged += joined(q, expected).fragments().stream().mapToLong(FragmentStats::hedgedRequests).sum();
                runs++;
            }
            assertTrue(hedged > 0, "a request to the slow node was hedged in " + runs + " runs");
            tpch.session.hedgedRequests(false);
            assertEquals(0, joined(q, expected).fragments().stream().mapToLong(FragmentStats::hedgedRequests).sum());
        } finally {
            tpch.session.hedgedRequests(true);
            tpch.cluster.stop("n2");
            tpch.cluster.restart("n2");
        }
    }

    @Test
    void theStatisticsOfANodeDownAreThoseOfItsPartitionsCopies() {
        Map<String, StoreStatistics> before = tpch.session.statistics(false);
        tpch.cluster.stop("n2");
        try {
            Map<String, StoreStatistics> down = tpch.session.statistics(false);
            assertEquals(before.keySet(), down.keySet());
            for (String table : List.of("orders", "lineitem", "customer")) {
                TableStatistics own = before.get("n2").table(table);
                TableStatistics copied = down.get("n2").table(table);
                assertEquals(own.rows(), copied.rows(), table);
                assertEquals(own.columns().size(), copied.columns().size(), table);
                assertEquals(table, copied.table());
                assertEquals(before.get("n1").table(table), down.get("n1").table(table));
            }
        } finally {
            tpch.cluster.restart("n2");
        }
    }

    @Test
    void aNodeSilentToHeartbeatsServesNothingEvenWithoutHedging() throws Exception {
        // it takes connections but answers 5 s late: a stopped process, as far as the heartbeats tell
        tpch.cluster.stop("n2");
        tpch.cluster.restart("n2", Duration.ofSeconds(5));
        tpch.session.hedgedRequests(false); // a slow node would serve as readily as any other
        try {
            awaitState(tpch.session.serving().health().orElseThrow(), "n2", NodeHealth.State.DOWN);
            tpch.session.serving().probeAgain();
            assertTrue(tpch.session.serving().of("orders", false).stream().noneMatch(s -> s.node().equals("n2")),
                    tpch.session.serving().of("orders", false).toString());
        } finally {
            tpch.session.hedgedRequests(true);
            tpch.cluster.stop("n2");
            tpch.cluster.restart("n2");
        }
    }

    @Test
    void aFragmentWhoseNodeIsLostMidwayRunsAgainOnTheCopy() throws Exception {
        JoinQueries.Query q = tpch.session.query(JoinQueries.shape("OL"), 0.05);
        List<String> expected = tpch.expected(q.spec());
        // n2 holds every answer back 2 s, its fragment's end among them: it is surely running when stopped
        tpch.cluster.stop("n2");
        tpch.cluster.restart("n2", Duration.ofSeconds(2));
        tpch.session.hedgedRequests(false); // or n2, slow, would serve nothing
        tpch.session.serving().probeAgain(); // n2 is up: it serves its partition
        assertEquals("n2", tpch.session.serving().of("orders", false).get(1).node());
        try {
            java.util.concurrent.CompletableFuture<ClusterSession.JoinRun> running =
                    java.util.concurrent.CompletableFuture.supplyAsync(() -> joined(q, expected));
            Thread.sleep(500);
            assertFalse(running.isDone(), "the join waits for n2");
            tpch.cluster.stop("n2");
            ClusterSession.JoinRun run = running.get(60, java.util.concurrent.TimeUnit.SECONDS);
            assertEquals(3, run.fragments().size());
            assertTrue(run.fragments().stream().noneMatch(f -> f.node().equals("n2")), run.fragments().toString());
        } finally {
            tpch.session.hedgedRequests(true);
            tpch.cluster.restart("n2");
        }
    }

    /** Waits until the heartbeats say {@code node} is in {@code state}: within a few intervals. */
    private static void awaitState(NodeHealth health, String node, NodeHealth.State state) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (health.state(node) != state && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertEquals(state, health.state(node), node + ": " + health.nodes());
    }

    private static ClusterSession.JoinRun joined(JoinQueries.Query q, List<String> expected) {
        CollectingSink rows = new CollectingSink();
        ClusterSession.JoinRun run = tpch.session.join(q.spec(), ExecutionMode.OOO, 64, rows);
        assertEquals(expected, tpch.render(q.spec(), rows.rows()), q.spec().toString());
        return run;
    }

    private static void answer(List<JoinQueries.Query> queries, List<List<String>> expected) {
        for (int i = 0; i < queries.size(); i++) {
            JoinQueries.Query q = queries.get(i);
            for (ExecutionMode mode : ExecutionMode.values()) {
                CollectingSink rows = new CollectingSink();
                ClusterSession.JoinRun run = tpch.session.join(q.spec(), mode, 64, rows);
                assertEquals(expected.get(i), tpch.render(q.spec(), rows.rows()), q.spec() + " " + mode);
                assertEquals(3, run.fragments().size(), "a fragment per partition of the outer table");
                assertTrue(run.rows() > 0);
            }
        }
    }
}
