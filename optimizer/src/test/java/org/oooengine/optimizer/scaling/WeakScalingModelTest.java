package org.oooengine.optimizer.scaling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.oooengine.core.cluster.TpchCluster;
import org.oooengine.optimizer.JoinOptimizer;
import org.oooengine.optimizer.cost.Calibration;
import org.oooengine.optimizer.cost.CostModel;
import org.oooengine.optimizer.cost.TableFacts;
import org.oooengine.optimizer.plan.JoinMethod;

/**
 * The weak-scaling model on the statistics of a one-node TPC-H store at SF 0.01 and a fixed
 * one-node calibration: one node is the planner's own estimate; time grows with the node count
 * and scalability never exceeds one; each term that grows with N does.
 */
class WeakScalingModelTest {
    private static final Set<JoinMethod> AUTO = EnumSet.of(JoinMethod.OOO_PNLJ, JoinMethod.PSMJ);
    private static final List<Integer> NODES = List.of(1, 2, 4, 8, 16, 32, 64, 128);
    private static TpchCluster tpch;
    private static Map<String, TableFacts> facts;

    /** Figures of the kind {@code ooo calibrate --cluster} measures on one node of a 2-core, 1-disk machine. */
    static Calibration oneNode() {
        return new Calibration("2026-01-01T00:00:00Z", 1, 8192, 8192,
                new Calibration.Disk(800, Map.of(1, 5_000.0, 4, 13_000.0, 16, 50_000.0, 64, 86_000.0, 256, 85_000.0), 1),
                new Calibration.Network(100, Map.of(1, 9_000.0, 16, 70_000.0, 128, 230_000.0, 1024, 560_000.0)),
                new Calibration.IndexJoin(0.004, Map.of(1, 4_400.0, 128, 30_000.0), Map.of(1, 60.0, 128, 2.0), 3, 10, 0.9),
                new Calibration.MapReduce(0.4, 0.47, 110, 5.5, 1.6));
    }

    @BeforeAll
    static void start() throws Exception {
        tpch = new TpchCluster("ooo-scaling-test", 1, 0.01, List.of());
        facts = TableFacts.of(tpch.session);
    }

    @AfterAll
    static void stop() throws Exception {
        if (tpch != null) {
            tpch.close();
        }
    }

    private static WeakScalingModel model(double sfPerNode, WeakScalingModel.Settings settings) {
        return new WeakScalingModel(oneNode(), ScaledCalibration.Growth.NONE, facts, 0.01, sfPerNode, settings);
    }

    private static final WeakScalingModel.Settings ON_NODES = new WeakScalingModel.Settings(0.05, 1.25e9, false, 0);

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"OL", "PL", "Q3", "Q8"})
    void oneNodeIsTheCostModelsOwnEstimate(String query) {
        WeakScalingModel m = model(0.01, ON_NODES);
        Plan1 expected = new Plan1(new JoinOptimizer(new CostModel(oneNode()), facts)
                .optimize(m.graph(query, 0.01, facts), AUTO).estimatedSeconds());
        double predicted = m.join(query, 0.01, 1, 1, AUTO).seconds();
        assertEquals(expected.seconds(), predicted, expected.seconds() * 1e-9);
    }

    private record Plan1(double seconds) {
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"OL", "PL", "Q3", "Q8"})
    void timeGrowsWithNodesAndScalabilityStaysAtMostOne(String query) {
        for (boolean gather : List.of(true, false)) {
            for (Set<JoinMethod> methods : List.of(AUTO, EnumSet.of(JoinMethod.OOO_PNLJ), EnumSet.of(JoinMethod.PSMJ))) {
                WeakScalingModel m = model(1, new WeakScalingModel.Settings(0.05, 1.25e9, gather, 0));
                double previous = 0;
                for (int n : NODES) {
                    double t = m.join(query, 0.0001, n, n, methods).seconds();
                    assertTrue(t >= previous * (1 - 1e-9), query + " " + methods + " at " + n + ": " + t + " < " + previous);
                    previous = t;
                }
            }
        }
    }

    @Test
    void remoteProbesGrowWithTheShareOfOtherNodes() {
        // PL's probes of lineitem leave their node (N-1)/N of the time: 0 on one node, half on two
        WeakScalingModel m = model(1, ON_NODES);
        Set<JoinMethod> ooo = EnumSet.of(JoinMethod.OOO_PNLJ);
        double one = m.join("PL", 0.001, 1, 1, ooo).nodeWork();
        double two = m.join("PL", 0.001, 2, 2, ooo).nodeWork();
        double many = m.join("PL", 0.001, 128, 128, ooo).nodeWork();
        assertTrue(two > one && many > two, one + " " + two + " " + many);
        // OL is co-partitioned: its per-node work does not grow (beyond the inner pages of bigger trees)
        double ol1 = m.join("OL", 0.001, 1, 1, ooo).nodeWork();
        double ol128 = m.join("OL", 0.001, 128, 128, ooo).nodeWork();
        assertEquals(ol1, ol128, ol1 * 0.25);
    }

    @Test
    void aBroadcastSideGrowsWithTheNodesUntilAShuffleMovesLess() {
        WeakScalingModel m = model(0.01, ON_NODES);
        double previous = 0;
        String previousPlan = null;
        boolean switched = false;
        for (int n : NODES) {
            WeakScalingModel.Point p = m.sql(3, 1.0, 0.01, n, n);
            if (n == 1) {
                assertEquals(0, p.exchange());
                continue;
            }
            if (p.plan().equals("customers broadcast")) {
                assertTrue(p.exchange() > previous, "a broadcast grows with N: " + p);
                assertTrue(!switched, "once the shuffle moves less it stays cheaper");
            } else {
                switched |= "customers broadcast".equals(previousPlan);
            }
            previous = p.exchange();
            previousPlan = p.plan();
        }
        assertTrue(switched, "at 128 nodes the orders shuffle moves fewer rows than broadcasting every customer");
        // Q1 exchanges nothing: only its partial aggregates reach the coordinator
        assertEquals(0, m.sql(1, 1.0, 0.01, 128, 128).exchange());
    }

    @Test
    void sqlQueriesScaleFromTheirMeasuredOneNodeTime() {
        WeakScalingModel m = model(0.02, ON_NODES);
        WeakScalingModel.Point one = m.sql(1, 2.004, 0.01, 1, 1);
        assertEquals(0.004 + 2 * 2.0, one.seconds(), 1e-9); // dispatch + twice the data
        double previous = 0;
        for (int n : NODES) {
            double t = m.sql(1, 2.004, 0.01, n, n).seconds();
            assertTrue(t >= previous);
            previous = t;
        }
        // on one host, N nodes share it: N times the work
        assertEquals(4 * one.nodeWork(), m.sql(1, 2.004, 0.01, 4, 1).nodeWork(), 1e-9);
    }

    @Test
    void nodesSharingAHostCompeteForItsCoresWithTheCpuTheyNeed() {
        WeakScalingModel m = model(0.02, ON_NODES);
        // one node took 2.004 s of wall time and 2.4 s of CPU on a 2-core machine: 1.2 cores busy
        var run = new WeakScalingModel.OneNodeRun(2.004, 2.4, 2, 0.01);
        double alone = m.sql(1, run, 1, 1).nodeWork();
        assertEquals(4.0, alone, 1e-9);
        assertEquals(alone, m.sql(1, run, 8, 8).nodeWork(), 1e-9, "a host of its own per node: as alone");
        assertEquals(alone, m.sql(1, run, 1, 1).nodeWork(), 1e-9);
        // two nodes on one host need 2 x 4.8 CPU-s over 2 cores: 4.8 s, more than one alone
        assertEquals(4.8, m.sql(1, run, 2, 1).nodeWork(), 1e-9);
        assertEquals(8 * 4.8 / 2, m.sql(1, run, 8, 1).nodeWork(), 1e-9);
        // a node that leaves most cores idle: two fit beside each other at one node's time
        var light = new WeakScalingModel.OneNodeRun(2.004, 0.5, 2, 0.01);
        assertEquals(alone, m.sql(1, light, 2, 1).nodeWork(), 1e-9);
        // without CPU time, one node is taken to keep its host busy
        assertEquals(4 * alone, m.sql(1, WeakScalingModel.OneNodeRun.wallTimeOnly(2.004, 0.01), 4, 1).nodeWork(), 1e-9);
    }

    @Test
    void stragglersAreTheExpectedMaximumOfTheNodes() {
        assertEquals(1, Stragglers.factor(1, 0.1), 0);
        assertEquals(0.0, Stragglers.inverseNormal(0.5), 1e-9);
        assertEquals(1.959964, Stragglers.inverseNormal(0.975), 1e-5);
        assertEquals(1.029, Stragglers.expectedMaxOfNormals(4), 0.03);   // exact: 1.0294 (Blom: 1.049)
        assertEquals(2.604, Stragglers.expectedMaxOfNormals(128), 0.05); // exact: 2.604
        double previous = 1;
        for (int n : NODES) {
            double f = Stragglers.factor(n, 0.05);
            assertTrue(f >= previous);
            previous = f;
        }
    }

    @Test
    void aCalibrationCarriedToItsOwnSizeIsItself() {
        Calibration c = oneNode();
        assertEquals(c, ScaledCalibration.to(c, 1, 1, ScaledCalibration.Growth.NONE));
        // more hosts: whole-cluster rates multiply, wall time per unit divides; the device's curve stays
        Calibration eight = ScaledCalibration.to(c, 8, 8, new ScaledCalibration.Growth(0.001, 0.01, 0.02));
        assertEquals(8 * 30_000.0, eight.indexJoin().readsPerSecond(128), 1e-6);
        assertEquals(3 / 8.0, eight.indexJoin().warmRowMicros(), 1e-12);
        assertEquals(c.disk().randomIops(), eight.disk().randomIops());
        assertEquals(8 * 85_000.0, eight.disk().clusterIops(8 * 256, 8), 1e-6);
        assertEquals(0.004 + 7 * 0.001, eight.indexJoin().dispatchSeconds(), 1e-12);
        assertEquals(0.47 + 7 * 0.02, eight.mapReduce().stageStartupSeconds(), 1e-12);
        // eight nodes on the one host: its rates stay, the device is shared by all eight
        Calibration local = ScaledCalibration.to(c, 8, 1, ScaledCalibration.Growth.NONE);
        assertEquals(30_000.0, local.indexJoin().readsPerSecond(128), 1e-6);
        assertEquals(85_000.0, local.disk().clusterIops(8 * 256, 8), 1e-6);
    }

    @Test
    void growthIsFittedOnCalibrationsOfSeveralSizes() {
        Calibration one = oneNode();
        Calibration four = ScaledCalibration.to(one, 4, 1, new ScaledCalibration.Growth(0.002, 0.1, 0.05));
        ScaledCalibration.Growth g = ScaledCalibration.Growth.fit(List.of(one, four));
        assertEquals(0.002, g.dispatchPerNode(), 1e-12);
        assertEquals(0.1, g.jobStartupPerNode(), 1e-12);
        assertEquals(0.05, g.stageStartupPerNode(), 1e-12);
        assertEquals(ScaledCalibration.Growth.NONE, ScaledCalibration.Growth.fit(List.of(one)));
    }

    @Test
    void scaledTablesGrowTheirKeysButNotTheirSmallDomains() {
        TableFacts customer = facts.get("customer");
        TableFacts big = customer.scaledBy(100);
        assertEquals(customer.rows() * 100, big.rows(), 1);
        assertEquals(customer.distinct("c_custkey") * 100, big.distinct("c_custkey"), 1);
        assertEquals(customer.distinct("c_nationkey"), big.distinct("c_nationkey"), 0);
        TableFacts orders = facts.get("orders");
        assertEquals(orders.distinct("o_custkey") * 100, orders.scaledBy(100).distinct("o_custkey"), 1e-6);
    }
}
