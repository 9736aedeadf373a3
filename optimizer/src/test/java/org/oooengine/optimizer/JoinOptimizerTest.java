package org.oooengine.optimizer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.trino.tpch.TpchTable;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.oooengine.core.cluster.TpchCluster;
import org.oooengine.core.exec.JoinSpec;
import org.oooengine.core.tpch.JoinQueries;
import org.oooengine.optimizer.cost.Calibration;
import org.oooengine.optimizer.cost.CostModel;
import org.oooengine.optimizer.cost.TableFacts;
import org.oooengine.optimizer.history.CalibrationRefit;
import org.oooengine.optimizer.history.JoinRun;
import org.oooengine.optimizer.history.RefitFigure;
import org.oooengine.optimizer.plan.JoinGraph;
import org.oooengine.optimizer.plan.JoinMethod;
import org.oooengine.optimizer.plan.Plan;
import org.oooengine.optimizer.plan.PlanNode;

/**
 * The join-order search on the statistics of a three-node TPC-H cluster and a fixed calibration
 * (figures of a small 4-node machine): the search's plan is the cheapest of every plan the
 * executors can run, found by enumerating them all; hand-checked orders and switches; plans valid
 * and left-deep; estimates monotone in selectivity.
 */
class JoinOptimizerTest {
    private static TpchCluster tpch;
    private static JoinOptimizer optimizer;

    /** Figures of the kind {@code ooo calibrate --cluster} measures on a 2-core, 1-disk machine with 4 nodes. */
    static Calibration reference() {
        return reference(8192);
    }

    static Calibration reference(long bufferPoolPages) {
        return new Calibration("2026-01-01T00:00:00Z", 4, 8192, bufferPoolPages,
                new Calibration.Disk(1400, Map.of(1, 17_000.0, 4, 30_000.0, 16, 49_000.0, 64, 57_000.0, 256, 60_000.0), 4),
                new Calibration.Network(80, Map.of(1, 9_000.0, 16, 70_000.0, 128, 230_000.0, 1024, 560_000.0)),
                new Calibration.IndexJoin(0.03, Map.of(1, 9_000.0, 128, 40_000.0), Map.of(1, 60.0, 128, 2.0), 3, 10, 0.9),
                new Calibration.MapReduce(0.25, 0.4, 150, 1.5, 0.4));
    }

    @BeforeAll
    static void start() throws Exception {
        tpch = new TpchCluster("ooo-optimizer-test", 3, 0.01, List.of(TpchTable.ORDERS, TpchTable.LINE_ITEM,
                TpchTable.PART, TpchTable.CUSTOMER, TpchTable.NATION, TpchTable.REGION, TpchTable.SUPPLIER));
        optimizer = new JoinOptimizer(new CostModel(reference()), TableFacts.of(tpch.session));
    }

    @AfterAll
    static void stop() throws Exception {
        if (tpch != null) {
            tpch.close();
        }
    }

    private static JoinGraph graph(String query, double selectivity) {
        return JoinGraph.of(query, tpch.session.query(JoinQueries.shape(query), selectivity).spec());
    }

    @ParameterizedTest(name = "{0} at {1}")
    @CsvSource({"Q3, 0.001", "Q3, 0.5", "ONLC, 0.01", "ONLC, 1", "Q8, 0.0005", "Q8, 0.05", "Q8, 1"})
    void theSearchFindsTheCheapestOfEveryRunnablePlan(String query, double selectivity) {
        JoinGraph g = graph(query, selectivity);
        for (Set<JoinMethod> allowed : List.of(EnumSet.of(JoinMethod.OOO_PNLJ, JoinMethod.PSMJ),
                EnumSet.of(JoinMethod.INORDER_PNLJ, JoinMethod.PSMJ), EnumSet.of(JoinMethod.PSMJ))) {
            Plan best = optimizer.optimize(g, allowed);
            double cheapest = Double.MAX_VALUE;
            int runnable = 0;
            List<String> others = g.aliases().subList(1, g.aliases().size());
            for (List<String> order : permutations(others)) {
                for (List<JoinMethod> methods : indexJoinsThenPsmj(others.size(), allowed)) {
                    Plan p = optimizer.evaluate(g, order, methods);
                    if (p != null) {
                        runnable++;
                        cheapest = Math.min(cheapest, p.estimatedSeconds());
                    }
                }
            }
            assertTrue(runnable > 0);
            assertEquals(cheapest, best.estimatedSeconds(), cheapest * 1e-9, query + " " + allowed + ": " + best.chosen());
        }
    }

    @Test
    void probesThatDoNotMultiplyRowsGoFirst() {
        // ONLC: each order has one customer but about four lineitems; probing customers before the
        // lineitems multiply the rows probes once per order instead of once per lineitem. (Out of
        // order, the extra probes of cached customers can hide behind the reads of an I/O-bound
        // pipeline, so there either order may be as fast; in order and by sort-merge they add up.)
        for (Set<JoinMethod> allowed : List.of(EnumSet.of(JoinMethod.INORDER_PNLJ), EnumSet.of(JoinMethod.PSMJ))) {
            Plan p = optimizer.optimize(graph("ONLC", 0.01), allowed);
            assertEquals(List.of("customer", "lineitem"), p.joins().stream().map(PlanNode.Join::alias).toList(),
                    allowed.toString());
        }
    }

    @Test
    void selectiveJoinsGoByIndexAndWideOnesBySortMerge() {
        // buffer pools far smaller than the tables, as on a cluster holding real data sizes
        JoinOptimizer small = new JoinOptimizer(new CostModel(reference(16)), TableFacts.of(tpch.session));
        assertEquals("ooo-pnlj", small.optimize(graph("PL", 0.001)).chosen());
        assertEquals("psmj", small.optimize(graph("PL", 1)).chosen());
        assertTrue(small.optimize(graph("Q8", 0.001)).allIndexJoins());
        // every part: the wide joins after lineitem go by sort-merge (at SF 0.01 its few first joins may stay by index)
        Plan wide = small.optimize(graph("Q8", 1));
        assertTrue(wide.joins().get(wide.joins().size() - 1).method() == JoinMethod.PSMJ, () -> Explain.text(wide));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"Q3", "Q8"})
    void plansAreLeftDeepAndRunnable(String query) {
        JoinGraph g = graph(query, 0.01);
        List<Plan> all = new ArrayList<>(optimizer.candidates(g, EnumSet.allOf(JoinMethod.class)));
        assertTrue(all.size() >= 3, "index-join, hybrid and PSMJ plans are all kept: " + all.size());
        Map<String, TableFacts> facts = TableFacts.of(tpch.session);
        for (Plan p : all) {
            JoinSpec spec = p.spec(); // validates: every probe joins on an alias joined before it
            assertEquals(g.tables().size() - 1, p.joins().size());
            assertEquals(Set.copyOf(g.aliases()), Set.copyOf(spec.aliases()));
            PlanNode left = p.scan();
            boolean sortMergeSeen = false;
            for (PlanNode.Join j : p.joins()) {
                assertTrue(j.left() == left, "left-deep: each join's left input is the join before it");
                left = j;
                sortMergeSeen |= j.method() == JoinMethod.PSMJ;
                if (j.method().indexJoin()) {
                    assertTrue(!sortMergeSeen, "index joins run before any PSMJ job");
                    assertTrue(facts.get(j.table()).probeable(j.column()), j + " probes an indexed column");
                }
                assertTrue(j.rows() > 0 && j.seconds() >= j.left().seconds());
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"OL", "PL", "Q3", "Q8"})
    void estimatesGrowWithSelectivity(String query) {
        for (Set<JoinMethod> allowed : List.of(EnumSet.of(JoinMethod.OOO_PNLJ), EnumSet.of(JoinMethod.INORDER_PNLJ),
                EnumSet.of(JoinMethod.PSMJ), EnumSet.of(JoinMethod.OOO_PNLJ, JoinMethod.PSMJ))) {
            double previous = 0;
            for (double s : new double[] {0.0005, 0.001, 0.01, 0.1, 0.5, 1}) {
                double est = optimizer.optimize(graph(query, s), allowed).estimatedSeconds();
                assertTrue(est >= previous, query + " " + allowed + " at " + s + ": " + est + " < " + previous);
                previous = est;
            }
        }
    }

    @Test
    void explainShowsEveryOperatorWithItsEstimates() {
        Plan p = optimizer.optimize(graph("Q3", 0.01), EnumSet.of(JoinMethod.OOO_PNLJ));
        String text = Explain.text(p, new Explain.Actual(15L, 1234L, 0.5));
        assertTrue(text.contains("ooo-pnlj lineitem ON orders.o_orderkey = lineitem.l_orderkey"), text);
        assertTrue(text.contains("└─ ooo-pnlj orders ON customer.c_custkey = orders.o_custkey"), text);
        assertTrue(text.contains("index range scan customer WHERE c_acctbal BETWEEN"), text);
        assertTrue(text.contains("actual 1,234 rows in 0.50 s"), text);
        assertTrue(text.contains("index joins run with 128 probes in flight per node"), text);
        assertEquals(6, text.lines().count());
    }

    @Test
    void aHybridPlanListsItsJobsWithEstimatesThatAddUpToThePlans() {
        JoinGraph g = graph("Q3", 0.01);
        Plan hybrid = optimizer.evaluate(g, List.of("orders", "lineitem"), List.of(JoinMethod.OOO_PNLJ, JoinMethod.PSMJ));
        List<Plan.Job> jobs = hybrid.jobs();
        assertEquals(List.of("index joins up to orders (map-only)", "psmj lineitem"), jobs.stream().map(Plan.Job::name).toList());
        assertEquals(hybrid.estimatedSeconds(), jobs.stream().mapToDouble(Plan.Job::estimatedSeconds).sum(), 1e-9);
        Plan psmj = optimizer.optimize(g, EnumSet.of(JoinMethod.PSMJ));
        assertEquals(2, psmj.jobs().size());
        assertEquals(psmj.estimatedSeconds(), psmj.jobs().stream().mapToDouble(Plan.Job::estimatedSeconds).sum(), 1e-9);
        assertTrue(optimizer.optimize(g, EnumSet.of(JoinMethod.OOO_PNLJ)).jobs().isEmpty());

        String text = Explain.text(hybrid, new Explain.Actual(15L, 1234L, 9.0, List.of(4.0, 5.0)));
        assertTrue(text.contains("index joins up to orders (map-only)"), text);
        assertTrue(text.matches("(?s).*psmj lineitem +~[0-9.]+ s  \\| actual 5\\.00 s \\(estimate [0-9.]+x\\).*"), text);
        assertTrue(text.contains("index-join pipeline: fixed"), text);
    }

    @Test
    void cacheMissesFollowFirstTouchesThenTheShareThatDoesNotFit() {
        assertEquals(0, missesAlone(100, 0, 10));
        assertEquals(100 * (1 - Math.exp(-1)), missesAlone(100, 100, 1000), 1e-9);
        // an object twice the cache: half of it cached from time t on, where 1 - e^(-10t) = 1/2
        double t = Math.log(2) / 10;
        assertEquals(1000 * (0.5 / 10 + (1 - t) * 0.5), missesAlone(100, 1000, 50), 1e-6);
        assertTrue(missesAlone(100, 1e6, 50) < 1e6 / 2 + 100);
    }

    @Test
    void aBigTableProbedFirstPushesASmallOneOutOfTheCache() {
        CostModel.Touches small = new CostModel.Touches("orders", 20_000, 600_000);
        CostModel.Touches big = new CostModel.Touches("lineitem", 100_000, 600_000);
        double alone = CostModel.reads(work(List.of(small)), 32_000)[0];
        double[] shared = CostModel.reads(work(List.of(big), List.of(small)), 32_000);
        assertEquals(20_000, alone, 1); // it fits: each page is read once
        assertTrue(shared[1] > 5 * alone, "orders behind lineitem: " + shared[1]);
        assertTrue(shared[0] > 100_000 && shared[0] < 600_000, "lineitem: " + shared[0]);
        // a cache holding both reads each page touched once
        double[] roomy = CostModel.reads(work(List.of(big), List.of(small)), 200_000);
        assertEquals(100_000 * -Math.expm1(-6) + 20_000 * -Math.expm1(-30), roomy[0] + roomy[1], 1e-6);
    }

    @Test
    void probesReadingManyPagesEachKeepTheDeviceBusierButCostTheCoresAlike() {
        CostModel model = new CostModel(reference()); // the device: 57,000/s at 64 in flight, 60,000/s from 256
        // 38,400 reads: by 512 probes of 75 pages each (a GLOBAL index's fetches), or by 38,400 probes of one page
        CostModel.Work fetches = new CostModel.Work(List.of(new CostModel.Step(38_400, List.of(), 0, 0, 512)), 1);
        CostModel.Work lookups = new CostModel.Work(List.of(new CostModel.Step(38_400, List.of(), 0, 0, 38_400)), 1);
        CostModel.PipelineTime batched = model.pnljTime(fetches, 128); // 128 probes of 75 reads per node: beyond 256
        CostModel.PipelineTime single = model.pnljTime(lookups, 128); // 128 reads per node, 512 on the one device
        assertEquals(38_400 / 60_000.0, batched.disk(), 1e-9);
        assertEquals(38_400 / 60_000.0, single.disk(), 1e-9);
        assertEquals(38_400 * 10e-6, batched.cpu(), 1e-9); // each read's CPU, however the reads were asked for
        assertEquals(batched.cpu(), single.cpu(), 1e-9);
        CostModel.Work few = new CostModel.Work(List.of(new CostModel.Step(64, List.of(), 0, 0, 64)), 1);
        assertEquals(64 / 57_000.0, model.pnljTime(few, 128).disk(), 1e-9); // 16 per node: 64 on the device
        CostModel.PipelineTime inOrder = model.pnljTime(fetches, 1); // one read at a time, all of it waited for
        assertEquals(38_400 / 9_000.0, inOrder.disk(), 1e-9);
        assertEquals(0, inOrder.cpu(), 1e-9);
    }

    @Test
    void outOfOrderTheDeviceOrTheCoresBoundAJoinWhicheverIsBusier() {
        // 40,000 cold reads, each bringing a row: 0.67 s of the device at 512 in flight (60,000/s)
        CostModel.Work w = new CostModel.Work(List.of(new CostModel.Step(40_000, List.of(), 0, 40_000, 40_000)), 1);
        CostModel.PipelineTime cheap = new CostModel(readCpu(2)).pnljTime(w, 128); // 3 + 2 us of the cores a row
        assertEquals(40_000 / 60_000.0, cheap.disk(), 1e-9);
        assertEquals(40_000 * 5e-6, cheap.cpu(), 1e-9);
        assertEquals(cheap.fixed() + cheap.disk(), cheap.seconds(), 1e-9); // the cores' work hides behind the reads
        CostModel.PipelineTime dear = new CostModel(readCpu(30)).pnljTime(w, 128); // 33 us a row: 1.32 s
        assertEquals(cheap.disk(), dear.disk(), 1e-9);
        assertEquals(40_000 * 33e-6, dear.cpu(), 1e-9);
        assertEquals(dear.fixed() + dear.cpu(), dear.seconds(), 1e-9); // the reads wait for the cores
    }

    /**
     * Runs timed on a machine whose cores take twice the reference's time per cached row and half
     * its time per shuffled row — each plan's "measured" time is its estimate under those figures —
     * refit from the reference: its estimates meet the runs, and it finds the factors roughly (a
     * probe's row, its cold reads and its remote requests go together in these plans, as do a
     * job's scan and shuffle, so the runs tell those figures apart only roughly).
     */
    @Test
    void refittingToRunsOfAnotherMachineFindsItsFigures() {
        EnumMap<RefitFigure, Double> truth = new EnumMap<>(RefitFigure.class);
        for (RefitFigure f : RefitFigure.values()) {
            truth.put(f, 1.0);
        }
        truth.put(RefitFigure.WARM_ROW, 2.0);
        truth.put(RefitFigure.SHUFFLED_ROW, 0.5);
        JoinOptimizer machine = new JoinOptimizer(new CostModel(RefitFigure.scaled(reference(), truth)), TableFacts.of(tpch.session));
        List<JoinRun> runs = new ArrayList<>();
        for (String query : List.of("Q3", "Q8", "ONLC")) {
            for (double selectivity : List.of(0.0005, 0.005, 0.05, 0.5)) {
                JoinGraph g = graph(query, selectivity);
                for (Set<JoinMethod> allowed : List.of(EnumSet.of(JoinMethod.OOO_PNLJ), EnumSet.of(JoinMethod.PSMJ),
                        EnumSet.of(JoinMethod.OOO_PNLJ, JoinMethod.PSMJ))) {
                    Plan p = optimizer.optimize(g, allowed);
                    Plan timed = machine.evaluate(g, p.joins().stream().map(PlanNode.Join::alias).toList(), p.methods());
                    runs.add(JoinRun.of(p, reference(), query, selectivity, true, Math.round(p.estimatedRows()),
                            timed.estimatedSeconds(), timed.jobs().stream().map(Plan.Job::estimatedSeconds).toList()));
                }
            }
        }
        CalibrationRefit.Result r = CalibrationRefit.fit(reference(), runs);
        assertEquals(2.0, r.factors().get(RefitFigure.WARM_ROW), 0.25, r.toString());
        // a job's scan and its shuffle grow together with its inputs: the runs tell them apart roughly too
        assertEquals(0.5, r.factors().get(RefitFigure.SHUFFLED_ROW), 0.25, r.toString());
        for (RefitFigure f : List.of(RefitFigure.COLD_READ, RefitFigure.REQUEST, RefitFigure.OUTPUT_ROW,
                RefitFigure.STARTUP, RefitFigure.SCAN)) {
            assertEquals(1.0, r.factors().get(f), 0.2, r.toString());
        }
        assertTrue(r.errorAfter() < r.errorBefore() / 4, r.toString());
    }

    /** The reference cluster with cold reads costing the cores {@code micros} each. */
    private static Calibration readCpu(double micros) {
        Calibration r = reference();
        Calibration.IndexJoin ij = r.indexJoin();
        return new Calibration(r.measuredAt(), r.nodes(), r.pageSize(), r.bufferPoolPages(), r.disk(), r.network(),
                new Calibration.IndexJoin(ij.dispatchSeconds(), ij.coldReadsPerSecond(), ij.requestMicros(),
                        ij.warmRowMicros(), micros, ij.coldCoresBusy()), r.mapReduce());
    }

    private static double missesAlone(double pages, double touches, double cache) {
        return CostModel.reads(work(List.of(new CostModel.Touches("t", pages, touches))), cache)[0];
    }

    @SafeVarargs
    private static CostModel.Work work(List<CostModel.Touches>... steps) {
        List<CostModel.Step> out = new ArrayList<>();
        for (List<CostModel.Touches> t : steps) {
            out.add(new CostModel.Step(0, t, 0, 0, 1));
        }
        return new CostModel.Work(out, out.size());
    }

    private static List<List<String>> permutations(List<String> items) {
        if (items.isEmpty()) {
            return List.of(List.of());
        }
        List<List<String>> out = new ArrayList<>();
        for (String first : items) {
            List<String> rest = new ArrayList<>(items);
            rest.remove(first);
            for (List<String> tail : permutations(rest)) {
                List<String> p = new ArrayList<>();
                p.add(first);
                p.addAll(tail);
                out.add(p);
            }
        }
        return out;
    }

    /** Every assignment of methods the executors run: k index joins of the allowed kind, then PSMJ. */
    private static List<List<JoinMethod>> indexJoinsThenPsmj(int joins, Set<JoinMethod> allowed) {
        List<List<JoinMethod>> out = new ArrayList<>();
        for (JoinMethod index : List.of(JoinMethod.OOO_PNLJ, JoinMethod.INORDER_PNLJ)) {
            if (!allowed.contains(index)) {
                continue;
            }
            for (int k = 1; k <= joins; k++) {
                if (k < joins && !allowed.contains(JoinMethod.PSMJ)) {
                    continue;
                }
                List<JoinMethod> m = new ArrayList<>();
                for (int i = 0; i < joins; i++) {
                    m.add(i < k ? index : JoinMethod.PSMJ);
                }
                out.add(m);
            }
        }
        if (allowed.contains(JoinMethod.PSMJ)) {
            out.add(java.util.Collections.nCopies(joins, JoinMethod.PSMJ));
        }
        return out;
    }
}
