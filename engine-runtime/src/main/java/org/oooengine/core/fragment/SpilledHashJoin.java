package org.oooengine.core.fragment;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.oooengine.core.sql.JoinKind;

/**
 * A hash join whose build rows outgrew the query's memory (a grace hash join): build rows and
 * then probe rows go to {@link #PARTITIONS} pairs of spill files by a hash of their key, so that
 * a key's build rows and probe rows share a partition; at the end each partition in turn is
 * joined in memory ({@link HashJoinTable}) and its rows go on. A partition whose build rows do not
 * fit either (or no longer do, other operators holding more by then) is split the same way by
 * another hash, down to {@link #MAX_LEVELS} levels (a 65,536th); rows of one key that do not fit
 * alone fail the query by name. Rows with a null key (they match nothing, but outer and anti kinds
 * still pass them) go to the first partition. Not for a cross join or NOT IN, whose answer for a
 * row depends on every build row.
 */
final class SpilledHashJoin {
    static final int PARTITIONS = 16;
    static final int MAX_LEVELS = 4;

    private final PipelineStep.HashJoin join;
    private final int probeWidth;
    private final QueryMemory memory;
    private final int[] buildKeys;
    private final int[] probeKeys;
    private final SpillFile[] builds = new SpillFile[PARTITIONS];
    private final SpillFile[] probes = new SpillFile[PARTITIONS];
    /** 0 for the join's own partitions, 1 for those of one of them split again, ... */
    private final int level;

    SpilledHashJoin(PipelineStep.HashJoin join, int probeWidth, QueryMemory memory) {
        this(join, probeWidth, memory, 0);
    }

    private SpilledHashJoin(PipelineStep.HashJoin join, int probeWidth, QueryMemory memory, int level) {
        if (!spills(join.kind())) {
            throw new IllegalArgumentException("a " + join.kind() + " join cannot be split by key");
        }
        this.join = join;
        this.probeWidth = probeWidth;
        this.memory = memory;
        this.level = level;
        this.buildKeys = join.buildKeys().stream().mapToInt(Integer::intValue).toArray();
        this.probeKeys = join.probeKeys().stream().mapToInt(Integer::intValue).toArray();
        for (int p = 0; p < PARTITIONS; p++) {
            builds[p] = memory.newSpillFile("hash join (build rows spilled by key)");
            probes[p] = memory.newSpillFile("hash join (probe rows spilled by key)");
        }
    }

    /** Whether a join of this kind can be run a partition of keys at a time. */
    static boolean spills(JoinKind kind) {
        return kind != JoinKind.CROSS && kind != JoinKind.ANTI_NULL_AWARE;
    }

    void addBuild(List<Object[]> rows) {
        write(rows, buildKeys, builds);
    }

    /** Probe rows: they meet their partners when {@link #finish} joins their partition. */
    synchronized void addProbe(List<Object[]> rows) {
        write(rows, probeKeys, probes);
    }

    private void write(List<Object[]> rows, int[] keys, SpillFile[] files) {
        List<List<Object[]>> parts = new ArrayList<>(PARTITIONS);
        for (int p = 0; p < PARTITIONS; p++) {
            parts.add(new ArrayList<>());
        }
        for (Object[] row : rows) {
            parts.get(partition(row, keys, level)).add(row);
        }
        for (int p = 0; p < PARTITIONS; p++) {
            memory.spilled(files[p].append(parts.get(p)));
        }
    }

    /** The partition of a row's key at a level of splitting (the level seeds the hash); a null key's is the first. */
    private static int partition(Object[] row, int[] keys, int level) {
        for (int k : keys) {
            if (row[k] == null) {
                return 0;
            }
        }
        return KeyHash.bucket(row, keys, level, PARTITIONS);
    }

    /** Joins each partition in turn and sends its rows on, a batch at a time; deletes the files. */
    void finish(Consumer<List<Object[]>> out) {
        for (int p = 0; p < PARTITIONS; p++) {
            String operator = "hash join (partition " + (p + 1) + " of " + PARTITIONS
                    + (level == 0 ? "" : " of a partition split " + level + (level == 1 ? " time" : " times"))
                    + " of the build rows it spilled)";
            List<Object[]> build = new ArrayList<>();
            long[] held = {0};
            SpilledHashJoin[] split = {null};
            builds[p].readAll(block -> {
                if (split[0] != null) {
                    split[0].addBuild(block);
                    return;
                }
                long bytes = QueryMemory.rowsBytes(block) + HashJoinTable.ENTRY_BYTES * block.size();
                try {
                    memory.reserve(operator, bytes);
                } catch (MemoryLimitExceededException tooMany) {
                    if (level + 1 >= MAX_LEVELS) {
                        throw tooMany;
                    }
                    split[0] = new SpilledHashJoin(join, probeWidth, memory, level + 1);
                    split[0].addBuild(build);
                    split[0].addBuild(block);
                    build.clear();
                    memory.release(held[0]);
                    held[0] = 0;
                    return;
                }
                held[0] += bytes;
                build.addAll(block);
            });
            builds[p].close();
            if (split[0] != null) {
                probes[p].readAll(split[0]::addProbe);
                probes[p].close();
                split[0].finish(out);
                continue;
            }
            HashJoinTable table = new HashJoinTable(join.kind(), build, buildKeys, probeKeys, join.residual(), probeWidth,
                    join.buildWidth());
            probes[p].readAll(block -> table.probe(block, out));
            probes[p].close();
            table.buildRowsAtEnd(out);
            memory.release(held[0]);
        }
    }
}
