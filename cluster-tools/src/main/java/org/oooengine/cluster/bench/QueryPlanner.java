package org.oooengine.cluster.bench;

import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.oooengine.core.cluster.ClusterSession;
import org.oooengine.core.tpch.JoinQueries;
import org.oooengine.optimizer.JoinOptimizer;
import org.oooengine.optimizer.cost.Calibration;
import org.oooengine.optimizer.cost.CostModel;
import org.oooengine.optimizer.cost.TableFacts;
import org.oooengine.optimizer.plan.JoinGraph;
import org.oooengine.optimizer.plan.JoinMethod;
import org.oooengine.optimizer.plan.Plan;
import org.oooengine.optimizer.snapshot.ClusterSnapshot;
import org.oooengine.optimizer.snapshot.ClusterSnapshots;

/**
 * The optimizer for one cluster: its calibration, its tables' statistics, and which join methods
 * each benchmark mode lets the optimizer use (auto: all it can run; a forced mode: that one). The
 * statistics come from the same snapshot SQL plans from, and a query's driving range is estimated
 * from its column's histogram as SQL's join choice estimates it: the benchmark measures the plans
 * SQL would choose, and planning asks the nodes nothing.
 */
public final class QueryPlanner {
    private final Calibration calibration;
    private final JoinOptimizer optimizer;
    private final Map<String, TableFacts> tables;

    public QueryPlanner(Calibration calibration, Map<String, TableFacts> tables, int budget) {
        this.calibration = calibration;
        this.optimizer = new JoinOptimizer(new CostModel(calibration), tables, budget);
        this.tables = tables;
    }

    /** The calibration the plans are priced with. */
    public Calibration calibration() {
        return calibration;
    }

    /** The planner of a running cluster: needs {@code ooo calibrate --cluster} to have run. */
    public static QueryPlanner of(Path clusterDir, ClusterSession session, int budget) {
        Calibration calibration = Calibration.require(clusterDir);
        ClusterSnapshot snapshot = new ClusterSnapshots(session, Optional.of(calibration)).take();
        if (snapshot.facts().isEmpty()) {
            throw new IllegalStateException("the nodes of " + clusterDir + " gave no statistics of their tables; "
                    + "collect them with: ooo analyze --cluster " + clusterDir);
        }
        return new QueryPlanner(calibration, snapshot.facts(), budget);
    }

    /** Join methods the optimizer may use in a mode; empty for modes it does not plan. */
    public static Set<JoinMethod> methods(JoinMode mode) {
        return switch (mode) {
            case AUTO -> EnumSet.of(JoinMethod.OOO_PNLJ, JoinMethod.PSMJ);
            case OOO -> EnumSet.of(JoinMethod.OOO_PNLJ);
            case INORDER -> EnumSet.of(JoinMethod.INORDER_PNLJ);
            case PSMJ -> EnumSet.of(JoinMethod.PSMJ);
            default -> EnumSet.noneOf(JoinMethod.class);
        };
    }

    /** The best plan for the query in the mode, or null when the mode is not planned. */
    public Plan plan(JoinQueries.Query query, JoinMode mode) {
        Set<JoinMethod> allowed = methods(mode);
        return allowed.isEmpty() ? null : optimizer.optimize(graph(query), allowed);
    }

    /** The query's join graph, the rows of its driving range read off the range column's histogram. */
    private JoinGraph graph(JoinQueries.Query query) {
        JoinGraph g = JoinGraph.of(query.name(), query.spec());
        TableFacts driving = tables.get(g.tables().get(g.driving()));
        return driving == null ? g : g.withRangeRows(driving.rangeRows(g.range()));
    }

    public JoinOptimizer optimizer() {
        return optimizer;
    }
}
