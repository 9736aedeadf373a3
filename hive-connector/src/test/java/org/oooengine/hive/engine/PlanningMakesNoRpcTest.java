package org.oooengine.hive.engine;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.oooengine.core.cluster.TpchCluster;
import org.oooengine.core.net.OpCode;
import org.oooengine.core.sql.SqlException;
import org.oooengine.hive.sql.SqlSession;
import org.oooengine.optimizer.cost.Calibration;

/**
 * Planning is pure: with every node refusing all requests but the two a statement's snapshot is
 * taken with (the manifests, {@code PARTITION_STATS}, and the tables' statistics,
 * {@code TABLE_STATISTICS}), the 22 TPC-H queries and an index-join chain still plan and explain —
 * with and without a calibration, under every join method, in both execution modes.
 */
class PlanningMakesNoRpcTest {
    private static final String CHAIN = "SELECT c_custkey, o_orderkey, l_quantity FROM customer "
            + "JOIN orders ON c_custkey = o_custkey JOIN lineitem ON o_orderkey = l_orderkey "
            + "WHERE c_acctbal BETWEEN 1000 AND 1010";
    private static TpchCluster tpch;
    private static ClusterSqlEngine uncalibrated;
    private static ClusterSqlEngine calibrated;

    @BeforeAll
    static void start() throws Exception {
        tpch = new TpchCluster("ooo-pure-planning-test", 2, 0.01, List.of());
        calibration().write(tpch.cluster.dir);
        uncalibrated = new ClusterSqlEngine(tpch.session);
        calibrated = ClusterSqlEngine.open(tpch.cluster.dir, Duration.ofSeconds(10));
        tpch.cluster.answerOnly(EnumSet.of(OpCode.PARTITION_STATS, OpCode.TABLE_STATISTICS));
    }

    @AfterAll
    static void stop() throws Exception {
        try (AutoCloseable t = tpch; AutoCloseable u = uncalibrated; AutoCloseable c = calibrated) {
            if (tpch != null) {
                tpch.cluster.answerAll();
            }
        }
    }

    /** A calibration of two nodes, made up: planning reads it as it would a measured one. */
    private static Calibration calibration() {
        return new Calibration("2026-01-01T00:00:00Z", 2, 8192, 64,
                new Calibration.Disk(1000, Map.of(1, 15_000.0, 256, 60_000.0), 2),
                new Calibration.Network(80, Map.of(1, 9_000.0, 1024, 500_000.0)),
                new Calibration.IndexJoin(0.03, Map.of(1, 9_000.0, 128, 40_000.0), Map.of(1, 60.0, 128, 2.0), 3, 10, 0.9),
                new Calibration.MapReduce(0.25, 0.4, 150, 1.5, 0.4));
    }

    static Stream<Arguments> tpchQueries() {
        List<Arguments> out = new ArrayList<>();
        for (String method : List.of("auto", "index", "hash")) {
            for (int i = 1; i <= 22; i++) {
                out.add(Arguments.of(String.format(Locale.ROOT, "q%02d", i), method));
            }
        }
        return out.stream();
    }

    @ParameterizedTest
    @MethodSource("tpchQueries")
    void everyTpchQueryPlansFromTheSnapshotAlone(String q, String method) throws Exception {
        String sql = TpchQueriesTest.text("queries/tpch/" + q + ".sql");
        for (ClusterSqlEngine engine : List.of(uncalibrated, calibrated)) {
            String plan = explain(engine, Map.of("ooo.join.method", method), sql);
            assertTrue(plan.lines().count() > 2, q + " has a plan\n" + plan);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"daemon", "mapreduce"})
    void anIndexJoinChainIsChosenFromTheStatistics(String mode) throws Exception {
        String plan = explain(calibrated, Map.of("ooo.execution.mode", mode), CHAIN);
        assertTrue(plan.contains("optimizer: "), plan);
        assertTrue(plan.contains("driving rows"), plan);
        assertTrue(plan.contains("considered all ooo-pnlj ") && plan.contains(", all psmj "), plan);
        String fixedRule = explain(uncalibrated, Map.of(), CHAIN);
        assertTrue(fixedRule.contains("the range selects about"), fixedRule);
        assertFalse(fixedRule.contains("optimizer: "), fixedRule);
    }

    /** The nodes do refuse: running what was planned needs them. */
    @Test
    void runningAQueryNeedsTheNodes() {
        SqlException refused = assertThrows(SqlException.class, () -> run(uncalibrated, "SELECT count(*) FROM nation"));
        assertTrue(refused.getMessage().contains("refused"), refused.getMessage());
    }

    private static String explain(ClusterSqlEngine engine, Map<String, String> settings, String sql) throws Exception {
        return String.join("\n", run(engine, settings, "EXPLAIN " + sql).stream().map(r -> (String) r[0]).toList());
    }

    private static List<Object[]> run(ClusterSqlEngine engine, String sql) {
        return run(engine, Map.of(), sql);
    }

    private static List<Object[]> run(ClusterSqlEngine engine, Map<String, String> settings, String sql) {
        try (SqlSession s = engine.openSession("test", "default", settings)) {
            return SqlCluster.rows(s, sql);
        }
    }
}
