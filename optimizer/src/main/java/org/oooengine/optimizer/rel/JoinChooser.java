package org.oooengine.optimizer.rel;

import org.oooengine.core.exec.JoinSpec;

/**
 * Decides whether a chain of inner joins runs as the engine's out-of-order index join, given
 * the chain as an index join would run it. The cluster's implementation asks the optimizer.
 */
public interface JoinChooser {
    /** Never an index join: hash joins over full scans. */
    JoinChooser HASH_JOINS_ONLY = (spec, fields) -> null;

    /**
     * The index join to run (possibly with its probes reordered), described for EXPLAIN; or null
     * to join by hashing scanned rows instead.
     */
    RelNode.IndexJoin choose(JoinSpec spec, java.util.List<Field> fields);
}
