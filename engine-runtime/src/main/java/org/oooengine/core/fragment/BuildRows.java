package org.oooengine.core.fragment;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.oooengine.core.wire.ColumnarRows;

/**
 * A hash join's build rows as a node collects them: held in memory (as rows, or as the columns
 * a chunk came in over the wire, for a join on column batches), each batch reserved of the
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
    /** What came as rows; null once the rows went to disk. */
    private List<Object[]> held = new ArrayList<>();
    /** What came as columns, kept so until the rows are asked for. */
    private List<ColumnarRows.Chunk> chunks = new ArrayList<>();
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
        } else if (hold(QueryMemory.rowsBytes(batch) + HashJoinTable.ENTRY_BYTES * batch.size())) {
            held.addAll(batch);
        } else {
            spill(batch);
        }
    }

    /** A chunk of build rows: held as columns where it came so. */
    void accept(ColumnarRows.Chunk chunk) {
        if (chunk.columns() == null || spilled != null) {
            accept(chunk.rows());
        } else if (hold(QueryMemory.chunkBytes(chunk) + HashJoinTable.ENTRY_BYTES * chunk.size())) {
            chunks.add(chunk);
        } else {
            spill(chunk.rows());
        }
    }

    /** Whether {@code bytes} more were reserved to be held; false when the join goes to disk instead. */
    private boolean hold(long bytes) {
        boolean spills = canSpill();
        if (!spills || heldBytes + bytes <= memory.limit() * HELD_SHARE) {
            try {
                memory.reserve("hash join build from " + describe(join.build()), bytes);
                heldBytes += bytes;
                return true;
            } catch (MemoryLimitExceededException tooMany) {
                if (!spills) {
                    throw tooMany;
                }
            }
        }
        return false;
    }

    /** Whether the join may go to disk: the query may spill and the join's kind can run a partition at a time. */
    boolean canSpill() {
        return memory.canSpill() && SpilledHashJoin.spills(join.kind());
    }

    /**
     * Sends the rows held to the join's partitions on disk: they fit, the table over them does not
     * (its slots and the rows put in key order take more than the entry each row reserved).
     */
    void spillHeld() {
        if (held == null) {
            throw new IllegalStateException("the build rows are on disk already");
        }
        spill(List.of());
    }

    /** Every row from now on (those held, then {@code batch}) goes to the join's partitions on disk. */
    private void spill(List<Object[]> batch) {
        spilled = new SpilledHashJoin(join, probeWidth, memory);
        spilled.addBuild(held);
        chunks.forEach(chunk -> spilled.addBuild(chunk.rows()));
        spilled.addBuild(batch);
        memory.release(heldBytes);
        held = null;
        chunks = null;
        heldBytes = 0;
    }

    /** The rows, when they all fit in memory (those held as columns made rows now); null when they went to disk. */
    List<Object[]> rows() {
        if (held != null && !chunks.isEmpty()) {
            for (ColumnarRows.Chunk chunk : chunks) {
                long bytes = QueryMemory.rowsBytes(chunk.rows()) - QueryMemory.chunkBytes(chunk);
                memory.reserve("hash join build from " + describe(join.build()), Math.max(0, bytes));
                heldBytes += Math.max(0, bytes);
                held.addAll(chunk.rows());
            }
            chunks.clear();
        }
        return held;
    }

    /** The rows as one chunk of columns, when they all came as columns and fit in memory; else null. */
    ColumnarRows.Chunk columns() {
        if (held == null || !held.isEmpty() || chunks.isEmpty()) {
            return null;
        }
        ColumnarRows.Chunk all = ColumnarRows.Chunk.concat(chunks);
        if (all != null) {
            chunks = new ArrayList<>(List.of(all));
        }
        return all;
    }

    /** Whether the rows are held in memory: they fit (as {@link #rows} or {@link #columns}). */
    boolean inMemory() {
        return held != null;
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

        /** The rows of {@code join} if they were read and are held in memory (as columns where they came so), else null. */
        ColumnarRows.Chunk held(PipelineStep.HashJoin join) {
            BuildRows rows = built.get(join);
            if (rows == null || !rows.inMemory()) {
                return null;
            }
            ColumnarRows.Chunk columns = rows.columns();
            return columns != null ? columns : ColumnarRows.Chunk.ofRows(rows.rows());
        }

        /** The build rows of {@code join}, probed by rows {@code probeWidth} wide. */
        BuildRows of(PipelineStep.HashJoin join, int probeWidth) {
            BuildRows rows = built.get(join);
            if (rows == null) {
                rows = new BuildRows(join, probeWidth, memory);
                if (join.build() instanceof JoinBuild.Exchanged e && e.onArrival() != null) {
                    // the rows that arrive run through its steps first (partial groups merged), and it builds from theirs
                    Pipeline arriving = new Pipeline(e.onArrival().steps(), e.onArrival().width(), this.source, rows, memory);
                    source.readRows(join.build(), arriving::accept);
                    arriving.finish();
                } else {
                    source.read(join.build(), rows::accept);
                }
                built.put(join, rows);
            }
            return rows;
        }
    }
}
