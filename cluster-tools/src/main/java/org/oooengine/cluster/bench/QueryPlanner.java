package org.oooengine.cluster.bench;

import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import org.oooengine.core.cluster.ClusterSession;
import org.oooengine.core.cluster.ClusterSpec;
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
    private final ClusterSession session;

    /** A planner that estimates ranges from histograms alone ({@code session} null) or counts them on the cluster. */
    public QueryPlanner(Calibration calibration, Map<String, TableFacts> tables, int budget, ClusterSession session) {
        this.optimizer = new JoinOptimizer(new CostModel(calibration), tables, budget);
        this.session = session;
    }

    /** The planner of a running cluster: needs {@code ooo calibrate --cluster} to have run. */
    public static QueryPlanner of(Path clusterDir, ClusterSession session, int budget) {
        Calibration calibration = Calibration.require(clusterDir);
        return new QueryPlanner(calibration, TableFacts.of(session), budget, session);
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

    /**
     * The query's join graph, the rows of its driving range counted on the range column's index on
     * every node (an index dive: a few leaf pages, exact where a histogram bucket would be guessed into).
     */
    private JoinGraph graph(JoinQueries.Query query) {
        JoinGraph g = JoinGraph.of(query.name(), query.spec());
        if (session == null) {
            return g;
        }
        String table = g.tables().get(g.driving());
        long rows = 0;
        for (ClusterSpec.NodeSpec n : session.spec().nodes()) {
            rows += session.countRange(n.id(), table, g.range());
        }
        return g.withRangeRows(rows);
    }

    public JoinOptimizer optimizer() {
        return optimizer;
    }
}
