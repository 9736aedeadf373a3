package org.oooengine.optimizer.plan;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.Collectors;
import org.oooengine.core.exec.JoinSpec;
import org.oooengine.optimizer.cost.CostModel;
import org.oooengine.optimizer.cost.CostTerms;

/**
 * A left-deep plan the optimizer chose: its operators, the estimate of the whole, and how it runs —
 * index joins first (one pipeline on the daemons), then PSMJ jobs for the rest.
 *
 * @param graph    the query
 * @param root     the last join
 * @param budget   tasks in flight per node for its index joins
 * @param pipeline the estimated parts of its index-join pipeline; null without index joins
 */
public record Plan(JoinGraph graph, PlanNode.Join root, int budget, CostModel.PipelineTime pipeline) {

    public double estimatedSeconds() {
        return root.seconds();
    }

    public double estimatedRows() {
        return root.rows();
    }

    /** The joins in the order they run. */
    public List<PlanNode.Join> joins() {
        List<PlanNode.Join> out = new ArrayList<>();
        PlanNode n = root;
        while (n instanceof PlanNode.Join j) {
            out.add(j);
            n = j.left();
        }
        Collections.reverse(out);
        return out;
    }

    public PlanNode.Scan scan() {
        PlanNode n = root;
        while (n instanceof PlanNode.Join j) {
            n = j.left();
        }
        return (PlanNode.Scan) n;
    }

    public List<JoinMethod> methods() {
        return joins().stream().map(PlanNode.Join::method).toList();
    }

    /** The methods in join order, as reports print them: {@code ooo-pnlj,psmj}. */
    public String chosen() {
        return methods().stream().map(JoinMethod::toString).collect(Collectors.joining(","));
    }

    /** How many joins at the start run as index joins; the rest are PSMJ jobs. */
    public int indexJoins() {
        return (int) methods().stream().filter(JoinMethod::indexJoin).count();
    }

    /** A MapReduce job this plan runs: what it does and its estimate, start-up included. */
    public record Job(String name, CostTerms estimate) {
        public double estimatedSeconds() {
            return estimate.seconds();
        }
    }

    /**
     * The MapReduce jobs this plan runs when its joins run as jobs, in order: the map-only job of
     * its index joins if PSMJ joins follow them, then one job per PSMJ join. None for a plan of
     * index joins only, which the daemons run without a job.
     */
    public List<Job> jobs() {
        List<Job> out = new ArrayList<>();
        PlanNode left = scan();
        for (PlanNode.Join j : joins()) {
            if (j.method() == JoinMethod.PSMJ) {
                List<CostTerms> jobs = j.jobs();
                if (left instanceof PlanNode.Join pipeline && pipeline.method().indexJoin()) {
                    out.add(new Job("index joins up to " + pipeline.alias() + " (map-only)", jobs.get(0)));
                }
                out.add(new Job("psmj " + j.alias(), jobs.get(jobs.size() - 1)));
            }
            left = j;
        }
        return out;
    }

    public boolean allIndexJoins() {
        return indexJoins() == joins().size();
    }

    /** The join chain in this plan's order, for the executors. */
    public JoinSpec spec() {
        PlanNode.Scan scan = scan();
        List<JoinSpec.Probe> probes = joins().stream()
                .map(j -> new JoinSpec.Probe(j.from(), j.table(), j.column(), j.alias())).toList();
        return new JoinSpec(scan.table(), scan.alias(), scan.range(), probes, graph.output());
    }
}
