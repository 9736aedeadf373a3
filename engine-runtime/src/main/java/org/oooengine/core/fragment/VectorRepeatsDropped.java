package org.oooengine.core.fragment;

import org.oooengine.core.vector.Batch;

/**
 * A {@link PipelineStep.DropRepeats} on column batches: the keys seen are the groups of a partial
 * aggregate without aggregates ({@link VectorAggregation#unseen}); as {@link RepeatsDropped}, it
 * stops looking once too few of its first rows repeat.
 */
final class VectorRepeatsDropped {
    private final VectorAggregation seen;
    private final int keepPercent;
    private long rowsLooked;
    private long rowsKept;
    private boolean stopped;

    private VectorRepeatsDropped(VectorAggregation seen, int keepPercent) {
        this.seen = seen;
        this.keepPercent = keepPercent;
    }

    /** The vector form of {@code step}, or null when a key is of a type vectors do not hold. */
    static VectorRepeatsDropped of(PipelineStep.DropRepeats step, QueryMemory memory) {
        VectorAggregation seen = VectorAggregation.keysSeen(step, memory);
        return seen == null ? null : new VectorRepeatsDropped(seen, step.keepPercent());
    }

    /** The batch's rows whose keys no row before them had (since it last forgot); all of them once it stopped looking. */
    Batch kept(Batch batch) {
        if (stopped) {
            return batch;
        }
        Batch kept = seen.unseen(batch);
        rowsLooked += batch.size();
        rowsKept += kept.size();
        if (!RepeatsDropped.worthLooking(rowsLooked, rowsKept, keepPercent)) {
            stopped = true;
            seen.forget();
        }
        return kept;
    }
}
