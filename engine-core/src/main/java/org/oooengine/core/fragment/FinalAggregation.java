package org.oooengine.core.fragment;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.oooengine.core.sql.expr.AggregateCall;

/**
 * The second half of a split GROUP BY: merges the partial states the nodes sent (rows of
 * {@code keyCount} keys, then {@link AggregateCall#PARTIAL_WIDTH} values per aggregate) into each
 * group's result. Without keys there is exactly one result row, also when no node had a row.
 */
public final class FinalAggregation {
    private final int keyCount;
    private final GroupTable groups;

    public FinalAggregation(int keyCount, List<AggregateCall> aggregates) {
        this(keyCount, aggregates, QueryMemory.unbounded());
    }

    /** As above, its groups held against {@code memory}. */
    public FinalAggregation(int keyCount, List<AggregateCall> aggregates, QueryMemory memory) {
        this.keyCount = keyCount;
        this.groups = new GroupTable(aggregates, memory, "final aggregation");
    }

    public synchronized void accept(Object[] partial) {
        groups.group(Arrays.copyOf(partial, keyCount)).merge(partial, keyCount);
    }

    /** The groups' rows: keys, then aggregate results. */
    public synchronized List<Object[]> results() {
        if (groups.isEmpty() && keyCount == 0) {
            groups.group(new Object[0]);
        }
        List<Object[]> out = new ArrayList<>(groups.groups().size());
        groups.groups().forEach(g -> out.add(g.result()));
        return out;
    }
}
