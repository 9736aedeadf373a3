package org.oooengine.hive.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.oooengine.core.cluster.ExecutionMode;
import org.oooengine.core.exec.JoinSpec;
import org.oooengine.hive.sql.Cancellation;
import org.oooengine.hive.sql.exec.IndexJoinRunner;
import org.oooengine.optimizer.rel.RelNode;
import org.oooengine.mapreduce.JoinJobs;
import org.oooengine.optimizer.JoinOptimizer;

/**
 * Runs a join chain as the MapReduce jobs of its plan: all index joins as one map-only job over
 * the out-of-order join input format; no index joins as a chain of PSMJ jobs, one per join; a
 * hybrid as the map-only job for the leading index joins, then PSMJ jobs for the rest.
 */
final class MapReduceJoinRunner implements IndexJoinRunner {
    private final MapReduceJobs jobs;

    MapReduceJoinRunner(MapReduceJobs jobs) {
        this.jobs = jobs;
    }

    @Override
    public Lookups run(RelNode.IndexJoin join, Cancellation cancel, Consumer<Object[]> sink) {
        JoinSpec spec = join.spec();
        int joins = spec.probes().size();
        int indexJoins = join.indexJoins();
        int budget = JoinOptimizer.DEFAULT_BUDGET;
        int reducers = jobs.reducers();
        jobs.run("join of " + String.join(", ", spec.tables()), cancel, (conf, cluster, secret, output) -> {
            if (indexJoins == joins) {
                JoinJobs.oooJoin(conf, cluster, secret, spec, ExecutionMode.OOO, budget, output);
            } else if (indexJoins == 0) {
                JoinJobs.psmj(conf, cluster, secret, spec, reducers, output);
            } else {
                JoinJobs.hybrid(conf, cluster, secret, spec, indexJoins, budget, reducers, output);
            }
        }, sink);
        return null; // the jobs' tasks count their own lookups
    }

    /** The jobs {@link #run} runs for {@code join}, in order, for EXPLAIN. */
    static List<String> jobNames(RelNode.IndexJoin join) {
        int joins = join.spec().probes().size();
        List<String> names = new ArrayList<>();
        if (join.indexJoins() > 0) {
            names.add(join.allIndexJoins() ? "OoO join map-only job"
                    : "OoO join map-only job for the first " + join.indexJoins() + " join(s)");
        }
        int stages = joins - join.indexJoins();
        for (int stage = 1; stage <= stages; stage++) {
            names.add("PSMJ stage " + stage + "/" + stages);
        }
        return names;
    }
}
