package org.oooengine.cluster.bench;

import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Map;
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

/**
 * The optimizer for one cluster: its calibration, its tables' statistics, and which join methods
 * each benchmark mode lets the optimizer use (auto: all it can run; a forced mode: that one).
 */
public final class QueryPlanner {
    private final JoinOptimizer optimizer;

    public QueryPlanner(Calibration calibration, Map<String, TableFacts> tables, int budget) {
        this.optimizer = new JoinOptimizer(new CostModel(calibration), tables, budget);
    }

    /** The planner of a running cluster: needs {@code ooo calibrate --cluster} to have run. */
    public static QueryPlanner of(Path clusterDir, ClusterSession session, int budget) {
        Calibration calibration = Calibration.require(clusterDir);
        return new QueryPlanner(calibration, TableFacts.of(session), budget);
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
        return allowed.isEmpty() ? null : optimizer.optimize(JoinGraph.of(query.name(), query.spec()), allowed);
    }

    public JoinOptimizer optimizer() {
        return optimizer;
    }
}
