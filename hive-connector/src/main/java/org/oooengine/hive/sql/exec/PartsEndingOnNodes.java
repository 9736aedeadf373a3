package org.oooengine.hive.sql.exec;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.oooengine.core.fragment.PipelineStep;
import org.oooengine.optimizer.rel.Field;
import org.oooengine.optimizer.rel.RelNode;

/**
 * The parts of a placed plan that end it on the nodes, each as the nodes run it to its last
 * step, so that they can write the rows it produces into files where they come out (an INSERT's):
 * a pipeline, a join of inputs shuffled by key, steps over rows shuffled by key, or a GROUP BY
 * whose groups the nodes merge; filters and projections the plan runs after one of those on the
 * coordinator are moved onto its nodes; each input of a UNION ALL of such parts is one. None
 * where the plan's rows meet on the coordinator (a sort, a limit, a GROUP BY merged there).
 */
final class PartsEndingOnNodes {
    private PartsEndingOnNodes() {
    }

    /** The parts of the plan that ends in {@code node}, or none where its rows meet on the coordinator. */
    static List<RelNode> of(RelNode node) {
        if (node instanceof RelNode.Filter f) {
            return then(of(f.input()), new PipelineStep.Filter(f.condition()), f.input().fields());
        }
        if (node instanceof RelNode.Project p) {
            return then(of(p.input()), new PipelineStep.Project(p.exprs()), p.fields());
        }
        if (node instanceof RelNode.Union u) {
            List<RelNode> parts = new ArrayList<>();
            for (RelNode input : u.inputs()) {
                List<RelNode> more = of(input);
                if (more.isEmpty()) {
                    return List.of();
                }
                parts.addAll(more);
            }
            return parts;
        }
        if (node instanceof RelNode.FinalAggregate a && a.onNodes() && a.input() instanceof RelNode.NodePipeline p) {
            // the partial groups shuffled by all of their keys: each node merges whole groups
            return List.of(new RelNode.ShuffledSteps(p, IntStream.range(0, a.keyCount()).boxed().toList(),
                    List.of(new PipelineStep.MergePartials(a.keyCount(), a.aggregates())), a.fields()));
        }
        if (node instanceof RelNode.NodePipeline || node instanceof RelNode.ShuffledJoin
                || node instanceof RelNode.ShuffledSteps) {
            return List.of(node);
        }
        return List.of();
    }

    /** Each of {@code parts} with {@code step} run after it on its nodes, giving rows of {@code out}; none where one cannot. */
    private static List<RelNode> then(List<RelNode> parts, PipelineStep step, List<Field> out) {
        List<RelNode> after = new ArrayList<>();
        for (RelNode part : parts) {
            RelNode more = then(part, step, out);
            if (more == null) {
                return List.of();
            }
            after.add(more);
        }
        return after;
    }

    /** {@code part} with {@code step} run after it on its nodes, giving rows of {@code out}; null where it cannot be. */
    private static RelNode then(RelNode part, PipelineStep step, List<Field> out) {
        if (part instanceof RelNode.ShuffledJoin j) {
            return j.then(step, out);
        }
        if (part instanceof RelNode.ShuffledSteps w) {
            return w.ended() ? null : w.then(step, out);
        }
        if (part instanceof RelNode.NodePipeline p && !endsInOrder(p)) {
            List<PipelineStep> steps = new ArrayList<>(p.steps());
            steps.add(step);
            return new RelNode.NodePipeline(p.scan(), steps, p.broadcasts(), p.shuffles(), out, p.slicedBy(),
                    p.slicedAlike());
        }
        return null;
    }

    /** Whether each node's rows of {@code p} come in an order or a number the coordinator goes on from. */
    private static boolean endsInOrder(RelNode.NodePipeline p) {
        PipelineStep last = p.steps().isEmpty() ? null : p.steps().get(p.steps().size() - 1);
        return last instanceof PipelineStep.TopN || last instanceof PipelineStep.Sort || last instanceof PipelineStep.Limit;
    }
}
