package org.oooengine.cluster.bench.chbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.oooengine.cluster.bench.TimedStatements;
import org.oooengine.cluster.bench.tpcds.Answers;
import org.oooengine.cluster.bench.tpcds.TpcdsQueries;
import org.oooengine.core.cluster.ClusterSession;
import org.oooengine.core.cluster.HtapConfig;
import org.oooengine.core.cluster.TestCluster;
import org.oooengine.core.cluster.TransactionalTables;
import org.oooengine.hive.engine.ClusterSqlEngine;
import org.oooengine.hive.sql.Cancellation;
import org.oooengine.hive.sql.SqlSession;
import org.oooengine.hive.sql.StatementResult;

/**
 * CH-benCHmark on two nodes over one TPC-C warehouse: a run reading the transactional tables and
 * one reading the analytical copies report their phases and keep TPC-C consistent; afterwards,
 * with the terminals stopped and the copies caught up, each of the 22 queries read from the copies
 * (and the seed's three read in the query's transaction) answers as DuckDB over the tables as SQL
 * reads them. A few minutes: a third loading, the rest querying.
 */
class ChBenchTest {
    private static final Duration QUERY_TIMEOUT = Duration.ofSeconds(120);
    /** The nodes' HTAP settings for the modes that set them: the seed's slots of one core, deciding five times a second. */
    private static final HtapConfig NODES = new HtapConfig(HtapConfig.Mode.COPIES, HtapConfig.SEED_SLOTS, 1,
            Duration.ofSeconds(2), org.oooengine.core.htap.HtalPolicy.Parameters.SEED, Duration.ofMillis(200));

    @TempDir
    Path dir;

    @Test
    @SuppressWarnings("unchecked")
    void runsReportTheirPhasesAndEveryQueryAnswersAsDuckDb() throws Exception {
        try (TestCluster cluster = new TestCluster(dir, 2); ClusterSession session = cluster.session();
             ClusterSqlEngine engine = new ClusterSqlEngine(session, dir.resolve("catalog.json"))) {
            Map<String, Object> unified = new ChBench(session.peers(), engine, new ChBench.Options(1, 4, 2,
                    ChBench.Mode.UNIFIED, ChPhase.parse("50:50"), 8, 0, ChQueries.SEED_QUERIES, QUERY_TIMEOUT, false, NODES),
                    line -> { }).run();
            checkReport(unified, "unified", 1); // its queries may still be retrying their conflicts at the phase's end
            assertEquals(1.0, unified.get("freshness"), "unified storage reads the tables themselves");

            Map<String, Object> copies = new ChBench(session.peers(), engine, new ChBench.Options(1, 4, 2,
                    ChBench.Mode.HTAL, ChPhase.parse("70:30,30:70"), 6, 1, ChQueries.SEED_QUERIES, QUERY_TIMEOUT, false,
                    NODES), line -> { }).run();
            checkReport(copies, "htal", 2);
            assertTrue((Double) copies.get("qph") > 0, copies::toString);
            double freshness = (Double) copies.get("freshness");
            assertTrue(freshness > 0 && freshness <= 1, copies::toString);
            assertEquals(1.0, ((Map<?, ?>) copies.get("node_settings")).get("cores_per_node"), copies::toString);
            List<Map<?, ?>> rows = ((List<Map<?, ?>>) copies.get("series")).stream()
                    .filter(row -> row.containsKey("applied")).toList(); // the seconds the copies were sampled in
            assertTrue(!rows.isEmpty(), copies::toString);
            assertTrue(rows.stream().mapToLong(row -> ((Number) row.get("applied")).longValue()).sum() > 0,
                    "the series shows no commit applied to the copies: " + rows);
            assertTrue(rows.stream().allMatch(row -> ((Number) row.get("owed_commits")).longValue() >= 0
                    && ((Number) row.get("delta_keys")).longValue() >= 0
                    && (Double) row.get("longest_query_seconds") < QUERY_TIMEOUT.toSeconds()), rows::toString);
            for (Object phase : (List<?>) copies.get("phases")) {
                Map<?, ?> slots = (Map<?, ?>) ((Map<?, ?>) ((Map<?, ?>) phase).get("roles")).get("node_slots");
                double total = slots.values().stream().mapToDouble(v -> (Double) v).sum();
                assertEquals(16.0, total, 1e-9, "two nodes' 8 slots each, however HTAL moved them: " + phase);
            }

            Map<String, Object> frozen = new ChBench(session.peers(), engine, new ChBench.Options(1, 4, 1,
                    ChBench.Mode.NO_SHIPPING, ChPhase.parse("50:50"), 4, 0, ChQueries.SEED_QUERIES, QUERY_TIMEOUT, false,
                    NODES), line -> { }).run();
            checkReport(frozen, "no-shipping", 1);
            assertTrue((Double) frozen.get("freshness_min") < 1.0, "copies not fed stayed fresh: " + frozen);
            for (TransactionalTables.CopyStatus s : TransactionalTables.copyStatus(session.peers())) {
                assertEquals(HtapConfig.Mode.COPIES, s.htap().mode(), "the nodes did not go back to their mode: " + s);
            }

            IllegalArgumentException other = assertThrows(IllegalArgumentException.class, () -> new ChBench(session.peers(),
                    engine, new ChBench.Options(2, 1, 1, ChBench.Mode.COPIES, ChPhase.parse("50:50"), 1, 0,
                    ChQueries.SEED_QUERIES, QUERY_TIMEOUT, false, NODES), line -> { }).run());
            assertTrue(other.getMessage().contains("--reload"), other.getMessage());

            awaitFreshCopies(session);
            assertEquals(List.of(), wrongAnswers(engine), "queries whose answer is not DuckDB's");
        }
    }

    @SuppressWarnings("unchecked")
    private static void checkReport(Map<String, Object> r, String mode, int phases) {
        assertEquals(mode, r.get("mode"));
        assertEquals(true, r.get("consistency_ok"), r::toString);
        assertTrue((Double) r.get("tps") > 0, r::toString);
        assertEquals(0L, r.get("failed_queries"), r::toString);
        List<Map<String, Object>> p = (List<Map<String, Object>>) r.get("phases");
        assertEquals(phases, p.size());
        for (Map<String, Object> phase : p) {
            assertTrue((Double) phase.get("tps") > 0, phase::toString);
            double abortRate = (Double) phase.get("abort_rate");
            assertTrue(abortRate >= 0 && abortRate < 1, phase::toString);
        }
        assertTrue(!((List<?>) r.get("series")).isEmpty(), "a row per second");
    }

    /** Each query's answer against DuckDB's over a copy of the tables as SQL reads them now. */
    private static List<String> wrongAnswers(ClusterSqlEngine engine) throws Exception {
        List<String> wrong = new ArrayList<>();
        try (SqlSession sql = engine.openSession("test", ChTables.DATABASE, Map.of());
             ChOracle oracle = ChOracle.copyOf(sql)) {
            assertTrue(count(sql, "SELECT count(*) FROM orders") > 30_000, "the terminals added orders");
            for (String reads : List.of("copies", "transactional")) {
                try (TimedStatements statements = new TimedStatements(() -> {
                    SqlSession s = engine.openSession("test", ChTables.DATABASE, Map.of());
                    s.execute("SET ooo.htap.reads=" + reads, new Cancellation());
                    return s;
                }, QUERY_TIMEOUT)) {
                    List<Integer> queries = reads.equals("copies") ? ChQueries.parse("all") : ChQueries.SEED_QUERIES;
                    for (int q : queries) {
                        String text = ChQueries.text(q);
                        String name = ChQueries.name(q) + " (" + reads + ")";
                        try {
                            String difference = Answers.difference(statements.execute(text, true).rows(),
                                    oracle.rows(text), TpcdsQueries.ordered(text));
                            if (difference != null) {
                                wrong.add(name + ": " + difference);
                            }
                        } catch (TimeoutException | RuntimeException e) {
                            wrong.add(name + ": " + e.getMessage());
                        }
                    }
                }
            }
        }
        return wrong;
    }

    private static void awaitFreshCopies(ClusterSession session) throws InterruptedException {
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (TransactionalTables.copyStatus(session.peers()).stream()
                .anyMatch(s -> s.tables().stream().anyMatch(f -> f.rate() < 1.0))) {
            assertTrue(System.nanoTime() < deadline, "the copies caught up within a minute");
            Thread.sleep(50);
        }
    }

    private static long count(SqlSession sql, String text) {
        StatementResult r = sql.execute(text, new Cancellation());
        Iterator<Object[]> rows = r.rows();
        return ((Number) rows.next()[0]).longValue();
    }
}
