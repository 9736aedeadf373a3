package org.oooengine.optimizer.scaling;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.oooengine.core.exec.ColumnRange;
import org.oooengine.core.exec.JoinSpec;
import org.oooengine.core.tpch.JoinQueries;
import org.oooengine.core.types.DataType;
import org.oooengine.optimizer.JoinOptimizer;
import org.oooengine.optimizer.cost.Calibration;
import org.oooengine.optimizer.cost.CostModel;
import org.oooengine.optimizer.cost.TableFacts;
import org.oooengine.optimizer.plan.JoinGraph;
import org.oooengine.optimizer.plan.JoinMethod;
import org.oooengine.optimizer.plan.Plan;
import org.oooengine.optimizer.plan.PlanNode;
import org.oooengine.optimizer.rel.PipelinePlanner;

/**
 * Weak scaling: the time of a query on {@code N} nodes each holding the same data, predicted from
 * one calibration. The planner's own cost model prices the work ({@link CostModel} through
 * {@link JoinOptimizer}, on the calibration carried to {@code N} nodes by {@link ScaledCalibration}
 * and the statistics grown to {@code N} times the data by {@link TableFacts#scaledBy}); what grows
 * with {@code N} beyond the per-node work is added here, each term by itself:
 *
 * <ul>
 *   <li>what the cost model already grows with the node count: the share of probes that leave
 *       their node, (N−1)/N; a GLOBAL-index probe's fetch batches, one per other node holding
 *       matches; the dispatch of a plan to every node and a MapReduce job's start-up (per-node
 *       slopes of {@link ScaledCalibration.Growth});</li>
 *   <li>stragglers: the parallel part ends with the slowest node ({@link Stragglers});</li>
 *   <li>the coordinator's fan-in: rows an index join returns stream to one coordinator, which takes
 *       them at most at the rate one connection answered single-row requests in the calibration
 *       (its deepest queue): they overlap the nodes' work and bound it from below;</li>
 *   <li>the network between hosts: a PSMJ stage's shuffle and a hash join's broadcast or shuffle
 *       send (hosts−1)/hosts of their bytes over each host's link;</li>
 *   <li>exchanged rows: each row a node receives in a broadcast or a shuffle costs the network
 *       path's per-row time (the same single-row rate); a broadcast side grows with N, so each
 *       node receives (N−1) times one node's share of it.</li>
 * </ul>
 *
 * <p>The TPC-H queries the SQL engine runs as column-batch pipelines (Q1, Q3) have no formula in
 * the cost model: their per-node time is taken from a measured run on one node ({@link OneNodeRun}),
 * and only the terms above are modelled. Nodes that share a host share its cores: a host's nodes
 * together need their CPU seconds over its cores, and never less than one node's time alone.
 */
public final class WeakScalingModel {
    /** Seed 004's queries as the engine names them (OL, PL, Q3' and Q8'). */
    public static final List<String> JOIN_QUERIES = List.of("OL", "PL", "Q3", "Q8");
    /** The SQL TPC-H queries the model covers. */
    public static final List<Integer> SQL_QUERIES = List.of(1, 3);

    /**
     * @param nodeCv             coefficient of variation of the nodes' times for the same work
     * @param linkBytesPerSecond one host's network link, each way
     * @param gatherResults      whether an index join's rows stream to the coordinator (as {@code ooo bench join}
     *                           runs it) rather than being written where they are made (as seed 004's Hive jobs)
     * @param rowsPerSecond      rows per second a coordinator gathers, or a node receives in an exchange; 0: one
     *                           connection's best single-row request rate in the calibration (a lower bound: rows
     *                           travel in batches)
     */
    public record Settings(double nodeCv, double linkBytesPerSecond, boolean gatherResults, double rowsPerSecond) {
        /** 10 GbE as in seed 004's cluster, 5% variation between nodes, results gathered at the calibrated rate. */
        public static final Settings DEFAULTS = new Settings(0.05, 1.25e9, true, 0);

        public Settings {
            if (nodeCv < 0 || !(linkBytesPerSecond > 0) || rowsPerSecond < 0) {
                throw new IllegalArgumentException("need nodeCv >= 0 and a positive link rate");
            }
        }
    }

    /**
     * One prediction: the query on {@code nodes} nodes over {@code hosts} hosts.
     *
     * @param fixed       dispatch, dependent round trips, jobs' start-ups: paid once, whatever the data
     * @param nodeWork    the mean node's parallel work
     * @param stragglers  what the slowest node adds to it
     * @param exchange    rows and bytes moved between nodes that the cost model does not count
     * @param fanIn       the coordinator's time to take the gathered rows (overlaps the rest)
     * @param rows        result rows (index joins), or rows exchanged (SQL)
     * @param plan        the plan's join methods, or what the SQL query exchanges
     */
    public record Point(String query, int nodes, int hosts, double seconds, double fixed, double nodeWork,
                        double stragglers, double exchange, double fanIn, double rows, String plan) {
    }

    /**
     * A TPC-H query measured on one node ({@code ooo bench tpch --json}): its median wall time, the
     * CPU seconds the node spent per run (0 or less: not measured), the cores of the node's machine
     * and the scale factor of the run.
     */
    public record OneNodeRun(double seconds, double nodeCpuSeconds, int cores, double scaleFactor) {
        public OneNodeRun {
            if (!(seconds > 0 && scaleFactor > 0)) {
                throw new IllegalArgumentException("a one-node run needs a positive time and scale factor");
            }
        }

        /** A run whose CPU time was not measured. */
        public static OneNodeRun wallTimeOnly(double seconds, double scaleFactor) {
            return new OneNodeRun(seconds, 0, 0, scaleFactor);
        }

        boolean cpuKnown() {
            return nodeCpuSeconds > 0 && cores > 0;
        }
    }

    private final Calibration calibration;
    private final ScaledCalibration.Growth growth;
    private final Map<String, TableFacts> measuredFacts;
    private final double measuredScaleFactor;
    private final double scaleFactorPerNode;
    private final Settings settings;

    /**
     * @param calibration          what {@code ooo calibrate --cluster} measured
     * @param growth               per-node slopes (from calibrations of several sizes)
     * @param measuredFacts        TPC-H tables' facts as measured on some cluster
     * @param measuredScaleFactor  the scale factor those facts are of
     * @param scaleFactorPerNode   data per node of the predicted clusters
     */
    public WeakScalingModel(Calibration calibration, ScaledCalibration.Growth growth, Map<String, TableFacts> measuredFacts,
                            double measuredScaleFactor, double scaleFactorPerNode, Settings settings) {
        if (!(measuredScaleFactor > 0 && scaleFactorPerNode > 0)) {
            throw new IllegalArgumentException("scale factors must be positive");
        }
        this.calibration = calibration;
        this.growth = growth;
        this.measuredFacts = Map.copyOf(measuredFacts);
        this.measuredScaleFactor = measuredScaleFactor;
        this.scaleFactorPerNode = scaleFactorPerNode;
        this.settings = settings;
    }

    public double scaleFactorPerNode() {
        return scaleFactorPerNode;
    }

    /** The calibration as a cluster of {@code nodes} nodes on {@code hosts} hosts would measure it. */
    public Calibration calibrationFor(int nodes, int hosts) {
        return ScaledCalibration.to(calibration, nodes, hosts, growth);
    }

    /** TPC-H tables whose size does not depend on the scale factor. */
    static final Set<String> FIXED_TABLES = Set.of("nation", "region");

    /** The TPC-H tables at {@code nodes} times the data per node (nation and region as they are). */
    public Map<String, TableFacts> factsFor(int nodes) {
        double factor = scaleFactorPerNode * nodes / measuredScaleFactor;
        Map<String, TableFacts> out = new LinkedHashMap<>();
        measuredFacts.forEach((name, t) -> out.put(name, FIXED_TABLES.contains(name) ? t : t.scaledBy(factor)));
        return out;
    }

    /** The rows per second one coordinator takes gathered rows at: one connection's best single-row rate. */
    double coordinatorRowsPerSecond() {
        if (settings.rowsPerSecond() > 0) {
            return settings.rowsPerSecond();
        }
        return calibration.network().requestsPerSecond().values().stream().mapToDouble(Double::doubleValue).max()
                .orElseThrow();
    }

    /** Seconds a row received through the network path costs its host. */
    double exchangeRowSeconds() {
        return 1 / coordinatorRowsPerSecond();
    }

    /** Seed 004's join {@code query} ({@code OL}, {@code PL}, {@code Q3}, {@code Q8}) at a selectivity of its driving table. */
    public JoinGraph graph(String query, double selectivity, Map<String, TableFacts> facts) {
        JoinQueries.Shape shape = JoinQueries.shape(query);
        TableFacts driving = facts.get(shape.outer());
        if (driving == null) {
            throw new IllegalArgumentException("no statistics for table " + shape.outer());
        }
        DataType type = driving.type(shape.rangeColumn());
        var column = driving.stats().column(shape.rangeColumn());
        ColumnRange range = new ColumnRange(shape.rangeColumn(), type.parseValue(column.min()), type.parseValue(column.max()));
        JoinSpec spec = new JoinSpec(shape.outer(), range, shape.probes(), shape.output());
        return JoinGraph.of(shape.name(), spec).withRangeRows(Math.max(1, Math.round(selectivity * driving.rows())));
    }

    /** The join {@code query} at {@code selectivity} on {@code nodes} nodes over {@code hosts} hosts, planned with {@code allowed}. */
    public Point join(String query, double selectivity, int nodes, int hosts, Set<JoinMethod> allowed) {
        Calibration cal = calibrationFor(nodes, hosts);
        Map<String, TableFacts> facts = factsFor(nodes);
        Plan plan = new JoinOptimizer(new CostModel(cal), facts).optimize(graph(query, selectivity, facts), allowed);
        double fixed = plan.pipeline() != null ? plan.pipeline().fixed() : 0;
        boolean afterIndexJoins = false;
        double shuffledBytes = 0;
        PlanNode left = plan.scan();
        for (PlanNode.Join j : plan.joins()) {
            if (j.method() == JoinMethod.PSMJ) {
                if (left instanceof PlanNode.Join p && p.method().indexJoin() && !afterIndexJoins) {
                    fixed += cal.mapReduce().startupSeconds() - cal.indexJoin().dispatchSeconds();
                    afterIndexJoins = true;
                }
                fixed += cal.mapReduce().stageStartupSeconds();
                TableFacts t = facts.get(j.table());
                // both sides' rows cross the shuffle, priced at the probed table's row width
                shuffledBytes += (left.rows() + t.rows()) * t.rowBytes();
            }
            left = j;
        }
        fixed = Math.min(fixed, plan.estimatedSeconds());
        double work = plan.estimatedSeconds() - fixed;
        double stragglers = work * (Stragglers.factor(nodes, settings.nodeCv()) - 1);
        double exchange = crossHostSeconds(shuffledBytes, hosts);
        double fanIn = settings.gatherResults() && plan.allIndexJoins() ? plan.estimatedRows() / coordinatorRowsPerSecond() : 0;
        double seconds = fixed + Math.max(work + stragglers + exchange, fanIn);
        return new Point(query, nodes, hosts, seconds, fixed, work, stragglers, exchange, fanIn, plan.estimatedRows(),
                plan.chosen());
    }

    /** Seconds {@code bytes} spread over all nodes take to cross between hosts: (hosts−1)/hosts of them over each host's link. */
    double crossHostSeconds(double bytes, int hosts) {
        return bytes * (hosts - 1) / hosts / hosts / settings.linkBytesPerSecond();
    }

    /** {@link #sql(int, OneNodeRun, int, int)} from a one-node run's wall time alone. */
    public Point sql(int q, double measuredOneNodeSeconds, double measuredScaleFactor, int nodes, int hosts) {
        return sql(q, OneNodeRun.wallTimeOnly(measuredOneNodeSeconds, measuredScaleFactor), nodes, hosts);
    }

    /** TPC-H query {@code q} (1 or 3) through the SQL engine on {@code nodes} nodes over {@code hosts} hosts. */
    public Point sql(int q, OneNodeRun base, int nodes, int hosts) {
        Calibration cal = calibrationFor(nodes, hosts);
        double dispatch1 = calibrationFor(1, 1).indexJoin().dispatchSeconds();
        double scale = scaleFactorPerNode / base.scaleFactor();
        double perNode = Math.max(0, base.seconds() - dispatch1) * scale;
        double nodesPerHost = nodes / (double) hosts;
        // A host runs its nodes on its own cores: their CPU seconds over its cores, not less than one node
        // alone takes (a node by itself may leave cores idle). Without the CPU time, one node is taken to
        // keep its host busy.
        double work = base.cpuKnown()
                ? Math.max(perNode, nodesPerHost * base.nodeCpuSeconds() * scale / base.cores())
                : perNode * nodesPerHost;
        double stragglers = work * (Stragglers.factor(nodes, settings.nodeCv()) - 1);
        double fixed = cal.indexJoin().dispatchSeconds();
        double exchange = 0;
        double rows;
        String how;
        switch (q) {
            case 1 -> {
                // four groups per node, merged on the coordinator
                rows = 4.0 * nodes;
                how = "partial aggregates gathered";
            }
            case 3 -> {
                Map<String, TableFacts> one = factsFor(1);
                TableFacts customer = one.get("customer");
                TableFacts orders = one.get("orders");
                double c = customer.rows() / customer.distinct("c_mktsegment"); // one market segment
                DataType date = orders.type("o_orderdate");
                var dates = orders.stats().column("o_orderdate");
                double o = orders.rows() * orders.rangeFraction(new ColumnRange("o_orderdate",
                        date.parseValue(dates.min()), date.parseValue("1995-03-14")));
                double buildBytes = TableFacts.width(customer.type("c_custkey"));
                double probeBytes = TableFacts.width(orders.type("o_orderkey")) + TableFacts.width(orders.type("o_custkey"))
                        + TableFacts.width(orders.type("o_orderdate")) + TableFacts.width(orders.type("o_shippriority"));
                boolean broadcast = nodes > 1 && PipelinePlanner.broadcastMovesLess(Math.round(c * nodes),
                        Math.round(o * nodes), nodes)
                        && c * nodes * buildBytes <= PipelinePlanner.Limits.DEFAULTS.broadcastMaxBytes();
                // rows each node receives: every other node's customers, or its share of every other node's orders
                double received = nodes == 1 ? 0 : broadcast ? (nodes - 1) * c : o * (nodes - 1) / nodes;
                double bytes = received * nodes * (broadcast ? buildBytes : probeBytes);
                exchange = received * nodes / hosts * exchangeRowSeconds() + crossHostSeconds(bytes, hosts);
                rows = received * nodes;
                how = nodes == 1 ? "no exchange" : broadcast ? "customers broadcast" : "orders shuffled to customers";
            }
            default -> throw new IllegalArgumentException("the model covers TPC-H Q1 and Q3, not Q" + q);
        }
        double fanIn = rows > 0 && q == 1 ? rows / coordinatorRowsPerSecond() : 0;
        double seconds = fixed + Math.max(work + stragglers + exchange, fanIn);
        return new Point("TPC-H Q" + q, nodes, hosts, seconds, fixed, work, stragglers, exchange, fanIn, rows, how);
    }
}
