package org.oooengine.hive.engine;

import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.oooengine.core.cluster.ClusterException;
import org.oooengine.core.cluster.ClusterSession;
import org.oooengine.core.settings.SessionSettings;
import org.oooengine.core.cluster.ClusterSpec;
import org.oooengine.core.exec.JoinSpec;
import org.oooengine.core.sql.SqlException;
import org.oooengine.optimizer.rel.Field;
import org.oooengine.optimizer.rel.JoinChooser;
import org.oooengine.optimizer.rel.RelNode;
import org.oooengine.optimizer.JoinOptimizer;
import org.oooengine.optimizer.cost.Calibration;
import org.oooengine.optimizer.cost.CostModel;
import org.oooengine.optimizer.cost.TableFacts;
import org.oooengine.optimizer.plan.JoinGraph;
import org.oooengine.optimizer.plan.JoinMethod;
import org.oooengine.optimizer.plan.Plan;

/**
 * How a SQL join chain runs, by the session's {@code ooo.join.method} and execution mode.
 *
 * <p>In daemon mode ({@link #forDaemons}) a chain runs as the out-of-order index join on the
 * nodes or as hash joins over full scans on the coordinator: {@code index}, {@code hash}, or
 * {@code auto} (default). In MapReduce mode ({@link #forMapReduce}) every chain runs as MapReduce
 * jobs — a hash join on the coordinator is not MapReduce: {@code index} (the out-of-order join as
 * a map-only job), {@code psmj} (sort-merge join jobs), or {@code auto}.
 *
 * <p>Auto asks the optimizer on a calibrated cluster — the chain's range counted on its index (an
 * index dive), the calibrated cost of OoO PNLJ against PSMJ per join. Without a calibration it
 * takes the index join when the range selects at most {@link #UNCALIBRATED_MAX_FRACTION} of the
 * driving table, well below the crossovers measured, and PSMJ otherwise. Daemon mode cannot run
 * PSMJ: where auto would, the chain runs as hash joins instead.
 */
final class ClusterJoinChooser {
    private static final String SETTING = SessionSettings.JOIN_METHOD.name();
    static final double UNCALIBRATED_MAX_FRACTION = 0.05;

    private final ClusterSession cluster;
    private final Optional<Calibration> calibration;
    private volatile JoinOptimizer optimizer;

    ClusterJoinChooser(ClusterSession cluster, Optional<Calibration> calibration) {
        this.cluster = cluster;
        this.calibration = calibration;
    }

    /** Index joins on the node daemons, or null: hash joins on the coordinator. */
    JoinChooser forDaemons(Map<String, String> settings) {
        return switch (method(settings)) {
            case "hash" -> JoinChooser.HASH_JOINS_ONLY;
            case "index" -> (spec, fields) -> forced(spec, fields, "index", spec.probes().size());
            case "auto" -> (spec, fields) -> {
                RelNode.IndexJoin join = auto(spec, fields);
                return join.allIndexJoins() ? join : null;
            };
            case "psmj" -> throw new SqlException(SqlException.SYNTAX, SETTING + "=psmj runs as MapReduce jobs: first SET "
                    + SessionSettings.EXECUTION_MODE.name() + "=mapreduce");
            default -> throw unknown(settings, "auto, index or hash");
        };
    }

    /** MapReduce jobs for every chain: never null. */
    JoinChooser forMapReduce(Map<String, String> settings) {
        return switch (method(settings)) {
            case "index" -> (spec, fields) -> forced(spec, fields, "index", spec.probes().size());
            case "psmj" -> (spec, fields) -> forced(spec, fields, "psmj", 0);
            case "auto" -> this::auto;
            case "hash" -> throw new SqlException(SqlException.SYNTAX, SETTING + "=hash joins on the coordinator, "
                    + "which is not MapReduce; in " + SessionSettings.EXECUTION_MODE.name() + "=mapreduce use auto, index or psmj");
            default -> throw unknown(settings, "auto, index or psmj");
        };
    }

    private static String method(Map<String, String> settings) {
        return SessionSettings.JOIN_METHOD.get(settings);
    }

    private static SqlException unknown(Map<String, String> settings, String choices) {
        return new SqlException(SqlException.SYNTAX, SETTING + " is '" + method(settings) + "'; use " + choices);
    }

    private static RelNode.IndexJoin forced(JoinSpec spec, List<Field> fields, String method, int indexJoins) {
        String label = indexJoins == 0 ? JoinMethod.PSMJ.toString() : JoinMethod.OOO_PNLJ.toString();
        return new RelNode.IndexJoin(spec, fields, label + " (" + SETTING + "=" + method + ")", indexJoins);
    }

    private RelNode.IndexJoin auto(JoinSpec spec, List<Field> fields) {
        long rows = rangeRows(spec);
        if (calibration.isPresent()) {
            Plan plan = optimizer().optimize(JoinGraph.of("sql", spec).withRangeRows(rows),
                    EnumSet.of(JoinMethod.OOO_PNLJ, JoinMethod.PSMJ));
            return new RelNode.IndexJoin(plan.spec(), fields, String.format(Locale.ROOT,
                    "optimizer: %s, %,d driving rows, estimated %.3g s", plan.chosen(), rows, plan.estimatedSeconds()),
                    plan.indexJoins());
        }
        long total = tableRows(spec.outerTable());
        boolean selective = rows <= UNCALIBRATED_MAX_FRACTION * total;
        return new RelNode.IndexJoin(spec, fields, String.format(Locale.ROOT,
                "%s: the range selects %,d of %,d rows (cluster not calibrated: ooo calibrate --cluster)",
                selective ? JoinMethod.OOO_PNLJ : JoinMethod.PSMJ, rows, total), selective ? spec.probes().size() : 0);
    }

    /** Rows of the driving range, counted on its index on every node. */
    private long rangeRows(JoinSpec spec) {
        long rows = 0;
        for (ClusterSpec.NodeSpec n : cluster.spec().nodes()) {
            rows += cluster.countRange(n.id(), spec.outerTable(), spec.outerRange());
        }
        return rows;
    }

    /** Rows of the table, summed over every node: a node that does not answer fails the choice, naming it. */
    private long tableRows(String table) {
        try {
            return cluster.table(table).meta().rows();
        } catch (ClusterException e) {
            throw new SqlException(SqlException.NODE_FAILURE, "choosing how to join " + table + " failed: "
                    + e.getMessage(), e);
        }
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
