package org.oooengine.core.fragment;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import org.oooengine.core.sql.expr.AggregateCall;

/**
 * The groups of an aggregation that outgrew its query's memory: each time it does, its groups'
 * partial states go to disk, split by a hash of their keys into {@link #PARTITIONS} files, and it
 * starts over empty. At the end each file in turn is merged in memory (a group's states are all in
 * one file) and its groups' results go on. One file's groups must fit, a sixteenth of all of them.
 */
final class SpilledGroups {
    static final int PARTITIONS = 16;

    private final int keyCount;
    private final List<AggregateCall> calls;
    private final QueryMemory memory;
    private final String operator;
    private final SpillFile[] files = new SpillFile[PARTITIONS];
    /** The key columns, the first {@code keyCount} of a partial row. */
    private final int[] keys;

    SpilledGroups(int keyCount, List<AggregateCall> calls, QueryMemory memory, String operator) {
        this.keyCount = keyCount;
        this.keys = java.util.stream.IntStream.range(0, keyCount).toArray();
        this.calls = calls;
        this.memory = memory;
        this.operator = operator;
        for (int p = 0; p < PARTITIONS; p++) {
            files[p] = memory.newSpillFile(operator);
        }
    }

    /** Writes partial rows (keys, then {@link AggregateCall#PARTIAL_WIDTH} values per aggregate) to their files. */
    void spill(List<Object[]> partials) {
        List<List<Object[]>> parts = new ArrayList<>(PARTITIONS);
        for (int p = 0; p < PARTITIONS; p++) {
            parts.add(new ArrayList<>());
        }
        for (Object[] row : partials) {
            parts.get(partition(row)).add(row);
        }
        for (int p = 0; p < PARTITIONS; p++) {
            memory.spilled(files[p].append(parts.get(p)));
        }
    }

    private int partition(Object[] row) {
        return KeyHash.bucket(row, keys, 0, PARTITIONS);
    }

    /** Sends the partial rows as they were spilled, unmerged; deletes the files. */
    void readPartials(Consumer<List<Object[]>> out) {
        for (SpillFile file : files) {
            file.readAll(out);
            file.close();
        }
    }

    /** Merges each file's groups and sends their results (keys, then each aggregate's result); deletes the files. */
    void finish(Consumer<List<Object[]>> out) {
        for (SpillFile file : files) {
            GroupTable groups = new GroupTable(calls, memory, operator + " (merging what it spilled)");
            file.readAll(block -> block.forEach(row -> groups.group(Arrays.copyOf(row, keyCount)).merge(row, keyCount)));
            file.close();
            groups.sendResults(out);
            memory.release(groups.reservedBytes());
        }
    }
}
