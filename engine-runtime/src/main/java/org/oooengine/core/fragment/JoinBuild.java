package org.oooengine.core.fragment;

import java.util.List;
import org.oooengine.core.wire.ColumnarRows;

/**
 * Where the build side of a node's hash join comes from: its own partition of another table
 * co-partitioned on the join key ({@link Local}), or rows the coordinator computed and sent to
 * every node ({@link Rows}, or {@link Staged} ahead of the pipeline when they are too many for
 * one frame), or rows the other nodes shuffled to it by the join key ({@link Exchanged}).
 * {@link Broadcast} and {@link Shuffled} are the coordinator's placeholders for rows it has yet to
 * compute or have sent, {@link Routed} rows it has to send each to one node, {@link Gathered} the
 * build side of a join the coordinator runs itself; they never travel.
 */
public sealed interface JoinBuild {
    /** The rows of a pipeline run over this node's partition of its table. */
    record Local(ScanPipeline pipeline) implements JoinBuild {
    }

    /**
     * The same rows on every node: as the coordinator holds them, or as a node received them
     * (columns where the wire carried them so, made rows only if something asks for rows).
     */
    record Rows(ColumnarRows.Chunk chunk) implements JoinBuild {
        public Rows(List<Object[]> rows) {
            this(ColumnarRows.Chunk.ofRows(List.copyOf(rows)));
        }

        public List<Object[]> rows() {
            return chunk.rows();
        }
    }

    /** Rows sent to the node before the pipeline, in chunks, under {@code id} ({@link StagedRows}). */
    record Staged(String id) implements JoinBuild {
    }

    /**
     * Rows shuffled to this node by the {@code producers} nodes running the producing side
     * ({@link Exchanges}); {@code byJoinKey}: routed by a hash of the join key as the probe rows
     * were too (a join of two shuffled inputs), so every partner of a probe row is here.
     * {@code onArrival} (may be null): steps the node runs over the rows it received before it
     * builds from their output — a GROUP BY's partial rows, shuffled by its keys, merged into its
     * groups ({@link PipelineStep.MergePartials}); its table is unused.
     */
    record Exchanged(String exchangeId, int producers, boolean byJoinKey, ScanPipeline onArrival) implements JoinBuild {
        /** Rows shuffled to the nodes that own their keys in the probing table. */
        public Exchanged(String exchangeId, int producers) {
            this(exchangeId, producers, false);
        }

        /** The rows as they arrive. */
        public Exchanged(String exchangeId, int producers, boolean byJoinKey) {
            this(exchangeId, producers, byJoinKey, null);
        }
    }

    /** The coordinator's shuffle number {@code slot}, replaced by its {@link Exchanged} before the pipeline is sent. */
    record Shuffled(int slot) implements JoinBuild {
    }

    /**
     * The coordinator's input number {@code slot}, replaced by its {@link Rows} before the pipeline
     * is sent; or, when {@code routeColumn} is one of its columns, by its {@link Routed} rows: the
     * join's probe rows are partitioned on the key that column meets, so each node needs only the
     * rows whose key it owns.
     */
    record Broadcast(int slot, int routeColumn, int rangeColumn) implements JoinBuild {
        /** Input {@code slot}'s rows, all of them to every node. */
        public Broadcast(int slot) {
            this(slot, -1);
        }

        /** Input {@code slot}'s rows, routed by a hash of {@code routeColumn} (-1: to every node). */
        public Broadcast(int slot, int routeColumn) {
            this(slot, routeColumn, -1);
        }

        /** Whether each row goes only to the node that owns its key, or to those whose splits hold it. */
        public boolean routed() {
            return routeColumn >= 0;
        }

        /**
         * Whether the probe rows are a table's files, in splits each of a range of its column
         * {@code rangeColumn} (a table's files in that column's order): each row goes to the nodes
         * whose splits' ranges hold its key, and those splits are read where they are assigned.
         */
        public boolean byRanges() {
            return routeColumn >= 0 && rangeColumn >= 0;
        }

        /** The same input, numbered {@code by} further on. */
        public Broadcast shifted(int by) {
            return new Broadcast(slot + by, routeColumn, rangeColumn);
        }
    }

    /**
     * Rows the coordinator computed for a join whose probe rows are partitioned on the key
     * {@code keyColumn} meets (a column of type {@code keyType}, hashed as that table's loader
     * hashed it): each node is sent, as its {@link Rows}, those whose key it owns in the pipeline's
     * table, and one node those whose key is null, so that every row reaches exactly one node.
     * Routed by ranges instead ({@link #byRanges}), a row goes to every node whose splits may hold
     * its key, and one whose key is null to none (it meets no row).
     */
    record Routed(List<Object[]> rows, int keyColumn, org.oooengine.core.sql.SqlType keyType, int rangeColumn)
            implements JoinBuild {
        public Routed {
            rows = List.copyOf(rows);
        }

        /** Rows routed by a hash of their key. */
        public Routed(List<Object[]> rows, int keyColumn, org.oooengine.core.sql.SqlType keyType) {
            this(rows, keyColumn, keyType, -1);
        }

        /**
         * Whether the rows go by ranges rather than hashes ({@link Broadcast#byRanges}): each to
         * the nodes whose splits of the pipeline's table hold its key in column {@code rangeColumn}.
         */
        public boolean byRanges() {
            return rangeColumn >= 0;
        }
    }

    /**
     * The coordinator's input number {@code slot} when the coordinator runs the join itself: every
     * build row meets every probe row there, so each kind of join may build from it.
     */
    record Gathered(int slot) implements JoinBuild {
    }
}
