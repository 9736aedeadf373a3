package org.oooengine.core.fragment;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * A hash join's build rows as a node collects them: held in memory, each batch reserved of the
 * query's memory together with the table entries it will take, while they fit; once they do not
 * and the query may spill, every row (those held and those still to come) goes to a
 * {@link SpilledHashJoin}'s partitions instead, and the join runs a partition at a time. Held
 * rows leave a share of the memory ({@link #HELD_SHARE}) to the operators the join's rows go on
 * to: a build that filled it would hold it for the whole probe, and a GROUP BY above (TPC-H Q09 on
 * a coordinator of 2 MiB) could not hold its first group.
 */
final class BuildRows implements Consumer<List<Object[]>> {
    /** The part of the query's memory a join's held build rows may take when the join can spill. */
    static final double HELD_SHARE = 0.75;

    private final PipelineStep.HashJoin join;
    private final int probeWidth;
    private final QueryMemory memory;
    private List<Object[]> held = new ArrayList<>();
    private long heldBytes;
    private SpilledHashJoin spilled;

    private BuildRows(PipelineStep.HashJoin join, int probeWidth, QueryMemory memory) {
        this.join = join;
        this.probeWidth = probeWidth;
        this.memory = memory;
    }

    @Override
    public void accept(List<Object[]> batch) {
        if (spilled != null) {
            spilled.addBuild(batch);
            return;
        }
        long bytes = QueryMemory.rowsBytes(batch) + HashJoinTable.ENTRY_BYTES * batch.size();
        boolean spills = memory.canSpill() && SpilledHashJoin.spills(join.kind());
        if (!spills || heldBytes + bytes <= memory.limit() * HELD_SHARE) {
            try {
                memory.reserve("hash join build from " + describe(join.build()), bytes);
                heldBytes += bytes;
                held.addAll(batch);
                return;
            } catch (MemoryLimitExceededException tooMany) {
                if (!spills) {
                    throw tooMany;
                }
            }
        }
        spilled = new SpilledHashJoin(join, probeWidth, memory);
        spilled.addBuild(held);
        spilled.addBuild(batch);
        memory.release(heldBytes);
        held = null;
        heldBytes = 0;
    }

    /** The rows, when they all fit in memory; null when they went to disk. */
    List<Object[]> rows() {
        return held;
    }

    /** The join's partitions on disk, or null when the rows fit in memory. */
    SpilledHashJoin spilled() {
        return spilled;
    }

    private static String describe(JoinBuild build) {
        return build instanceof JoinBuild.Local local ? local.pipeline().table()
                : build instanceof JoinBuild.Gathered ? "its right input" : "rows sent to it";
    }

    /**
     * Each join's build rows of a pipeline, read from {@code source} when the pipeline is made and
     * then kept, by step: a batch that runs again row by row joins with the same rows.
     */
    static final class Cache {
        private final Pipeline.BuildSource source;
        private final QueryMemory memory;
        private final Map<PipelineStep.HashJoin, BuildRows> built = new IdentityHashMap<>();

        Cache(Pipeline.BuildSource source, QueryMemory memory) {
            this.source = source;
            this.memory = memory;
        }

        /** The rows of {@code join} if they were read and are held in memory, else null (nothing is read). */
        List<Object[]> heldRows(PipelineStep.HashJoin join) {
            BuildRows rows = built.get(join);
            return rows == null ? null : rows.rows();
        }

        /** The build rows of {@code join}, probed by rows {@code probeWidth} wide. */
        BuildRows of(PipelineStep.HashJoin join, int probeWidth) {
            BuildRows rows = built.get(join);
            if (rows == null) {
                rows = new BuildRows(join, probeWidth, memory);
                if (join.build() instanceof JoinBuild.Exchanged e && e.onArrival() != null) {
                    // the rows that arrive run through its steps first (partial groups merged), and it builds from theirs
                    Pipeline arriving = new Pipeline(e.onArrival().steps(), e.onArrival().width(), this.source, rows, memory);
                    source.read(join.build(), arriving::accept);
                    arriving.finish();
                } else {
                    source.read(join.build(), rows);
                }
                built.put(join, rows);
            }
            return rows;
        }
    }
}
