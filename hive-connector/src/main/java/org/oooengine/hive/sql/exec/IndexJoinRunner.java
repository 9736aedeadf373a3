package org.oooengine.hive.sql.exec;

import java.util.function.Consumer;
import org.oooengine.hive.sql.Cancellation;
import org.oooengine.optimizer.rel.RelNode;

/** Runs a chain of joins on the nodes; rows arrive as stored values in the chain's output order. */
public interface IndexJoinRunner {
    /** {@code sink} may be called from several threads at once. */
    void run(RelNode.IndexJoin join, Cancellation cancel, Consumer<Object[]> sink);
}
