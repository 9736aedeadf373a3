package org.oooengine.hive.engine;

import java.util.List;
import java.util.function.Consumer;
import org.oooengine.core.fragment.PipelineStep;
import org.oooengine.core.cluster.ClusterSession;
import org.oooengine.core.cluster.ExecutionMode;
import org.oooengine.core.cluster.FragmentStats;
import org.oooengine.core.cluster.JoinOutputSteps;
import org.oooengine.hive.sql.Cancellation;
import org.oooengine.hive.sql.exec.IndexJoinRunner;
import org.oooengine.optimizer.rel.Field;
import org.oooengine.optimizer.rel.RelNode;
import org.oooengine.optimizer.JoinOptimizer;

/** Runs an index join out of order on every node at once, with the optimizer's in-flight budget per node. */
final class ClusterIndexJoinRunner implements IndexJoinRunner {
    private final ClusterSession cluster;

    ClusterIndexJoinRunner(ClusterSession cluster) {
        this.cluster = cluster;
    }

    @Override
    public Lookups run(RelNode.IndexJoin join, Cancellation cancel, Consumer<Object[]> sink) {
        return run(join, null, cancel, sink);
    }

    @Override
    public Lookups run(RelNode.IndexJoinSteps join, List<PipelineStep> steps, Cancellation cancel, Consumer<Object[]> sink) {
        JoinOutputSteps after = new JoinOutputSteps(join.join().fields().stream().map(Field::type).toList(), steps);
        return run(join.join(), after, cancel, sink);
    }

    private Lookups run(RelNode.IndexJoin join, JoinOutputSteps after, Cancellation cancel, Consumer<Object[]> sink) {
        if (!join.allIndexJoins()) {
            throw new IllegalStateException("the node daemons run index joins only; sort-merge joins are MapReduce jobs");
        }
        cancel.check();
        ClusterSession.JoinRun run;
        try {
            run = cluster.join(join.spec(), ExecutionMode.OOO, JoinOptimizer.DEFAULT_BUDGET, after, sink::accept);
        } catch (RuntimeException e) {
            throw Faults.of("index join on " + join.spec().outerTable() + " failed: ", e);
        }
        List<FragmentStats> f = run.fragments();
        return new Lookups(f.stream().mapToLong(FragmentStats::localProbes).sum(),
                f.stream().mapToLong(FragmentStats::remoteRequests).sum(),
                f.stream().mapToLong(FragmentStats::requestFrames).sum(), run.pageReads());
    }
}
