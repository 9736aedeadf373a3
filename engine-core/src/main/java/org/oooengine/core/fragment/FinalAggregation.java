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
    private final List<AggregateCall> aggregates;
    private final QueryMemory memory;
    private GroupTable groups;
    /** The groups moved to disk when they outgrew the query's memory; null until then. */
    private SpilledGroups spilled;

    public FinalAggregation(int keyCount, List<AggregateCall> aggregates) {
        this(keyCount, aggregates, QueryMemory.unbounded());
    }

    /** As above, its groups held against {@code memory}. */
    public FinalAggregation(int keyCount, List<AggregateCall> aggregates, QueryMemory memory) {
        this.keyCount = keyCount;
        this.aggregates = aggregates;
        this.memory = memory;
        this.groups = new GroupTable(aggregates, memory, "final aggregation");
    }

    /** Merges a partial row; when its group does not fit, the groups so far spill to disk (where the memory allows). */
    public synchronized void accept(Object[] partial) {
        Object[] keys = Arrays.copyOf(partial, keyCount);
        try {
            groups.group(keys).merge(partial, keyCount);
        } catch (MemoryLimitExceededException full) {
            if (!memory.canSpill() || groups.isEmpty()) {
                throw full;
            }
            spillGroups();
            groups.group(keys).merge(partial, keyCount);
        }
    }

    private void spillGroups() {
        if (spilled == null) {
            spilled = new SpilledGroups(keyCount, aggregates, memory, "final aggregation");
        }
        List<Object[]> partials = new ArrayList<>(groups.groups().size());
        groups.groups().forEach(g -> partials.add(g.partial()));
        spilled.spill(partials);
        memory.release(groups.reservedBytes());
        groups = new GroupTable(aggregates, memory, "final aggregation");
    }

    /** The groups' rows: keys, then aggregate results. */
    public synchronized List<Object[]> results() {
        if (groups.isEmpty() && keyCount == 0) {
            groups.group(new Object[0]);
        }
        List<Object[]> out = new ArrayList<>(groups.groups().size());
        if (spilled != null) {
            spillGroups();
            spilled.finish(out::addAll);
            return out;
        }
        groups.groups().forEach(g -> out.add(g.result()));
        return out;
    }
}
