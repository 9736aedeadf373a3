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
 * one file) and its groups' results go on; a file whose groups do not fit is split again.
 */
final class SpilledGroups {
    static final int PARTITIONS = 16;
    static final int MAX_LEVELS = 4;

    private final int keyCount;
    private final List<AggregateCall> calls;
    private final QueryMemory memory;
    private final String operator;
    private final SpillFile[] files = new SpillFile[PARTITIONS];
    /** 0 for the aggregation's own files, 1 for those of one of them split again, ... */
    private final int level;
    /** The key columns, the first {@code keyCount} of a partial row. */
    private final int[] keys;

    SpilledGroups(int keyCount, List<AggregateCall> calls, QueryMemory memory, String operator) {
        this(keyCount, calls, memory, operator, 0);
    }

    private SpilledGroups(int keyCount, List<AggregateCall> calls, QueryMemory memory, String operator, int level) {
        this.level = level;
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
        return KeyHash.bucket(row, keys, level, PARTITIONS);
    }

    /** Sends the partial rows as they were spilled, unmerged; deletes the files. */
    void readPartials(Consumer<List<Object[]>> out) {
        for (SpillFile file : files) {
            file.readAll(out);
            file.close();
        }
    }

    /**
     * Merges each file's groups and sends their results (keys, then each aggregate's result);
     * deletes the files. A file whose groups do not fit (or no longer do, other operators holding
     * more by then) is split the same way by another hash, down to {@link #MAX_LEVELS} levels.
     */
    void finish(Consumer<List<Object[]>> out) {
        for (SpillFile file : files) {
            String merging = operator + " (merging what it spilled" + (level == 0 ? "" : ", split " + level
                    + (level == 1 ? " time" : " times")) + ")";
            GroupTable[] groups = {new GroupTable(calls, memory, merging)};
            SpilledGroups[] split = {null};
            file.readAll(block -> {
                if (split[0] != null) {
                    split[0].spill(block);
                    return;
                }
                for (int i = 0; i < block.size(); i++) {
                    Object[] row = block.get(i);
                    try {
                        groups[0].group(Arrays.copyOf(row, keyCount)).merge(row, keyCount);
                    } catch (MemoryLimitExceededException full) {
                        if (level + 1 >= MAX_LEVELS || groups[0].isEmpty()) {
                            throw full;
                        }
                        split[0] = new SpilledGroups(keyCount, calls, memory, operator, level + 1);
                        List<Object[]> partials = new ArrayList<>(groups[0].groups().size());
                        groups[0].groups().forEach(g -> partials.add(g.partial()));
                        split[0].spill(partials);
                        memory.release(groups[0].reservedBytes());
                        groups[0] = null;
                        split[0].spill(block.subList(i, block.size()));
                        return;
                    }
                }
            });
            file.close();
            if (split[0] != null) {
                split[0].finish(out);
                continue;
            }
            groups[0].sendResults(out);
            memory.release(groups[0].reservedBytes());
        }
    }
}
