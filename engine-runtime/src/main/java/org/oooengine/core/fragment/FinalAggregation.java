package org.oooengine.core.fragment;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.oooengine.core.sql.expr.AggregateCall;
import org.oooengine.core.wire.ColumnarRows;

/**
 * The second half of a split GROUP BY: merges the partial states the nodes sent (rows of
 * {@code keyCount} keys, then {@link AggregateCall#PARTIAL_WIDTH} values per aggregate) into each
 * group's result; or a whole GROUP BY of input rows. Groups that outgrow the query's memory spill
 * to disk ({@link SpilledGroups}). Without keys there is exactly one result row, also when no row
 * came.
 */
public final class FinalAggregation {
    private final int keyCount;
    private final List<AggregateCall> aggregates;
    private final QueryMemory memory;
    private final String operator;
    private GroupTable groups;
    /** The groups merged from partial rows when every aggregate keeps a count and one value; else null. */
    private final MergedGroups merged;
    /** The groups moved to disk when they outgrew the query's memory; null until then. */
    private SpilledGroups spilled;
    /** In one of its own steps: not to be asked to spill then. */
    private boolean busy;

    public FinalAggregation(int keyCount, List<AggregateCall> aggregates) {
        this(keyCount, aggregates, QueryMemory.unbounded());
    }

    /** As above, its groups held against {@code memory}. */
    public FinalAggregation(int keyCount, List<AggregateCall> aggregates, QueryMemory memory) {
        this(keyCount, aggregates, memory, "final aggregation");
    }

    /** As above, named {@code operator} where its memory runs out. */
    public FinalAggregation(int keyCount, List<AggregateCall> aggregates, QueryMemory memory, String operator) {
        this.keyCount = keyCount;
        this.aggregates = aggregates;
        this.memory = memory;
        this.operator = operator;
        this.groups = new GroupTable(aggregates, memory, operator);
        this.merged = MergedGroups.holds(aggregates) ? new MergedGroups(keyCount, aggregates, memory, operator) : null;
    }

    /** Merges a partial row; when its group does not fit, the groups so far spill to disk (where the memory allows). */
    public synchronized void accept(Object[] partial) {
        busy = true;
        try {
            mergeOne(partial);
        } finally {
            busy = false;
        }
    }

    /** Merges partial rows, as {@link #accept} does each. */
    public synchronized void acceptAll(List<Object[]> partials) {
        busy = true;
        try {
            for (Object[] partial : partials) {
                mergeOne(partial);
            }
        } finally {
            busy = false;
        }
    }

    /**
     * Merges a chunk of partial rows as {@link #acceptAll} does, from its columns where it came as
     * columns and every aggregate keeps a count and one value (no row is boxed then).
     */
    public synchronized void acceptChunk(ColumnarRows.Chunk chunk) {
        if (merged == null || chunk.columns() == null) {
            acceptAll(chunk.rows());
            return;
        }
        busy = true;
        try {
            for (int i = 0; i < chunk.size(); i++) {
                if (!groups.isEmpty()) { // spilled: the groups after it are merged as rows
                    mergeOne(rowOf(chunk, i));
                    continue;
                }
                try {
                    merged.merge(chunk, i);
                } catch (MemoryLimitExceededException full) {
                    spillOrFail(full);
                    merged.merge(chunk, i);
                }
            }
        } finally {
            busy = false;
        }
    }

    private static Object[] rowOf(ColumnarRows.Chunk chunk, int i) {
        Object[] row = new Object[chunk.columns().length];
        for (int c = 0; c < row.length; c++) {
            row[c] = chunk.value(i, c);
        }
        return row;
    }

    private void mergeOne(Object[] partial) {
        if (merged != null && groups.isEmpty()) {
            try {
                merged.merge(partial);
            } catch (MemoryLimitExceededException full) {
                spillOrFail(full);
                merged.merge(partial);
            }
            return;
        }
        Object[] keys = Arrays.copyOf(partial, keyCount);
        try {
            groups.group(keys).merge(partial, keyCount);
        } catch (MemoryLimitExceededException full) {
            spillOrFail(full);
            groups.group(keys).merge(partial, keyCount);
        }
    }

    /**
     * Adds an input row of group {@code keys} (a GROUP BY that runs whole here rather than split:
     * its rows, not partial states, arrive), spilling as {@link #accept} does.
     */
    public synchronized void add(Object[] keys, Object[] row) {
        busy = true;
        try {
            if (merged != null && !merged.isEmpty()) {
                throw new IllegalStateException("input rows after partial rows: an aggregation takes one or the other");
            }
            groups.group(keys).add(row);
        } catch (MemoryLimitExceededException full) {
            spillOrFail(full);
            groups.group(keys).add(row);
        } finally {
            busy = false;
        }
    }

    /** Spills the groups so far, for another operator to have the room ({@link QueryMemory.Revocable}). */
    public synchronized void revoke() {
        if (!busy && !empty() && memory.canSpill() && aggregates.stream().allMatch(AggregateCall::splittable)) {
            spillGroups();
        }
    }

    /** Spills the groups so far, or fails: DISTINCT's sets of values have no partial state to spill. */
    private void spillOrFail(MemoryLimitExceededException full) {
        if (!memory.canSpill() || empty() || !aggregates.stream().allMatch(AggregateCall::splittable)) {
            throw full;
        }
        spillGroups();
    }

    private boolean empty() {
        return groups.isEmpty() && (merged == null || merged.isEmpty());
    }

    private void spillGroups() {
        if (spilled == null) {
            spilled = new SpilledGroups(keyCount, aggregates, memory, operator);
        }
        if (merged != null && !merged.isEmpty()) {
            List<Object[]> partials = new ArrayList<>(merged.size());
            merged.drainPartials(partials::addAll);
            spilled.spill(partials);
        }
        if (groups.isEmpty()) {
            return;
        }
        List<Object[]> partials = new ArrayList<>(groups.groups().size());
        groups.groups().forEach(g -> partials.add(g.partial()));
        spilled.spill(partials);
        memory.release(groups.reservedBytes());
        groups = new GroupTable(aggregates, memory, operator);
    }

    /** The groups' rows: keys, then aggregate results. */
    public List<Object[]> results() {
        List<Object[]> out = new ArrayList<>();
        finish(out::addAll);
        return out;
    }

    /** Sends the groups' rows (keys, then aggregate results) to {@code out}, a batch at a time. */
    public synchronized void finish(java.util.function.Consumer<List<Object[]>> out) {
        busy = true; // for good: its groups go on from here
        if (empty() && keyCount == 0) {
            if (merged != null) {
                merged.ensureOneGroup();
            } else {
                groups.group(new Object[0]);
            }
        }
        if (spilled != null) {
            spillGroups();
            spilled.finish(out);
            return;
        }
        if (merged != null) {
            merged.sendResults(out);
        }
        groups.sendResults(out);
    }
}
