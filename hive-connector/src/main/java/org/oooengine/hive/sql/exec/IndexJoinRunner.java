package org.oooengine.hive.sql.exec;

import java.util.function.Consumer;
import org.oooengine.core.exec.JoinSpec;
import org.oooengine.hive.sql.Cancellation;

/** Runs an index join on the nodes; rows arrive as stored values in the spec's output order. */
public interface IndexJoinRunner {
    /** {@code sink} may be called from several threads at once. */
    void run(JoinSpec spec, Cancellation cancel, Consumer<Object[]> sink);
}
