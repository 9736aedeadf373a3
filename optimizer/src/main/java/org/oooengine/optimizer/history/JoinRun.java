package org.oooengine.optimizer.history;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.oooengine.optimizer.cost.Calibration;
import org.oooengine.optimizer.cost.CostTerms;
import org.oooengine.optimizer.plan.Plan;

/**
 * One run of a planned join as the cluster's history keeps it: what the optimizer estimated for
 * each part that was timed on its own and what that part took. A plan of index joins only is one
 * part, the daemons' pipeline; a plan with PSMJ joins has a part per MapReduce job.
 *
 * @param at           when it ran (ISO-8601)
 * @param query        the query's name ({@code PL}, {@code Q8})
 * @param selectivity  the driving range's share of its table
 * @param chosen       the plan's join methods in order
 * @param cold         whether the caches were emptied before the run (the cost models price cold runs)
 * @param estimatedRows rows the plan was estimated to return
 * @param rows         rows it returned
 * @param parts        the parts timed
 * @param figures      the calibration's figures the refit fits, as the estimates were priced with, by {@link RefitFigure#path}
 */
public record JoinRun(String at, String query, double selectivity, String chosen, boolean cold, double estimatedRows,
                      long rows, List<Part> parts, Map<String, Double> figures) {
    public JoinRun {
        parts = List.copyOf(parts);
        figures = Map.copyOf(figures);
    }

    /**
     * One part of a run.
     *
     * @param name     the pipeline or the job
     * @param estimate its estimate by what prices it
     * @param seconds  its measured wall time
     */
    public record Part(String name, CostTerms estimate, double seconds) {
    }

    /**
     * A run of {@code plan} that took {@code seconds} in all, each of its MapReduce jobs as {@code jobSeconds}
     * (null or empty when it ran no job); null when the jobs measured do not match the plan's.
     */
    public static JoinRun of(Plan plan, Calibration calibration, String query, double selectivity, boolean cold,
                             long rows, double seconds, List<Double> jobSeconds) {
        List<Part> parts = new ArrayList<>();
        List<Plan.Job> jobs = plan.jobs();
        if (jobs.isEmpty()) {
            parts.add(new Part("index-join pipeline", plan.pipeline().terms(), seconds));
        } else {
            if (jobSeconds == null || jobSeconds.size() != jobs.size()) {
                return null;
            }
            for (int i = 0; i < jobs.size(); i++) {
                parts.add(new Part(jobs.get(i).name(), jobs.get(i).estimate(), jobSeconds.get(i)));
            }
        }
        return new JoinRun(Instant.now().toString(), query, selectivity, plan.chosen(), cold, plan.estimatedRows(), rows,
                parts, RefitFigure.valuesOf(calibration));
    }
}
