package org.oooengine.cluster.bench;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.oooengine.core.cluster.FragmentStats;
import org.oooengine.optimizer.plan.Plan;

/**
 * One timed join run; its JSON form (snake_case fields) is what {@code --json} prints. On a cluster
 * it also carries the node count, the requests nodes sent each other, the frames those travelled
 * in (batching), and each node's own figures; page reads and I/Os in flight are then sums and
 * maxima over the nodes. The cluster fields are left out of single-node runs. MapReduce modes add
 * the wall time of an empty job on the same framework (start-up, which their seconds include),
 * and each job of the run with its time and, for an optimizer's plan, its estimate.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record JoinResult(String query, JoinMode mode, Double sf, double selectivity, double actualSelectivity,
                         long outerRows, long rows, long checksum, double seconds, long pageReads, long bytesRead,
                         double iops, Integer inflight, int maxIoInflight, int maxTasksInflight, long tasks,
                         long bufferPoolHits, long bufferPoolMisses, boolean cold, long bufferPoolMb, int run,
                         @JsonInclude(JsonInclude.Include.NON_NULL) Integer nodes,
                         @JsonInclude(JsonInclude.Include.NON_NULL) Long remoteRequests,
                         @JsonInclude(JsonInclude.Include.NON_NULL) Long requestFrames,
                         @JsonInclude(JsonInclude.Include.NON_NULL) List<FragmentStats> perNode,
                         @JsonInclude(JsonInclude.Include.NON_NULL) Double jobStartupSeconds,
                         @JsonInclude(JsonInclude.Include.NON_NULL) String chosen,
                         @JsonInclude(JsonInclude.Include.NON_NULL) Double estimatedSeconds,
                         @JsonInclude(JsonInclude.Include.NON_NULL) List<JobRun> jobs) {

    /** One MapReduce job of a run: its name, rows written, wall seconds and, in a plan, its estimate. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record JobRun(String name, long rows, double seconds,
                         @JsonInclude(JsonInclude.Include.NON_NULL) Double estimatedSeconds) {
    }

    /** This run as the run of an optimizer's plan: its join methods in order, its estimate and its jobs' estimates. */
    public JoinResult withPlan(Plan plan) {
        List<JobRun> estimated = jobs;
        List<Plan.Job> planned = plan.jobs();
        if (jobs != null && jobs.size() == planned.size()) {
            estimated = new ArrayList<>();
            for (int i = 0; i < jobs.size(); i++) {
                JobRun j = jobs.get(i);
                estimated.add(new JobRun(j.name(), j.rows(), j.seconds(), planned.get(i).estimatedSeconds()));
            }
        }
        return new JoinResult(query, mode, sf, selectivity, actualSelectivity, outerRows, rows, checksum, seconds, pageReads,
                bytesRead, iops, inflight, maxIoInflight, maxTasksInflight, tasks, bufferPoolHits, bufferPoolMisses, cold,
                bufferPoolMb, run, nodes, remoteRequests, requestFrames, perNode, jobStartupSeconds, plan.chosen(),
                plan.estimatedSeconds(), estimated);
    }

    /** Each job's seconds, in order; null for a run without jobs. */
    public List<Double> jobSeconds() {
        return jobs == null ? null : jobs.stream().map(JobRun::seconds).toList();
    }

    /** True when both runs returned the same rows (count and order-independent checksum). */
    public boolean sameRowsAs(JoinResult other) {
        return rows == other.rows && checksum == other.checksum;
    }

    /** A one-line human-readable form. */
    public String summary() {
        String budget = inflight == null ? "" : "/" + inflight;
        return String.format(Locale.ROOT,
                "%s %s  %s%s  run %d: %,d rows in %s s  %,d page reads  %,.0f IOPS  max %d I/Os in flight  "
                        + "(%,d outer rows, actual selectivity %.5f, checksum %d)",
                query, Format.percent(selectivity), mode, budget, run, rows, Format.seconds(seconds), pageReads, iops, maxIoInflight,
                outerRows, actualSelectivity, checksum)
                + (estimatedSeconds == null ? "" : "  plan " + chosen + ", estimated " + Format.seconds(estimatedSeconds) + " s");
    }
}
