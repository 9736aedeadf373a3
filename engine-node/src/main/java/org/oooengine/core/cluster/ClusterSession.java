package org.oooengine.core.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;
import org.oooengine.core.exec.ColumnRange;
import org.oooengine.core.exec.JoinSpec;
import org.oooengine.core.exec.PartitionRouter;
import org.oooengine.core.exec.RowSink;
import org.oooengine.core.fragment.PartitionPipeline;
import org.oooengine.core.fragment.ScanPipeline;
import org.oooengine.core.fragment.ShuffleTarget;
import org.oooengine.core.net.ClusterSecret;
import org.oooengine.core.sql.expr.AggregateCall;
import org.oooengine.core.stats.StoreStatistics;
import org.oooengine.core.storage.DiskProbe;
import org.oooengine.core.store.StoreManifest;
import org.oooengine.core.store.TreeReport;
import org.oooengine.core.tpch.JoinQueries;
import org.oooengine.core.types.Schema;

/**
 * The coordinator's view of a running cluster: it starts a fragment of a query on every node,
 * gathers their result streams, and fails the whole query, naming the node, when any fragment or
 * connection fails — a query never returns part of its result as if it were all of it.
 *
 * <p>Each family of requests has a class of its own, as on the nodes: the nodes' status
 * ({@link NodeStatusClient}) and the tables it shows ({@link ClusterTables}), statistics and
 * calibration ({@link StatisticsClient}), scans and pipelines ({@link PipelineClient}), index joins
 * ({@link IndexJoinClient}); this class opens the connections and hands each call to its family.
 */
public final class ClusterSession implements AutoCloseable {
    /**
     * How long the nodes' answer about their tables serves lookups: the several lookups of one
     * statement share one round of requests, and a table changed elsewhere shows within this.
     */
    public static final Duration TABLES_MAX_AGE = Duration.ofSeconds(1);

    private final ClusterSpec spec;
    private final Peers peers;
    private final ServingNodes serving;
    private final ExecutorService callbacks;
    /** Opens connections anew off the caller's thread, so that one slow node does not hold up asking the others. */
    private final ExecutorService connector;
    private final NodeStatusClient status;
    private final ClusterTables tables;
    private final StatisticsClient statistics;
    private final PipelineClient pipelines;
    private final IndexJoinClient indexJoins;
    private volatile boolean hedging = true;

    private ClusterSession(ClusterSpec spec, Peers peers, ExecutorService callbacks) {
        this.spec = spec;
        this.peers = peers;
        this.callbacks = callbacks;
        this.connector = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "ooo-connect");
            t.setDaemon(true);
            return t;
        });
        this.status = new NodeStatusClient(spec, peers, connector);
        this.tables = new ClusterTables(spec, peers.timeout(), status);
        this.statistics = new StatisticsClient(spec, peers);
        this.pipelines = new PipelineClient(peers, spec::owners);
        this.serving = new ServingNodes(peers);
        this.indexJoins = new IndexJoinClient(spec, peers, tables, pipelines, serving);
    }

    /** Connects to every node of the cluster in {@code clusterDir}. */
    public static ClusterSession open(Path clusterDir, String member, Duration timeout) {
        return open(ClusterSpec.read(clusterDir), ClusterSpec.readSecret(clusterDir), member, timeout);
    }

    /** Connects to every node of a cluster described elsewhere (e.g. in a MapReduce job's configuration). */
    public static ClusterSession open(ClusterSpec spec, ClusterSecret secret, String member, Duration timeout) {
        ExecutorService callbacks = Executors.newFixedThreadPool(2, r -> {
            Thread t = new Thread(r, "ooo-coordinator");
            t.setDaemon(true);
            return t;
        });
        Peers peers = new Peers(member, spec, secret, callbacks, timeout);
        try {
            for (ClusterSpec.NodeSpec n : spec.nodes()) {
                try {
                    peers.client(n.id());
                } catch (RuntimeException down) {
                    if (spec.replication() == 1) {
                        throw down;
                    }
                    // its partitions have replicas elsewhere: the statements find it down and read those
                }
            }
        } catch (RuntimeException e) {
            peers.close();
            callbacks.shutdownNow();
            throw e;
        }
        return new ClusterSession(spec, peers, callbacks);
    }

    public ClusterSpec spec() {
        return spec;
    }

    /** Which node serves each partition of a table now, and which nodes are up. */
    public ServingNodes serving() {
        return serving;
    }

    public Peers peers() {
        return peers;
    }

    // The nodes' status (NodeStatusClient) and the tables they hold (ClusterTables).

    /**
     * Starts a CPU profile named {@code name} on every node ({@link CpuProfile}); a node recording one
     * already refuses, and then the nodes that started stop theirs.
     */
    public void startProfiles(String name) {
        Map<String, CompletableFuture<org.oooengine.core.net.Frame>> started = new java.util.LinkedHashMap<>();
        spec.nodes().forEach(n -> started.put(n.id(), peers.client(n.id())
                .call(org.oooengine.core.net.OpCode.PROFILE, profileStep(ProfileRequests.START, name))));
        RuntimeException refused = null;
        for (CompletableFuture<org.oooengine.core.net.Frame> answer : started.values()) {
            try {
                NodeCalls.await(answer);
            } catch (RuntimeException e) {
                refused = refused == null ? e : refused;
            }
        }
        if (refused != null) {
            started.forEach((node, answer) -> {
                if (!answer.isCompletedExceptionally()) {
                    peers.client(node).call(org.oooengine.core.net.OpCode.PROFILE, profileStep(ProfileRequests.STOP, name))
                            .exceptionally(e -> null).join();
                }
            });
            throw refused;
        }
    }

    /** Stops the profiles {@link #startProfiles} started: each node's summary (its file, samples and busiest methods), by node. */
    public Map<String, JsonNode> stopProfiles(String name) {
        Map<String, JsonNode> out = new java.util.LinkedHashMap<>();
        for (ClusterSpec.NodeSpec n : spec.nodes()) {
            byte[] answer = NodeCalls.await(peers.client(n.id())
                    .call(org.oooengine.core.net.OpCode.PROFILE, profileStep(ProfileRequests.STOP, name))).payload();
            try {
                out.put(n.id(), NodeCalls.JSON.readTree(answer));
            } catch (java.io.IOException e) {
                throw new IllegalStateException("node " + n.id() + " sent an unreadable profile summary", e);
            }
        }
        return out;
    }

    private static byte[] profileStep(byte step, String name) {
        return new org.oooengine.core.wire.PayloadWriter(8 + name.length()).put(step).putString(name).toByteArray();
    }

    /** Each node's statistics (uptime, rows per table, and its store manifest when loaded). */
    public Map<String, JsonNode> stats() {
        return status.stats();
    }

    /**
     * A node's statistics if it answers within {@code within}, connecting again when its connection
     * is closed (a node started again after it ended); empty when it does not.
     */
    public Optional<JsonNode> statsWithin(String node, Duration within) {
        return status.statsWithin(node, within);
    }

    /** What asks the nodes a statement lost the connection to how their previous run ended, waiting at most {@code wait}. */
    public LostNodes lostNodes(Duration wait) {
        return status.lostNodes(wait);
    }

    /** The store manifest of one node (all nodes share schemas). */
    public StoreManifest manifest(String node) {
        return status.manifest(node);
    }

    /** Empties every node's buffer pool: the next query reads from the disks. */
    public void dropCaches() {
        status.dropCaches();
    }

    /**
     * The cluster's tables as every node's manifest shows them, asked of all nodes at once and
     * waiting at most the session's timeout; nodes that did not answer are named in it. Lookups
     * within {@link #TABLES_MAX_AGE} of each other share one answer, unless a table changed
     * through this session in between ({@link #tablesChanged}).
     */
    public ClusterManifest tables() {
        return tables.tables();
    }

    /**
     * One table as every node holding a partition of it reports it, for callers that need all of
     * it: a snapshot missing one of its nodes is asked again rather than trusted.
     *
     * @throws ClusterException naming the nodes that did not answer
     * @throws IllegalArgumentException when no node holds the table
     */
    public ClusterManifest.Table table(String name) {
        return tables.table(name);
    }

    /**
     * Every node's manifest as one ({@link ClusterManifest#everyNode}), for callers that need the
     * whole cluster: a snapshot missing a node is asked again rather than trusted.
     *
     * @throws ClusterException naming the nodes that did not answer
     */
    public StoreManifest wholeManifest() {
        return tables.wholeManifest();
    }

    /** Tables changed (created, written, dropped): the next lookup asks the nodes again. */
    public void tablesChanged() {
        tables.tablesChanged();
    }

    // Statistics and calibration (StatisticsClient).

    /**
     * Each node's partition statistics (as collected at load), or collected anew on every node at
     * once when {@code analyze}.
     */
    public Map<String, StoreStatistics> statistics(boolean analyze) {
        return statistics.statistics(analyze);
    }

    /** Has every node collect the statistics of its partition of {@code table} anew; returns each node's. */
    public Map<String, StoreStatistics> analyze(String table) {
        return statistics.analyze(table);
    }

    /**
     * How each node's partitions' B+trees have deteriorated ({@link TreeReport}s), by node, of table
     * {@code table} only when given; each node reads its trees' leaves to answer (or answers from
     * what it measured lately). A node must answer within a request's usual deadline, or with
     * {@code patient} (ooo analyze) within that of a whole-partition scan.
     */
    public Map<String, List<TreeReport>> treeHealth(Optional<String> table, boolean patient) {
        return statistics.treeHealth(table, patient);
    }

    /**
     * Measures the device under {@code node}'s data directory: a file of {@code fileBytes} written
     * there, then random reads at each of {@code DiskProbe.QUEUE_DEPTHS} and sequential reads,
     * {@code perTest} each. The node runs it after any load it is busy with, never beside one.
     */
    public DiskProbe.Result calibrateDisk(String node, long fileBytes, Duration perTest, int pageSize) {
        return statistics.calibrateDisk(node, fileBytes, perTest, pageSize);
    }

    // Index joins (IndexJoinClient).

    /**
     * A query of the given shape, its range chosen from all values of the range column over every
     * partition, exactly as on a single node holding the whole table.
     */
    public JoinQueries.Query query(JoinQueries.Shape shape, double selectivity) {
        return indexJoins.query(shape, selectivity);
    }

    /**
     * Every key of an index (null: the clustered tree) across all partitions, in pages of
     * {@code pageSize} keys per request.
     */
    public List<byte[]> allKeys(String table, String index, int pageSize) {
        return indexJoins.allKeys(table, index, pageSize);
    }

    /** The first {@code max} keys of an index (null: the clustered tree) on one node, in key order. */
    public List<byte[]> nodeKeys(String node, String table, String index, int pageSize, int max) {
        return indexJoins.nodeKeys(node, table, index, pageSize, max);
    }

    /** Rows of one node's partition of {@code table} whose indexed {@code range} column lies in the range. */
    public long countRange(String node, String table, ColumnRange range) {
        return indexJoins.countRange(node, table, range);
    }

    /** Index lookups and row fetches on any node, as a join fragment issues them (answers on the session's threads). */
    public PartitionRouter router() {
        return indexJoins.router();
    }

    /**
     * Whether the index joins and pipelines started from now on avoid slow holders: a slow node's
     * partitions joined on another holder, requests a holder is slow to answer sent to another
     * holder of the partition too, and a partition's pipeline that is late run on another holder
     * ({@link HedgedPartitions}); on by default, off only to measure what it saves.
     */
    public void hedgedRequests(boolean on) {
        indexJoins.hedging(on);
        hedging = on;
    }

    /** Whether pipelines late on their node run on another holder of their partition too: see {@link #hedgedRequests}. */
    public boolean hedging() {
        return hedging;
    }

    /** Result of a distributed join: rows delivered to the sink, wall time, each node's figures. */
    public record JoinRun(long rows, double seconds, List<FragmentStats> fragments) {
        /** Pages the nodes read from their disks for this join. */
        public long pageReads() {
            return fragments.stream().mapToLong(FragmentStats::pageReads).sum();
        }
    }

    /** Part of one node's result stream: its rows, and how many outer rows (or scanned rows) it has finished. */
    public record Chunk(long progress, List<Object[]> rows) {
    }

    /**
     * Runs a join's fragment on one node: its partition of the outer table joined with the inner
     * table wherever that lives. Chunks (empty ones are heartbeats) arrive on the session's threads,
     * one at a time; cancelling the returned future cancels the fragment.
     */
    public CompletableFuture<FragmentStats> fragment(String node, JoinSpec spec, ExecutionMode mode, int budget,
                                                     Consumer<Chunk> chunks) {
        return fragment(node, spec, mode, budget, null, chunks);
    }

    /** As above, each node running {@code after} (may be null) over its rows before sending what comes out. */
    public CompletableFuture<FragmentStats> fragment(String node, JoinSpec spec, ExecutionMode mode, int budget,
                                                     JoinOutputSteps after, Consumer<Chunk> chunks) {
        return indexJoins.fragment(node, ServingNodes.OWN_PARTITION, spec, mode, budget, after, chunks);
    }

    /** As {@link #fragment(String, JoinSpec, ExecutionMode, int, Consumer)}, over partition {@code partition} of the outer table (its owner's, or {@code node}'s copy of it). */
    public CompletableFuture<FragmentStats> fragment(String node, int partition, JoinSpec spec, ExecutionMode mode,
                                                     int budget, Consumer<Chunk> chunks) {
        return indexJoins.fragment(node, partition, spec, mode, budget, null, chunks);
    }

    /** Runs a join on every node at once; rows go to {@code sink} (from the coordinator's threads). */
    public JoinRun join(JoinSpec spec, ExecutionMode mode, int budget, RowSink sink) {
        return join(spec, mode, budget, null, sink);
    }

    /**
     * As above, each node running {@code after} (may be null) over its share of the rows — they
     * are SQL values then — and sending what comes out of it.
     */
    public JoinRun join(JoinSpec spec, ExecutionMode mode, int budget, JoinOutputSteps after, RowSink sink) {
        return indexJoins.join(spec, mode, budget, after, sink);
    }

    // Scans and pipelines (PipelineClient).

    /**
     * Streams every row of one node's partition of {@code table}, in primary-key order; chunks
     * arrive on the session's threads, one at a time. Completes with the row count.
     */
    public CompletableFuture<Long> scan(String node, String table, Consumer<List<Object[]>> rows) {
        return scan(node, table, manifest(node).table(table).schema(), rows);
    }

    /** As {@link #scan(String, String, Consumer)}, the table's stored {@code schema} known already. */
    public CompletableFuture<Long> scan(String node, String table, Schema schema, Consumer<List<Object[]>> rows) {
        return pipelines.scan(node, table, schema, rows);
    }

    /**
     * Runs a scan pipeline on one node's partition; the rows it sends arrive in chunks on the
     * session's threads, one at a time (empty ones are heartbeats). Cancelling the returned
     * future stops the node's work.
     */
    public CompletableFuture<PartitionPipeline.Summary> pipeline(String node, ScanPipeline pipeline,
                                                                 Consumer<List<Object[]>> rows) {
        return pipeline(node, pipeline, QueryLimits.DEFAULTS, rows);
    }

    /** As above, its operators held to {@code limits} on the node (0: the node's default). */
    public CompletableFuture<PartitionPipeline.Summary> pipeline(String node, ScanPipeline pipeline, QueryLimits limits,
                                                                 Consumer<List<Object[]>> rows) {
        return pipeline(node, pipeline, limits, TransactionalReads.NONE, rows);
    }

    /** As above, the transactional tables it reads read within the transaction {@code reads} names. */
    public CompletableFuture<PartitionPipeline.Summary> pipeline(String node, ScanPipeline pipeline, QueryLimits limits,
                                                                 TransactionalReads reads, Consumer<List<Object[]>> rows) {
        return pipeline(node, pipeline, limits, reads, FileReads.NONE, rows);
    }

    /** As above, the tables held in files read from the splits {@code files} assigns to the node. */
    public CompletableFuture<PartitionPipeline.Summary> pipeline(String node, ScanPipeline pipeline, QueryLimits limits,
                                                                 TransactionalReads reads, FileReads files,
                                                                 Consumer<List<Object[]>> rows) {
        return pipelines.pipeline(node, ServingNodes.OWN_PARTITION, pipeline, limits, reads, files, rows);
    }

    /**
     * As above, over partition {@code partition} of the pipeline's tables, which {@code node} holds
     * as their owner or as a replica ({@link ClusterSpec#holders}).
     */
    public CompletableFuture<PartitionPipeline.Summary> pipeline(String node, int partition, ScanPipeline pipeline,
                                                                 QueryLimits limits, TransactionalReads reads,
                                                                 FileReads files, Consumer<List<Object[]>> rows) {
        return pipelines.pipeline(node, partition, pipeline, limits, reads, files, rows);
    }

    /**
     * As above, the pipeline's rows written into files on the node where {@code output} says (null:
     * sent back); what arrives then is a record of each file it wrote ({@link FileOutput#RECORD_COLUMNS}).
     */
    public CompletableFuture<PartitionPipeline.Summary> pipeline(String node, int partition, ScanPipeline pipeline,
                                                                 QueryLimits limits, TransactionalReads reads,
                                                                 FileReads files, FileOutput output,
                                                                 Consumer<List<Object[]>> rows) {
        return pipelines.pipeline(node, partition, pipeline, limits, reads, files, output, rows);
    }

    /**
     * Runs a shuffle's producing pipeline on one node's partition: its rows go to the nodes
     * {@code target} names, which hold them for the pipelines that build from the exchange.
     * Cancelling the returned future stops the node's work.
     */
    public CompletableFuture<PartitionPipeline.Summary> shuffle(String node, ScanPipeline pipeline, ShuffleTarget target,
                                                                QueryLimits limits) {
        return shuffle(node, pipeline, target, limits, TransactionalReads.NONE);
    }

    /** As above, the transactional tables it reads read within the transaction {@code reads} names. */
    public CompletableFuture<PartitionPipeline.Summary> shuffle(String node, ScanPipeline pipeline, ShuffleTarget target,
                                                                QueryLimits limits, TransactionalReads reads) {
        return shuffle(node, pipeline, target, limits, reads, FileReads.NONE);
    }

    /** As above, the tables held in files read from the splits {@code files} assigns to the node. */
    public CompletableFuture<PartitionPipeline.Summary> shuffle(String node, ScanPipeline pipeline, ShuffleTarget target,
                                                                QueryLimits limits, TransactionalReads reads,
                                                                FileReads files) {
        return pipelines.shuffle(node, ServingNodes.OWN_PARTITION, pipeline, target, limits, reads, files);
    }

    /** As above, over partition {@code partition} of the pipeline's tables, which {@code node} holds. */
    public CompletableFuture<PartitionPipeline.Summary> shuffle(String node, int partition, ScanPipeline pipeline,
                                                                ShuffleTarget target, QueryLimits limits,
                                                                TransactionalReads reads, FileReads files) {
        return pipelines.shuffle(node, partition, pipeline, target, limits, reads, files);
    }

    /**
     * Has {@code node} merge the partial rows of the GROUP BY groups shuffled to it under
     * {@code exchange} by {@code producers} nodes ({@code keyCount} keys, then each aggregate's
     * state); each group's result arrives in chunks on the session's threads. Cancelling the
     * returned future stops the node's work.
     */
    public CompletableFuture<PartitionPipeline.Summary> mergeGroups(String node, String exchange, int producers, int keyCount,
                                                                    List<AggregateCall> aggregates, QueryLimits limits,
                                                                    Consumer<List<Object[]>> rows) {
        return pipelines.mergeGroups(node, exchange, producers, keyCount, aggregates, limits, rows);
    }

    /**
     * Runs {@code steps} on one node over the rows {@code producers} nodes shuffle to its
     * {@code exchange}; the rows that come out arrive in chunks on the session's threads.
     */
    public CompletableFuture<PartitionPipeline.Summary> exchanged(String node, String exchange, int producers,
                                                                  ScanPipeline steps, QueryLimits limits,
                                                                  Consumer<List<Object[]>> rows) {
        return exchanged(node, exchange, producers, steps, limits, null, rows);
    }

    /**
     * As above, the rows that come out written into files on the node where {@code output} says
     * (null: sent back); what arrives then is a record of each file it wrote.
     */
    public CompletableFuture<PartitionPipeline.Summary> exchanged(String node, String exchange, int producers,
                                                                  ScanPipeline steps, QueryLimits limits,
                                                                  FileOutput output, Consumer<List<Object[]>> rows) {
        return pipelines.exchanged(node, exchange, producers, steps, limits, output, rows);
    }

    @Override
    public void close() {
        serving.close();
        peers.close();
        callbacks.shutdownNow();
        connector.shutdownNow();
    }
}
