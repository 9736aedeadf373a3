package org.oooengine.optimizer.rel;

import java.util.BitSet;
import java.util.List;
import org.oooengine.core.fragment.Pipeline;
import org.oooengine.core.fragment.PipelineStep;
import org.oooengine.core.sql.JoinKind;

/**
 * Where the values of a scanned column are among a pipeline's columns, step after step, as long
 * as each row stays on the node that read it: the column itself where a step keeps it, and the
 * build's key of an inner join on it, which holds the same value. Of a table whose files hold the
 * column in order ({@link TableLayouts#ordered}), a join on such a column can send each build row
 * only to the nodes whose splits hold its key.
 */
final class RangeColumn {
    private RangeColumn() {
    }

    /** The columns holding scan column {@code column}'s value after {@code steps} over the scan's {@code width} columns. */
    static BitSet holding(List<PipelineStep> steps, int width, int column) {
        BitSet at = new BitSet();
        at.set(column);
        for (PipelineStep step : steps) {
            if (step instanceof PipelineStep.HashJoin j && j.kind().rightOnly()) {
                return new BitSet(); // the build's rows come out, from wherever they were
            }
            BitSet next = new BitSet();
            for (int p = at.nextSetBit(0); p >= 0; p = at.nextSetBit(p + 1)) {
                int kept = PartitionColumn.after(step, p);
                if (kept >= 0) {
                    next.set(kept);
                }
                if (step instanceof PipelineStep.HashJoin j && j.kind() == JoinKind.INNER && j.probeKeys().contains(p)) {
                    next.set(width + j.buildKeys().get(j.probeKeys().indexOf(p)));
                }
            }
            width = Pipeline.widthAfter(step, width);
            at = next;
        }
        return at;
    }
}
