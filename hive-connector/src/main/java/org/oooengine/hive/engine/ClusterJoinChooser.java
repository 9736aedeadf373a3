package org.oooengine.hive.engine;

import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.oooengine.core.cluster.ClusterException;
import org.oooengine.core.cluster.ClusterManifest;
import org.oooengine.core.settings.SessionSettings;
import org.oooengine.core.exec.JoinSpec;
import org.oooengine.core.sql.SqlException;
import org.oooengine.optimizer.rel.Field;
import org.oooengine.optimizer.rel.JoinChooser;
import org.oooengine.optimizer.rel.RelNode;
import org.oooengine.optimizer.JoinOptimizer;
import org.oooengine.optimizer.cost.CostModel;
import org.oooengine.optimizer.cost.TableFacts;
import org.oooengine.optimizer.plan.JoinGraph;
import org.oooengine.optimizer.plan.JoinMethod;
import org.oooengine.optimizer.plan.Plan;
import org.oooengine.optimizer.snapshot.ClusterSnapshot;

/**
 * How a SQL join chain runs, by the session's {@code ooo.join.method} and execution mode.
 *
 * <p>In daemon mode ({@link #forDaemons}) a chain runs as the out-of-order index join on the
 * nodes or as hash joins over full scans on the coordinator: {@code index}, {@code hash}, or
 * {@code auto} (default). In MapReduce mode ({@link #forMapReduce}) every chain runs as MapReduce
 * jobs — a hash join on the coordinator is not MapReduce: {@code index} (the out-of-order join as
 * a map-only job), {@code psmj} (sort-merge join jobs), or {@code auto}.
 *
 * <p>Auto asks the optimizer on a calibrated cluster — the chain's range estimated from the driving
 * table's histogram, the calibrated cost of OoO PNLJ against PSMJ per join. Without a calibration
 * it takes the index join when the range selects at most {@link #UNCALIBRATED_MAX_FRACTION} of the
 * driving table, well below the crossovers measured, and PSMJ otherwise. Daemon mode cannot run
 * PSMJ: where auto would, the chain runs as hash joins instead. Everything it reads is in the
 * statement's {@link ClusterSnapshot}: choosing asks the nodes nothing.
 */
final class ClusterJoinChooser {
    private static final String SETTING = SessionSettings.JOIN_METHOD.name();
    static final double UNCALIBRATED_MAX_FRACTION = 0.05;

    /** The optimizer over the statistics of the last snapshot that had a calibration: they change rarely. */
    private volatile Optimizer optimizer;

    private record Optimizer(Map<String, TableFacts> facts, JoinOptimizer optimizer) {
    }

    /** Index joins on the node daemons, or null: hash joins on the coordinator. */
    JoinChooser forDaemons(Map<String, String> settings, ClusterSnapshot snapshot) {
        return switch (method(settings)) {
            case "hash" -> JoinChooser.HASH_JOINS_ONLY;
            case "index" -> (spec, fields) -> forced(spec, fields, "index", spec.probes().size());
            case "auto" -> (spec, fields) -> {
                RelNode.IndexJoin join = auto(snapshot, spec, fields);
                return join.allIndexJoins() ? join : null;
            };
            case "psmj" -> throw new SqlException(SqlException.SYNTAX, SETTING + "=psmj runs as MapReduce jobs: first SET "
                    + SessionSettings.EXECUTION_MODE.name() + "=mapreduce");
            default -> throw unknown(settings, "auto, index or hash");
        };
    }

    /** MapReduce jobs for every chain: never null. */
    JoinChooser forMapReduce(Map<String, String> settings, ClusterSnapshot snapshot) {
        return switch (method(settings)) {
            case "index" -> (spec, fields) -> forced(spec, fields, "index", spec.probes().size());
            case "psmj" -> (spec, fields) -> forced(spec, fields, "psmj", 0);
            case "auto" -> (spec, fields) -> auto(snapshot, spec, fields);
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

    private RelNode.IndexJoin auto(ClusterSnapshot snapshot, JoinSpec spec, List<Field> fields) {
        long total = tableRows(snapshot, spec.outerTable());
        Optional<TableFacts> driving = snapshot.facts(spec.outerTable());
        if (driving.isEmpty()) {
            return new RelNode.IndexJoin(spec, fields, JoinMethod.PSMJ + ": no statistics of " + spec.outerTable()
                    + " to tell how selective its range is (ooo analyze --cluster)", 0);
        }
        long rows = driving.get().rangeRows(spec.outerRange());
        if (snapshot.calibration().isPresent() && snapshot.facts().keySet().containsAll(spec.tables())) {
            JoinOptimizer optimizer = optimizer(snapshot);
            JoinGraph graph = JoinGraph.of("sql", spec).withRangeRows(rows);
            Plan plan = optimizer.optimize(graph, EnumSet.of(JoinMethod.OOO_PNLJ, JoinMethod.PSMJ));
            return new RelNode.IndexJoin(plan.spec(), fields, String.format(Locale.ROOT,
                    "optimizer: %s, %,d driving rows, estimated %.3g s; considered %s", plan.chosen(), rows,
                    plan.estimatedSeconds(), considered(optimizer, graph)), plan.indexJoins());
        }
        boolean selective = rows <= UNCALIBRATED_MAX_FRACTION * total;
        String why = snapshot.calibration().isPresent() ? "no statistics of every table joined (ooo analyze --cluster)"
                : "cluster not calibrated: ooo calibrate --cluster";
        return new RelNode.IndexJoin(spec, fields, String.format(Locale.ROOT,
                "%s: the range selects about %,d of %,d rows (%s)",
                selective ? JoinMethod.OOO_PNLJ : JoinMethod.PSMJ, rows, total, why), selective ? spec.probes().size() : 0);
    }

    /** The best plan of each join method alone, as EXPLAIN shows them beside the choice: "all ooo-pnlj 0.412 s, all psmj 3.10 s". */
    private static String considered(JoinOptimizer optimizer, JoinGraph graph) {
        List<String> out = new java.util.ArrayList<>();
        for (JoinMethod m : List.of(JoinMethod.OOO_PNLJ, JoinMethod.PSMJ)) {
            try {
                out.add(String.format(Locale.ROOT, "all %s %.3g s", m, optimizer.optimize(graph, EnumSet.of(m))
                        .estimatedSeconds()));
            } catch (IllegalArgumentException noPlan) {
                out.add("all " + m + " impossible");
            }
        }
        return String.join(", ", out);
    }

    /** Rows of the table, summed over every node: a node that did not answer fails the choice, naming it. */
    private static long tableRows(ClusterSnapshot snapshot, String table) {
        try {
            ClusterManifest.Table t = snapshot.manifest().table(table).orElseThrow(() -> new ClusterException(
                    "no node that answered holds it; " + ClusterManifest.describe(snapshot.manifest().unanswered())));
            if (!t.complete()) {
                throw new ClusterException(ClusterManifest.describe(t.missing()));
            }
            return t.meta().rows();
        } catch (ClusterException e) {
            throw new SqlException(SqlException.NODE_FAILURE, "choosing how to join " + table + " failed: "
                    + e.getMessage(), e);
        }
    }

    /** The optimizer over the snapshot's statistics and calibration, made again only when they changed. */
    private JoinOptimizer optimizer(ClusterSnapshot snapshot) {
        Optimizer o = optimizer;
        if (o == null || o.facts() != snapshot.facts()) {
            o = new Optimizer(snapshot.facts(), new JoinOptimizer(new CostModel(snapshot.calibration().orElseThrow()),
                    snapshot.facts()));
            optimizer = o;
        }
        return o.optimizer();
    }
}
