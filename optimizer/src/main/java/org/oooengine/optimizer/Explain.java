package org.oooengine.optimizer;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.oooengine.optimizer.cost.CostModel;
import org.oooengine.optimizer.plan.Plan;
import org.oooengine.optimizer.plan.PlanNode;

/**
 * A plan as EXPLAIN prints it: one line per operator, the last join on top, each with its
 * estimated rows and the seconds it adds; EXPLAIN ANALYZE puts the measured figures beside them.
 * Index joins of one pipeline overlap in time, so a run measures the rows of the driving scan and
 * the rows and time of the whole plan, not each join's own seconds; a plan with PSMJ joins also
 * lists its MapReduce jobs, each timed on its own.
 */
public final class Explain {
    private Explain() {
    }

    /**
     * What a run of the plan measured; null fields were not measured.
     *
     * @param jobSeconds each MapReduce job's seconds, in the order of {@link Plan#jobs()}
     */
    public record Actual(Long outerRows, Long rows, Double seconds, List<Double> jobSeconds) {
        public Actual(Long outerRows, Long rows, Double seconds) {
            this(outerRows, rows, seconds, null);
        }
    }

    public static String text(Plan plan) {
        return text(plan, null);
    }

    public static String text(Plan plan, Actual actual) {
        List<String> lines = new ArrayList<>();
        lines.add(String.format(Locale.ROOT, "%s: %s, estimated %s rows in %s s%s", plan.graph().name(), plan.chosen(),
                count(plan.estimatedRows()), seconds(plan.estimatedSeconds()),
                actual == null ? "" : String.format(Locale.ROOT, "; actual %s rows in %s s (estimate %s)",
                        count(actual.rows()), seconds(actual.seconds()), ratio(plan.estimatedSeconds(), actual.seconds()))));
        List<PlanNode.Join> joins = plan.joins();
        int depth = 0;
        for (int i = joins.size() - 1; i >= 0; i--) {
            PlanNode.Join j = joins.get(i);
            String what = String.format(Locale.ROOT, "%s %s%s ON %s = %s.%s", j.method(), j.table(),
                    j.alias().equals(j.table()) ? "" : " AS " + j.alias(), j.from(), j.alias(), j.column());
            String act = i == joins.size() - 1 && actual != null && actual.rows() != null
                    ? "  | actual rows " + count(actual.rows()) : "";
            lines.add(line(depth++, what, j.rows(), j.ownSeconds()) + act);
        }
        PlanNode.Scan s = plan.scan();
        String scan = String.format(Locale.ROOT, "%s %s%s WHERE %s", s.path(), s.table(),
                s.alias().equals(s.table()) ? "" : " AS " + s.alias(), s.predicate());
        String act = actual != null && actual.outerRows() != null ? "  | actual rows " + count(actual.outerRows()) : "";
        lines.add(line(depth, scan, s.rows(), s.seconds()) + act);
        if (plan.indexJoins() > 0) {
            lines.add(String.format(Locale.ROOT, "index joins run with %d probes in flight per node%s", plan.budget(),
                    plan.allIndexJoins() ? "" : ", in a map-only job whose output the PSMJ jobs read"));
            CostModel.PipelineTime t = plan.pipeline();
            lines.add(String.format(Locale.ROOT, "index-join pipeline: fixed ~%s s, disk ~%s s, CPU and network ~%s s, %s",
                    seconds(t.fixed()), seconds(t.disk()), seconds(t.cpu()),
                    t.overlapped() ? "overlapping (out of order)" : "one after the other (in order)"));
        }
        List<Plan.Job> jobs = plan.jobs();
        if (!jobs.isEmpty()) {
            lines.add("MapReduce jobs, in order:");
            for (int i = 0; i < jobs.size(); i++) {
                Plan.Job job = jobs.get(i);
                Double took = actual == null || actual.jobSeconds() == null || i >= actual.jobSeconds().size()
                        ? null : actual.jobSeconds().get(i);
                lines.add(String.format(Locale.ROOT, "  %-40s ~%s s%s", job.name(), seconds(job.estimatedSeconds()),
                        took == null ? "" : String.format(Locale.ROOT, "  | actual %s s (estimate %s)", seconds(took),
                                ratio(job.estimatedSeconds(), took))));
            }
        }
        return String.join("\n", lines);
    }

    private static String line(int depth, String what, double rows, double ownSeconds) {
        String indent = depth == 0 ? "" : "   ".repeat(depth - 1) + "└─ ";
        return String.format(Locale.ROOT, "%-90s rows ~%-12s ~%s s", indent + what, count(rows), seconds(ownSeconds));
    }

    private static String count(Number n) {
        return n == null ? "?" : String.format(Locale.ROOT, "%,d", Math.round(n.doubleValue()));
    }

    private static String seconds(Double s) {
        if (s == null) {
            return "?";
        }
        return s < 0.1 ? String.format(Locale.ROOT, "%.4f", s) : String.format(Locale.ROOT, "%.2f", s);
    }

    private static String ratio(double estimate, Double actual) {
        return actual == null || actual <= 0 ? "?" : String.format(Locale.ROOT, "%.2fx", estimate / actual);
    }
}
