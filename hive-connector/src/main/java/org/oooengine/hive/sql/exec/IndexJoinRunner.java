package org.oooengine.hive.sql.exec;

import java.util.List;
import java.util.function.Consumer;
import org.oooengine.core.fragment.PipelineStep;
import org.oooengine.hive.sql.Cancellation;
import org.oooengine.optimizer.rel.RelNode;

/** Runs a chain of joins on the nodes; rows arrive as stored values in the chain's output order. */
public interface IndexJoinRunner {
    /**
     * What the nodes did to look the join's keys up, summed over them: probes answered on the node
     * of the row that probed, requests to other nodes and the frames they travelled in (several
     * to a frame), and pages read from the disks; null where the runner does not know (a MapReduce
     * job's).
     */
    record Lookups(long localProbes, long remoteRequests, long requestFrames, long pageReads) {
    }

    /** {@code sink} may be called from several threads at once; returns what the nodes did, or null. */
    Lookups run(RelNode.IndexJoin join, Cancellation cancel, Consumer<Object[]> sink);

    /**
     * As above, each node running {@code steps} (the join's, their broadcast rows put in) over its
     * share of the rows and sending what comes out, as SQL values. Only runners on the node
     * daemons can.
     */
    default Lookups run(RelNode.IndexJoinSteps join, List<PipelineStep> steps, Cancellation cancel, Consumer<Object[]> sink) {
        throw new IllegalStateException("steps after an index join run on the node daemons only");
    }
}
