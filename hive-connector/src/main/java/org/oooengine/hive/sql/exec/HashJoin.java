package org.oooengine.hive.sql.exec;

import java.util.ArrayList;
import java.util.List;
import org.oooengine.core.fragment.HashJoinTable;
import org.oooengine.core.fragment.QueryMemory;
import org.oooengine.core.sql.JoinKind;
import org.oooengine.hive.sql.Cancellation;
import org.oooengine.optimizer.rel.RelNode;

/**
 * A hash join on the coordinator ({@link HashJoinTable}: the right side built, the left side
 * probing it), checking for cancellation between batches of left rows — a single row at a time
 * for a cross join, which may do a whole table's work for each.
 */
final class HashJoin {
    private static final int BATCH_ROWS = 1024;

    private HashJoin() {
    }

    static List<Object[]> run(RelNode.Join j, List<Object[]> left, List<Object[]> right, Cancellation cancel,
                              QueryMemory memory) {
        memory.reserve("hash join build of " + right.size() + " rows",
                QueryMemory.rowsBytes(right) + HashJoinTable.ENTRY_BYTES * right.size());
        HashJoinTable table = new HashJoinTable(j.kind(), right, j.rightKeys(), j.leftKeys(), j.residual(),
                j.left().fields().size(), j.right().fields().size());
        int batch = j.kind() == JoinKind.CROSS ? 1 : BATCH_ROWS;
        List<Object[]> out = new ArrayList<>();
        for (int from = 0; from < left.size(); from += batch) {
            cancel.check();
            out.addAll(table.probe(left.subList(from, Math.min(left.size(), from + batch))));
        }
        out.addAll(table.buildRowsAtEnd());
        return out;
    }
}
