package org.oooengine.hive.sql.exec;

import org.oooengine.core.cluster.QueryLimits;
import java.util.BitSet;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.ToLongFunction;
import java.util.function.Consumer;
import org.oooengine.core.fragment.PartitionPipeline.Summary;
import org.oooengine.core.fragment.Pipeline;
import org.oooengine.core.fragment.PipelineStep;
import org.oooengine.core.fragment.ScanPipeline;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.sql.expr.AggregateCall;
import org.oooengine.optimizer.catalog.TableInfo;
import org.oooengine.hive.sql.Cancellation;

/** Where a table's rows come from: the cluster's nodes, or files. */
public interface TableReader {
    /**
     * Every row of {@code table}, as SQL values in its column order; columns not in
     * {@code needed} may be left null. {@code sink} may be called from several threads at once.
     */
    void scan(TableInfo table, BitSet needed, Cancellation cancel, Consumer<Object[]> sink);

    /**
     * The rows that come out of {@code pipeline} run over {@code table}'s rows. {@code sink} may be
     * called from several threads at once. Here the pipeline runs where the rows arrive; a reader
     * whose rows live on nodes runs it there.
     */
    /**
     * A shuffle for {@link #pipeline(TableInfo, ScanPipeline, List, Cancellation, Consumer)}: {@code producer} run
     * over {@code table}'s rows on every node, each row sent to the node owning its {@code keyColumn}
     * value (of type {@code keyType}) in the consuming pipeline's table — a row whose key is null
     * to the first owner if {@code keepsNulls} (the consuming join keeps every row it builds from),
     * else nowhere; told, when every producer is done, how many rows they sent together and how
     * many bytes crossed the network.
     */
    record Shuffle(TableInfo table, ScanPipeline producer, int keyColumn, SqlType keyType, boolean keepsNulls,
                   Consumer<Sent> sent) {
    }

    /**
     * One side of a join of two shuffled inputs: {@code producer} run over {@code table}'s rows on
     * every node, rows {@code width} wide, each sent to the node its {@code keys}' values hash to;
     * told, when every producer is done, what they sent. {@code onArrival}: steps each node runs
     * over the rows it received before it joins them (a GROUP BY's partial rows merged into its
     * groups), which keep the keys where they were; empty: none.
     */
    record ShuffledSide(TableInfo table, ScanPipeline producer, List<Integer> keys, int width, Consumer<Sent> sent,
                        List<PipelineStep> onArrival) {
        public ShuffledSide {
            onArrival = List.copyOf(onArrival);
        }

        /** The width of the rows it joins: after {@code onArrival}'s steps. */
        public int joinedWidth() {
            int w = width;
            for (PipelineStep step : onArrival) {
                w = org.oooengine.core.fragment.Pipeline.widthAfter(step, w);
            }
            return w;
        }
    }

    /** What a shuffle's producers sent: rows, and bytes to other nodes. */
    record Sent(long rows, long bytes) {
    }

    /**
     * What the nodes reported of a pipeline they ran, by node: rows read, wall time, the most its
     * operators held at once, what they spilled and the bytes sent on; {@link #NONE} (no node) from
     * a reader whose rows do not live on nodes.
     */
    record NodeFigures(SortedMap<String, Summary> byNode) {
        public static final NodeFigures NONE = new NodeFigures(new TreeMap<>());

        public NodeFigures {
            byNode = Collections.unmodifiableSortedMap(new TreeMap<>(byNode));
        }

        public boolean none() {
            return byNode.isEmpty();
        }

        public long rowsScanned() {
            return sum(Summary::rowsScanned);
        }

        /** The node that took longest (the first by name among equals), or null for none. */
        public String slowestNode() {
            return byNode.entrySet().stream().max(Comparator.comparingLong((Map.Entry<String, Summary> e) -> e.getValue().nanos())
                    .thenComparing(Map.Entry::getKey, Comparator.reverseOrder())).map(Map.Entry::getKey).orElse(null);
        }

        public long slowestNanos() {
            return byNode.values().stream().mapToLong(Summary::nanos).max().orElse(0);
        }

        /** The most one node's operators held at once. */
        public long peakMemoryBytes() {
            return byNode.values().stream().mapToLong(Summary::peakMemoryBytes).max().orElse(0);
        }

        public long spilledBytes() {
            return sum(Summary::spilledBytes);
        }

        public long spilledRows() {
            return sum(Summary::spilledRows);
        }

        public long bytesOut() {
            return sum(Summary::bytesOut);
        }

        public long rowsUngrouped() {
            return sum(Summary::rowsUngrouped);
        }

        /** The bytes the nodes read from files (a table held in files). */
        public long bytesRead() {
            return sum(Summary::bytesRead);
        }

        /** The bytes of files' columns the nodes read from their caches of them instead of the files. */
        public long bytesCached() {
            return sum(Summary::bytesCached);
        }

        /** How the nodes went through the splits of files they read, added up. */
        public org.oooengine.core.fragment.PartitionPipeline.SplitFigures splits() {
            return byNode.values().stream().map(Summary::splits).reduce(
                    org.oooengine.core.fragment.PartitionPipeline.SplitFigures.NONE,
                    org.oooengine.core.fragment.PartitionPipeline.SplitFigures::plus);
        }

        private long sum(ToLongFunction<Summary> figure) {
            return byNode.values().stream().mapToLong(figure).sum();
        }
    }

    /**
     * As {@link #pipeline(TableInfo, ScanPipeline, Cancellation, Consumer)}, with joins that build
     * from {@code shuffles} (the pipeline's {@link org.oooengine.core.fragment.JoinBuild.Shuffled}
     * slots: only readers whose rows live on partitioned nodes can run them), and what its
     * operators hold and spill bounded by {@code nodeLimits} where they run (0: the default there).
     * Returns what the nodes reported of their runs.
     */
    default NodeFigures pipeline(TableInfo table, ScanPipeline pipeline, List<Shuffle> shuffles, QueryLimits nodeLimits,
                                 Cancellation cancel, Consumer<Object[]> sink) {
        if (!shuffles.isEmpty()) {
            throw new IllegalStateException("a shuffle needs tables partitioned over nodes; " + table.name() + " is not");
        }
        pipeline(table, pipeline, cancel, sink);
        return NodeFigures.NONE;
    }

    /**
     * As {@link #pipeline(TableInfo, ScanPipeline, List, QueryLimits, Cancellation, Consumer)}, each run's
     * rows to a sink of its own ({@code sinkOfNode} of the run's name: its node's, and the
     * partition's where the node runs the pipeline over several, as a holder of another's partition
     * does while that one is down), in the order the run sent them: a pipeline ending in a sort
     * sends each run's rows in order, for the coordinator to merge. A reader whose rows do not live
     * on nodes sends them all to one sink. Where {@code output} names files ({@link #writesOnNodes};
     * null: none), each run writes its rows into files of its own instead and sends a record of
     * each ({@link org.oooengine.core.cluster.FileOutput#RECORD_COLUMNS}); a part run twice (a
     * hedged run) sends only the records of the run whose rows count.
     */
    default NodeFigures pipelineByNode(TableInfo table, ScanPipeline pipeline, List<Shuffle> shuffles, QueryLimits nodeLimits,
                                       Cancellation cancel, org.oooengine.core.cluster.FileOutput output,
                                       java.util.function.Function<String, Consumer<Object[]>> sinkOfNode) {
        requireNoOutput(table, output);
        return pipeline(table, pipeline, shuffles, nodeLimits, cancel, sinkOfNode.apply("here"));
    }

    /**
     * Whether the pipelines and shuffled steps over {@code table} can write their rows into files
     * where they run: its rows are read on nodes, which can.
     */
    default boolean writesOnNodes(TableInfo table) {
        return false;
    }

    private static void requireNoOutput(TableInfo table, org.oooengine.core.cluster.FileOutput output) {
        if (output != null) {
            throw new IllegalStateException("writing files on the nodes needs a table read on the nodes; " + table.name()
                    + " is not");
        }
    }

    /**
     * A join of two inputs shuffled by key (a partitioned hash join): each node builds a hash
     * table of the {@code build} rows sent to it and probes it with the {@code probe} rows sent to
     * it, the join of {@code kind} with {@code residual}, then runs {@code after} and sends what
     * comes out to {@code sink} (from several threads at once), or writes it into files where
     * {@code output} says, sending a record of each (null: sends the rows). A join among
     * {@code after} whose build is {@link org.oooengine.core.fragment.JoinBuild.Shuffled} slot
     * {@code i} builds from the rows of {@code moreBuilds.get(i)}, sent to the nodes alike. The
     * build sides move first. Returns what the nodes reported of their joins.
     */
    default NodeFigures shuffledJoin(ShuffledSide probe, ShuffledSide build, List<ShuffledSide> moreBuilds,
                                     org.oooengine.core.sql.JoinKind kind,
                                     org.oooengine.core.sql.expr.Expr residual, List<PipelineStep> after,
                                     QueryLimits nodeLimits, Cancellation cancel,
                                     org.oooengine.core.cluster.FileOutput output, Consumer<Object[]> sink) {
        throw new IllegalStateException("a join of shuffled inputs needs tables on the nodes; " + probe.table().name()
                + " is not");
    }

    /**
     * Whether {@link #mergeGroups} and {@link #shuffledSteps} can run over {@code table}: its rows
     * live on the nodes, which can shuffle.
     */
    default boolean mergesGroupsOnNodes(TableInfo table) {
        return false;
    }

    /**
     * A GROUP BY whose final step runs on the nodes: {@code producer} (ending in a partial
     * aggregate of {@code keyCount} keys) runs over {@code table} on every node and sends each
     * group's partial row to the node its key hashes to, which merges them and sends the group's
     * result to {@code sink}. Returns what the nodes reported of the producers' runs.
     */
    default NodeFigures mergeGroups(TableInfo table, ScanPipeline producer, int keyCount, List<AggregateCall> aggregates,
                                    QueryLimits nodeLimits, Cancellation cancel, Consumer<Object[]> sink) {
        throw new IllegalStateException("merging groups on the nodes needs a table on the nodes; " + table.name() + " is not");
    }

    /**
     * Steps the nodes run over rows shuffled to them by key (a window over whole partitions, then
     * what follows it): {@code rows}' producers run on every node and send each row to the node
     * its keys hash to, which runs {@code steps} over the rows it receives, as they arrive, and
     * sends what comes out to {@code sink} (from several threads at once), or writes it into files
     * as {@link #shuffledJoin} does. Returns what the receiving nodes reported of their runs.
     */
    default NodeFigures shuffledSteps(ShuffledSide rows, List<PipelineStep> steps, QueryLimits nodeLimits,
                                      Cancellation cancel, org.oooengine.core.cluster.FileOutput output,
                                      Consumer<Object[]> sink) {
        throw new IllegalStateException("shuffling rows by key needs a table on the nodes; " + rows.table().name()
                + " is not");
    }

    /**
     * This reader, told of {@code tables}: tables in files that a plan's joins build from on each
     * node without being the scanned table handed to it ({@link
     * org.oooengine.optimizer.rel.RelNode.NodePipeline#slicedAlike}), whose files it must cut into
     * splits too; a reader that reads no such tables is the same.
     */
    default TableReader knowing(List<TableInfo> tables) {
        return this;
    }

    default void pipeline(TableInfo table, ScanPipeline pipeline, Cancellation cancel, Consumer<Object[]> sink) {
        Pipeline local = new Pipeline(pipeline.steps(), pipeline.width(), Pipeline.BuildSource.ROWS_ONLY,
                batch -> batch.forEach(sink));
        // filters and projections keep nothing between rows: only joins and aggregates need the rows one at a time
        boolean stateless = pipeline.steps().stream()
                .allMatch(step -> step instanceof PipelineStep.Filter || step instanceof PipelineStep.Project);
        scan(table, pipeline.columns(), cancel, row -> {
            if (stateless) {
                local.accept(List.<Object[]>of(row));
            } else {
                synchronized (local) {
                    local.accept(List.<Object[]>of(row));
                }
            }
        });
        local.finish();
    }
}
