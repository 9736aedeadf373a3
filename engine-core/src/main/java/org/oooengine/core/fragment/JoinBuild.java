package org.oooengine.core.fragment;

import java.util.List;

/**
 * Where the build side of a node's hash join comes from: its own partition of another table
 * co-partitioned on the join key ({@link Local}), or rows the coordinator computed and sent to
 * every node ({@link Rows}, or {@link Staged} ahead of the pipeline when they are too many for
 * one frame). {@link Broadcast} is the coordinator's placeholder for rows it has yet to compute;
 * it never travels.
 */
public sealed interface JoinBuild {
    /** The rows of a pipeline run over this node's partition of its table. */
    record Local(ScanPipeline pipeline) implements JoinBuild {
    }

    /** The same rows on every node. */
    record Rows(List<Object[]> rows) implements JoinBuild {
        public Rows {
            rows = List.copyOf(rows);
        }
    }

    /** Rows sent to the node before the pipeline, in chunks, under {@code id} ({@link StagedRows}). */
    record Staged(String id) implements JoinBuild {
    }

    /** The coordinator's input number {@code slot}, replaced by its {@link Rows} before the pipeline is sent. */
    record Broadcast(int slot) implements JoinBuild {
    }
}
