package org.oooengine.core.fragment;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.oooengine.core.sql.JoinKind;
import org.oooengine.core.sql.expr.Values;

/**
 * A hash join whose build rows outgrew the query's memory (a grace hash join): build rows and
 * then probe rows go to {@link #PARTITIONS} pairs of spill files by a hash of their key, so that
 * a key's build rows and probe rows share a partition; at the end each partition in turn is
 * joined in memory ({@link HashJoinTable}) and its rows go on. A partition's build rows must fit,
 * a sixteenth of all of them. Rows with a null key (they match nothing, but outer and anti kinds
 * still pass them) go to the first partition. Not for a cross join or NOT IN, whose answer for a
 * row depends on every build row.
 */
final class SpilledHashJoin {
    static final int PARTITIONS = 16;

    private final PipelineStep.HashJoin join;
    private final int probeWidth;
    private final QueryMemory memory;
    private final int[] buildKeys;
    private final int[] probeKeys;
    private final SpillFile[] builds = new SpillFile[PARTITIONS];
    private final SpillFile[] probes = new SpillFile[PARTITIONS];

    SpilledHashJoin(PipelineStep.HashJoin join, int probeWidth, QueryMemory memory) {
        if (!spills(join.kind())) {
            throw new IllegalArgumentException("a " + join.kind() + " join cannot be split by key");
        }
        this.join = join;
        this.probeWidth = probeWidth;
        this.memory = memory;
        this.buildKeys = join.buildKeys().stream().mapToInt(Integer::intValue).toArray();
        this.probeKeys = join.probeKeys().stream().mapToInt(Integer::intValue).toArray();
        for (int p = 0; p < PARTITIONS; p++) {
            builds[p] = memory.newSpillFile();
            probes[p] = memory.newSpillFile();
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
            parts.get(partition(row, keys)).add(row);
        }
        for (int p = 0; p < PARTITIONS; p++) {
            memory.spilled(files[p].append(parts.get(p)));
        }
    }

    /**
     * The partition of a row's key. Mixed (the finaliser of MurmurHash3) so that it does not follow
     * the hash that spread the table's rows over the nodes, which would leave most partitions of a
     * node empty.
     */
    private static int partition(Object[] row, int[] keys) {
        int h = 1;
        for (int k : keys) {
            Object v = row[k];
            if (v == null) {
                return 0;
            }
            h = 31 * h + Values.groupKey(v).hashCode();
        }
        h ^= h >>> 16;
        h *= 0x85ebca6b;
        h ^= h >>> 13;
        h *= 0xc2b2ae35;
        h ^= h >>> 16;
        return Math.floorMod(h, PARTITIONS);
    }

    /** Joins each partition in turn and sends its rows on, a batch at a time; deletes the files. */
    void finish(Consumer<List<Object[]>> out) {
        for (int p = 0; p < PARTITIONS; p++) {
            String operator = "hash join (partition " + (p + 1) + " of " + PARTITIONS + " of the build rows it spilled)";
            List<Object[]> build = new ArrayList<>();
            long[] held = {0};
            builds[p].readAll(block -> {
                long bytes = QueryMemory.rowsBytes(block) + HashJoinTable.ENTRY_BYTES * block.size();
                memory.reserve(operator, bytes);
                held[0] += bytes;
                build.addAll(block);
            });
            builds[p].close();
            HashJoinTable table = new HashJoinTable(join.kind(), build, buildKeys, probeKeys, join.residual(), probeWidth,
                    join.buildWidth());
            probes[p].readAll(block -> send(table.probe(block), out));
            probes[p].close();
            send(table.buildRowsAtEnd(), out);
            memory.release(held[0]);
        }
    }

    private static void send(List<Object[]> rows, Consumer<List<Object[]>> out) {
        for (int from = 0; from < rows.size(); from += Pipeline.BATCH_ROWS) {
            out.accept(rows.subList(from, Math.min(rows.size(), from + Pipeline.BATCH_ROWS)));
        }
    }
}
