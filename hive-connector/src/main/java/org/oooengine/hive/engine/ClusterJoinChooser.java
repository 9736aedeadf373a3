package org.oooengine.hive.engine;

import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.oooengine.core.cluster.ClusterSession;
import org.oooengine.core.cluster.ClusterSpec;
import org.oooengine.core.exec.JoinSpec;
import org.oooengine.hive.sql.SqlException;
import org.oooengine.hive.sql.plan.Field;
import org.oooengine.hive.sql.plan.JoinChooser;
import org.oooengine.hive.sql.plan.RelNode;
import org.oooengine.optimizer.JoinOptimizer;
import org.oooengine.optimizer.cost.Calibration;
import org.oooengine.optimizer.cost.CostModel;
import org.oooengine.optimizer.cost.TableFacts;
import org.oooengine.optimizer.plan.JoinGraph;
import org.oooengine.optimizer.plan.JoinMethod;
import org.oooengine.optimizer.plan.Plan;

/**
 * Whether a SQL join chain runs as the out-of-order index join on the nodes or as hash joins
 * over full scans on the coordinator, by the session's {@code ooo.join.method}: {@code index},
 * {@code hash}, or {@code auto} (default). Auto asks the optimizer on a calibrated cluster — the
 * chain's range counted on its index (an index dive), the calibrated cost of OoO PNLJ against
 * PSMJ — and without a calibration takes the index join when the range selects at most
 * {@link #UNCALIBRATED_MAX_FRACTION} of the driving table, well below the crossovers measured.
 */
final class ClusterJoinChooser {
    static final String SETTING = "ooo.join.method";
    static final double UNCALIBRATED_MAX_FRACTION = 0.05;

    private final ClusterSession cluster;
    private final Optional<Calibration> calibration;
    private volatile JoinOptimizer optimizer;

    ClusterJoinChooser(ClusterSession cluster, Optional<Calibration> calibration) {
        this.cluster = cluster;
        this.calibration = calibration;
    }

    JoinChooser forSettings(Map<String, String> settings) {
        String method = settings.getOrDefault(SETTING, "auto").strip().toLowerCase(Locale.ROOT);
        return switch (method) {
            case "hash" -> JoinChooser.HASH_JOINS_ONLY;
            case "index" -> (spec, fields) -> new RelNode.IndexJoin(spec, fields, "ooo-pnlj (" + SETTING + "=index)");
            case "auto" -> this::auto;
            default -> throw new SqlException(SqlException.SYNTAX,
                    SETTING + " is '" + method + "'; use auto, index or hash");
        };
    }

    private RelNode.IndexJoin auto(JoinSpec spec, List<Field> fields) {
        long rows = rangeRows(spec);
        if (calibration.isPresent()) {
            Plan plan = optimizer().optimize(JoinGraph.of("sql", spec).withRangeRows(rows),
                    EnumSet.of(JoinMethod.OOO_PNLJ, JoinMethod.PSMJ));
            if (!plan.allIndexJoins()) {
                return null; // the optimizer would scan: in daemon mode that is the coordinator's hash join
            }
            return new RelNode.IndexJoin(plan.spec(), fields, String.format(Locale.ROOT,
                    "optimizer: %s, %,d driving rows, estimated %.3g s", plan.chosen(), rows, plan.estimatedSeconds()));
        }
        long total = tableRows(spec.outerTable());
        if (rows > UNCALIBRATED_MAX_FRACTION * total) {
            return null;
        }
        return new RelNode.IndexJoin(spec, fields, String.format(Locale.ROOT,
                "ooo-pnlj: the range selects %,d of %,d rows (cluster not calibrated: ooo calibrate --cluster)", rows, total));
    }

    /** Rows of the driving range, counted on its index on every node. */
    private long rangeRows(JoinSpec spec) {
        long rows = 0;
        for (ClusterSpec.NodeSpec n : cluster.spec().nodes()) {
            rows += cluster.countRange(n.id(), spec.outerTable(), spec.outerRange());
        }
        return rows;
    }

    private long tableRows(String table) {
        long rows = 0;
        for (ClusterSpec.NodeSpec n : cluster.spec().nodes()) {
            rows += cluster.manifest(n.id()).table(table).rows();
        }
        return rows;
    }

    /** Tables changed: the optimizer reads their statistics anew at its next use. */
    void tablesChanged() {
        optimizer = null;
    }

    /** Built on first use: it reads every table's statistics from the nodes. */
    private JoinOptimizer optimizer() {
        JoinOptimizer o = optimizer;
        if (o == null) {
            Map<String, TableFacts> facts = TableFacts.of(cluster);
            o = new JoinOptimizer(new CostModel(calibration.orElseThrow()), facts);
            optimizer = o;
        }
        return o;
    }
}
