package org.oooengine.core.exec;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.oooengine.core.store.Store;
import org.oooengine.core.store.Table;

/**
 * The full-scan baseline: scan the outer table with the range as a filter and build an in-memory
 * hash table on the join column, then scan the inner table and probe it. Touches every page of
 * both tables, sequentially — what a scan-based engine does whatever the selectivity.
 */
public final class HashJoin {
    private final Store store;
    private final JoinSpec spec;

    public HashJoin(Store store, JoinSpec spec) {
        this.store = store;
        this.spec = spec;
    }

    private static int[] with(int[] positions, int... more) {
        int[] out = java.util.Arrays.copyOf(positions, positions.length + more.length);
        System.arraycopy(more, 0, out, positions.length, more.length);
        return out;
    }

    public ExecutionStats run(RowSink sink) {
        JoinSpec.Probe probe = spec.onlyProbe("the hash join");
        Table outer = store.table(spec.outerTable());
        Table inner = store.table(spec.innerTable());
        JoinOutput output = new JoinOutput(spec, List.of(outer, inner));
        int outerJoin = outer.schema().indexOf(probe.fromColumn());
        int innerJoin = inner.schema().indexOf(probe.column());
        int rangeColumn = outer.schema().indexOf(spec.outerRange().column());
        return ExecutionStats.measure(store, () -> {
            Map<Object, List<Object[]>> build = new HashMap<>();
            FullScan.run(outer, with(output.outerPositions(), outerJoin, rangeColumn), new Filter(spec.outerRange().predicate(rangeColumn),
                    row -> build.computeIfAbsent(row[outerJoin], k -> new ArrayList<>(1)).add(row)));
            FullScan.run(inner, with(output.innerPositions(), innerJoin), innerRow -> {
                List<Object[]> matches = build.get(innerRow[innerJoin]);
                if (matches != null) {
                    for (Object[] outerRow : matches) {
                        sink.accept(output.combine(outerRow, innerRow));
                    }
                }
            });
            return null;
        });
    }
}
