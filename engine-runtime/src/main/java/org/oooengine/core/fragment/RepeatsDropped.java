package org.oooengine.core.fragment;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.oooengine.core.sql.expr.Expr;
import org.oooengine.core.sql.expr.Values;

/**
 * A {@link PipelineStep.DropRepeats} on rows of SQL values: the keys seen, under GROUP BY's
 * equality ({@link Values#groupKey}), held against the query's memory up to a share of it, then
 * forgotten. Thread-safe: a pipeline's batches may come from several threads.
 */
final class RepeatsDropped {
    /** The rows it looks at before it weighs the new ones against them. */
    static final long SAMPLE_ROWS = 100_000;

    private final Expr[] keys;
    private final int keepPercent;
    private final QueryMemory memory;
    private final long share;
    private final Set<List<Object>> seen = new HashSet<>();
    private long held;
    private long rowsLooked;
    private long rowsKept;
    private boolean stopped;

    RepeatsDropped(PipelineStep.DropRepeats step, QueryMemory memory) {
        this.keys = step.keys().toArray(Expr[]::new);
        this.keepPercent = step.keepPercent();
        this.memory = memory;
        this.share = Math.max(1 << 20, memory.limit() / Pipeline.PARTIAL_SHARE);
    }

    /** The rows whose keys no row before them had (since it last forgot); all of them once it stopped looking. */
    synchronized List<Object[]> kept(List<Object[]> rows) {
        if (stopped) {
            return rows;
        }
        List<Object[]> kept = new ArrayList<>(rows.size());
        for (Object[] row : rows) {
            List<Object> key = new ArrayList<>(keys.length);
            for (Expr k : keys) {
                key.add(Values.groupKey(k.eval(row)));
            }
            if (seen.contains(key)) {
                continue;
            }
            long bytes = 64L + 2 * QueryMemory.rowBytes(key.toArray());
            if (held + bytes > share) {
                forget();
            }
            if (reserved(bytes)) {
                seen.add(key);
                held += bytes;
            } else {
                forget(); // the query needs the memory more: the rows after it may repeat this one
            }
            kept.add(row);
        }
        rowsLooked += rows.size();
        rowsKept += kept.size();
        if (!worthLooking(rowsLooked, rowsKept, keepPercent)) {
            stopped = true;
            forget();
        }
        return kept;
    }

    /** Whether, of the rows looked at, few enough were new to go on looking: too few repeat, not worth it. */
    static boolean worthLooking(long rowsLooked, long rowsKept, int keepPercent) {
        return rowsLooked < SAMPLE_ROWS || 100 * rowsKept <= (long) keepPercent * rowsLooked;
    }

    private boolean reserved(long bytes) {
        try {
            memory.reserve("repeats dropped", bytes);
            return true;
        } catch (MemoryLimitExceededException full) {
            return false;
        }
    }

    private void forget() {
        seen.clear();
        memory.release(held);
        held = 0;
    }
}
