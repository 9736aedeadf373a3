package org.oooengine.core.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Function;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.oooengine.core.exec.ColumnRange;
import org.oooengine.core.exec.JoinSpec;
import org.oooengine.core.exec.PartitionRouter;
import org.oooengine.core.exec.RowSink;
import org.oooengine.core.fragment.JoinBuild;
import org.oooengine.core.fragment.PartitionPipeline;
import org.oooengine.core.fragment.ScanPipeline;
import org.oooengine.core.sql.expr.AggregateCall;
import org.oooengine.core.fragment.ShuffleTarget;
import org.oooengine.core.net.ClusterSecret;
import org.oooengine.core.net.Frame;
import org.oooengine.core.net.FrameFormat;
import org.oooengine.core.net.NodeClient;
import org.oooengine.core.net.OpCode;
import org.oooengine.core.wire.PayloadReader;
import org.oooengine.core.wire.PayloadWriter;
import org.oooengine.core.net.RemoteException;
import org.oooengine.core.wire.ValueCodec;
import org.oooengine.core.stats.StoreStatistics;
import org.oooengine.core.storage.DiskProbe;
import org.oooengine.core.store.StoreManifest;
import org.oooengine.core.tpch.JoinQueries;
import org.oooengine.core.types.DataType;
import org.oooengine.core.types.KeyCodec;
import org.oooengine.core.types.RowCodec;
import org.oooengine.core.types.Schema;

/**
 * The coordinator's view of a running cluster: it starts a fragment of a query on every node,
 * gathers their result streams, and fails the whole query, naming the node, when any fragment or
 * connection fails — a query never returns part of its result as if it were all of it.
 */
public final class ClusterSession implements AutoCloseable {
    private static final Logger LOG = LogManager.getLogger(ClusterSession.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    /**
     * How long the nodes' answer about their tables serves lookups: the several lookups of one
     * statement share one round of requests, and a table changed elsewhere shows within this.
     */
    public static final Duration TABLES_MAX_AGE = Duration.ofSeconds(1);
    private static final int KEYS_PER_REQUEST = 50_000;
    /** A pipeline request longer than this sends its broadcast rows ahead, in chunks of {@link #STAGE_CHUNK_BYTES}. */
    private static final int STAGE_ABOVE_BYTES = 4 << 20;
    private static final int STAGE_CHUNK_BYTES = 2 << 20;
    /** How long a node may scan its partitions to collect statistics anew. */
    private static final java.time.Duration ANALYZE_TIMEOUT = java.time.Duration.ofMinutes(30);

    private final ClusterSpec spec;
    private final Peers peers;
    private final ExecutorService callbacks;
    /** Opens connections anew off the caller's thread, so that one slow node does not hold up asking the others. */
    private final ExecutorService connector;
    private final Object tablesLock = new Object();
    /** Counts changes of tables made through this session; a snapshot from before one is not used. */
    private final AtomicLong tablesVersion = new AtomicLong();
    private volatile TablesSnapshot tables;
    /** The nodes that did not answer the last round (guarded by tablesLock). */
    private List<String> silentNodes = List.of();

    private record TablesSnapshot(ClusterManifest manifest, long takenNanos, long version) {
    }

    private ClusterSession(ClusterSpec spec, Peers peers, ExecutorService callbacks) {
        this.spec = spec;
        this.peers = peers;
        this.callbacks = callbacks;
        this.connector = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "ooo-connect");
            t.setDaemon(true);
            return t;
        });
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
                peers.client(n.id());
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

    public Peers peers() {
        return peers;
    }

    /** Each node's statistics (uptime, rows per table, and its store manifest when loaded). */
    public Map<String, JsonNode> stats() {
        Map<String, JsonNode> out = new LinkedHashMap<>();
        for (ClusterSpec.NodeSpec n : spec.nodes()) {
            out.put(n.id(), stats(n.id()));
        }
        return out;
    }

    private JsonNode stats(String node) {
        Frame f = await(peers.client(node).call(OpCode.PARTITION_STATS, new byte[0]));
        try {
            return JSON.readTree(f.payload());
        } catch (Exception e) {
            throw new IllegalStateException("node " + node + " sent unreadable statistics", e);
        }
    }

    /**
     * Each node's partition statistics (as collected at load), or collected anew on every node at
     * once when {@code analyze}.
     */
    public Map<String, StoreStatistics> statistics(boolean analyze) {
        Map<String, CompletableFuture<Frame>> answers = new LinkedHashMap<>();
        byte[] request = {analyze ? Messages.STATISTICS_ANALYZE : 0};
        for (ClusterSpec.NodeSpec n : spec.nodes()) {
            // A scan of the whole partition may take longer than a request's usual deadline.
            answers.put(n.id(), peers.client(n.id()).call(OpCode.TABLE_STATISTICS, request, ANALYZE_TIMEOUT));
        }
        Map<String, StoreStatistics> out = new LinkedHashMap<>();
        answers.forEach((node, answer) -> {
            try {
                out.put(node, JSON.readValue(await(answer).payload(), StoreStatistics.class));
            } catch (java.io.IOException e) {
                throw new IllegalStateException("node " + node + " sent unreadable statistics", e);
            }
        });
        return out;
    }

    /**
     * How each node's partitions' B+trees have deteriorated ({@link org.oooengine.core.store.TreeReport}s),
     * by node, of table {@code table} only when given; each node reads its trees' leaves to answer
     * (or answers from what it measured lately). A node must answer within a request's usual
     * deadline, or with {@code patient} (ooo analyze) within that of a whole-partition scan.
     */
    public Map<String, List<org.oooengine.core.store.TreeReport>> treeHealth(Optional<String> table, boolean patient) {
        byte[] request = table.map(t -> new PayloadWriter(64).putString(t).toByteArray()).orElse(new byte[0]);
        Map<String, CompletableFuture<Frame>> answers = new LinkedHashMap<>();
        for (ClusterSpec.NodeSpec n : spec.nodes()) {
            NodeClient client = peers.client(n.id());
            answers.put(n.id(), patient ? client.call(OpCode.TREE_HEALTH, request, ANALYZE_TIMEOUT)
                    : client.call(OpCode.TREE_HEALTH, request));
        }
        Map<String, List<org.oooengine.core.store.TreeReport>> out = new LinkedHashMap<>();
        answers.forEach((node, answer) -> {
            try {
                out.put(node, JSON.readValue(await(answer).payload(), new com.fasterxml.jackson.core.type.TypeReference<
                        List<org.oooengine.core.store.TreeReport>>() { }));
            } catch (java.io.IOException e) {
                throw new IllegalStateException("node " + node + " sent an unreadable tree health report", e);
            }
        });
        return out;
    }

    /**
     * Measures the device under {@code node}'s data directory: a file of {@code fileBytes} written
     * there, then random reads at each of {@code DiskProbe.QUEUE_DEPTHS} and sequential reads,
     * {@code perTest} each. The node runs it after any load it is busy with, never beside one.
     */
    public DiskProbe.Result calibrateDisk(String node, long fileBytes, Duration perTest, int pageSize) {
        byte[] request = new PayloadWriter(20).putLong(fileBytes).putLong(perTest.toNanos()).putInt(pageSize).toByteArray();
        // writing the file at a slow disk's pace, then one test per queue depth and one sequential
        Duration deadline = Duration.ofMinutes(5).plus(perTest.multipliedBy(4L * (1 + DiskProbe.QUEUE_DEPTHS.length)));
        Frame answer = await(peers.client(node).call(OpCode.CALIBRATE_DISK, request, deadline));
        try {
            return JSON.readValue(answer.payload(), DiskProbe.Result.class);
        } catch (java.io.IOException e) {
            throw new IllegalStateException("node " + node + " sent an unreadable disk calibration", e);
        }
    }

    /** Empties every node's buffer pool: the next query reads from the disks. */
    public void dropCaches() {
        for (ClusterSpec.NodeSpec n : spec.nodes()) {
            await(peers.client(n.id()).call(OpCode.PARTITION_STATS, new byte[] {Messages.STATS_DROP_CACHE}));
        }
    }

    /**
     * A query of the given shape, its range chosen from all values of the range column over every
     * partition, exactly as on a single node holding the whole table.
     */
    public JoinQueries.Query query(JoinQueries.Shape shape, double selectivity) {
        StoreManifest.TableMeta t = table(shape.outer()).meta();
        StoreManifest.IndexMeta ix = t.indexes().stream().filter(i -> i.columns().get(0).equals(shape.rangeColumn()))
                .findFirst().orElseThrow(() -> new IllegalArgumentException("no index on " + t.name() + "."
                        + shape.rangeColumn()));
        List<String> keyColumns = new ArrayList<>(ix.columns());
        keyColumns.addAll(t.primaryKey());
        DataType[] types = keyColumns.stream().map(c -> DataType.parse(t.columns().stream()
                .filter(col -> col.name().equals(c)).findFirst().orElseThrow().type())).toArray(DataType[]::new);
        KeyCodec codec = new KeyCodec(types);
        List<byte[]> keys = allKeys(t.name(), ix.name(), KEYS_PER_REQUEST);
        @SuppressWarnings("unchecked")
        Comparable<Object>[] values = new Comparable[keys.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = (Comparable<Object>) codec.decode(keys.get(i))[0];
        }
        java.util.Arrays.sort(values);
        return JoinQueries.build(shape, selectivity, values);
    }

    /**
     * The cluster's tables as every node's manifest shows them, asked of all nodes at once and
     * waiting at most the session's timeout; nodes that did not answer are named in it. Lookups
     * within {@link #TABLES_MAX_AGE} of each other share one answer, unless a table changed
     * through this session in between ({@link #tablesChanged}).
     */
    public ClusterManifest tables() {
        TablesSnapshot s = tables;
        if (fresh(s)) {
            return s.manifest();
        }
        synchronized (tablesLock) {
            s = tables;
            if (fresh(s)) {
                return s.manifest(); // asked while this thread waited
            }
            return askTables();
        }
    }

    /**
     * One table as every node holding a partition of it reports it, for callers that need all of
     * it: a snapshot missing one of its nodes is asked again rather than trusted.
     *
     * @throws ClusterException naming the nodes that did not answer
     * @throws IllegalArgumentException when no node holds the table
     */
    public ClusterManifest.Table table(String name) {
        ClusterManifest.Table t = tables().table(name).filter(ClusterManifest.Table::complete).orElse(null);
        if (t != null) {
            return t;
        }
        ClusterManifest fresh;
        synchronized (tablesLock) {
            fresh = askTables();
        }
        Optional<ClusterManifest.Table> found = fresh.table(name);
        if (found.isPresent() && !found.get().complete()) {
            throw new ClusterException("table " + name + ": " + ClusterManifest.describe(found.get().missing()));
        }
        return found.orElseThrow(() -> fresh.unanswered().isEmpty()
                ? new IllegalArgumentException("no table '" + name + "' on cluster " + spec.name() + "; tables: "
                        + fresh.tableNames())
                : new ClusterException("table " + name + " is on none of the nodes that answered; "
                        + ClusterManifest.describe(fresh.unanswered())));
    }

    /**
     * Every node's manifest as one ({@link ClusterManifest#everyNode}), for callers that need the
     * whole cluster: a snapshot missing a node is asked again rather than trusted.
     *
     * @throws ClusterException naming the nodes that did not answer
     */
    public StoreManifest wholeManifest() {
        ClusterManifest m = tables();
        if (!m.unanswered().isEmpty()) {
            synchronized (tablesLock) {
                m = askTables();
            }
        }
        return m.everyNode();
    }

    /** Tables changed (created, written, dropped): the next lookup asks the nodes again. */
    public void tablesChanged() {
        tablesVersion.incrementAndGet();
    }

    private boolean fresh(TablesSnapshot s) {
        return s != null && s.version() == tablesVersion.get()
                && System.nanoTime() - s.takenNanos() < TABLES_MAX_AGE.toNanos();
    }

    private ClusterManifest askTables() {
        long version = tablesVersion.get();
        ClusterManifest m = ClusterManifest.ask(spec, node -> statsAsync(node, peers.timeout()), peers.timeout());
        logChange(m.unanswered());
        // Taken when the answers are in: a round that waited out a silent node still serves the statement's
        // next lookups. One that no node answered serves none: it fails its statement at once anyway.
        tables = m.noneAnswered() ? null : new TablesSnapshot(m, System.nanoTime(), version);
        return m;
    }

    /** Logs when the nodes that do not answer change, not on every round while they stay silent. */
    private void logChange(List<ClusterManifest.Missing> unanswered) {
        List<String> nodes = unanswered.stream().map(ClusterManifest.Missing::node).toList();
        if (nodes.equals(silentNodes)) {
            return;
        }
        if (nodes.isEmpty()) {
            LOG.info("every node answers again");
        } else {
            LOG.warn("tables known from the nodes that answer; {}", ClusterManifest.describe(unanswered));
        }
        silentNodes = nodes;
    }

    /**
     * A node's statistics if it answers within {@code within}, connecting again when its connection
     * is closed (a node started again after it ended); empty when it does not.
     */
    public Optional<JsonNode> statsWithin(String node, Duration within) {
        CompletableFuture<JsonNode> answer = statsAsync(node, within);
        try {
            return Optional.of(answer.get(within.toNanos(), java.util.concurrent.TimeUnit.NANOSECONDS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            return Optional.empty();
        }
    }

    /** What asks the nodes a statement lost the connection to how their previous run ended, waiting at most {@code wait}. */
    public LostNodes lostNodes(Duration wait) {
        return new LostNodes(this::statsWithin, spec.nodes().stream().map(ClusterSpec.NodeSpec::id).toList(), wait);
    }

    /** A node's statistics, connecting first (off this thread) when its connection is closed. */
    private CompletableFuture<JsonNode> statsAsync(String node, Duration timeout) {
        NodeClient open = peers.connected(node);
        CompletableFuture<NodeClient> client = open != null ? CompletableFuture.completedFuture(open)
                : CompletableFuture.supplyAsync(() -> peers.client(node), connector);
        return client.thenCompose(c -> c.call(OpCode.PARTITION_STATS, new byte[0], timeout)).thenApply(f -> {
            try {
                return JSON.readTree(f.payload());
            } catch (Exception e) {
                throw new IllegalStateException("sent unreadable statistics", e);
            }
        });
    }

    /** The store manifest of one node (all nodes share schemas). */
    public StoreManifest manifest(String node) {
        JsonNode m = stats(node).get("manifest");
        if (m == null) {
            throw new ClusterException("node " + node + " has no data loaded; load with: ooo load tpch --sf 1 --cluster <dir>");
        }
        return JSON.convertValue(m, StoreManifest.class);
    }

    /**
     * Every key of an index (null: the clustered tree) across all partitions, in pages of
     * {@code pageSize} keys per request.
     */
    public List<byte[]> allKeys(String table, String index, int pageSize) {
        List<byte[]> keys = new ArrayList<>();
        for (ClusterSpec.NodeSpec n : spec.nodes()) {
            keys.addAll(nodeKeys(n.id(), table, index, pageSize, Integer.MAX_VALUE));
        }
        return keys;
    }

    /** The first {@code max} keys of an index (null: the clustered tree) on one node, in key order. */
    public List<byte[]> nodeKeys(String node, String table, String index, int pageSize, int max) {
        List<byte[]> keys = new ArrayList<>();
        byte[] from = new byte[0];
        while (keys.size() < max) {
            int limit = Math.min(pageSize, max - keys.size());
            Frame f = await(peers.client(node).call(OpCode.INDEX_RANGE_LOOKUP,
                    Messages.rangeLookup(table, index, from, null, limit)));
            List<PartitionRouter.Entry> page = Messages.readEntries(f.reader());
            page.forEach(e -> keys.add(e.key()));
            if (page.size() < limit) {
                break;
            }
            from = KeyCodec.successor(page.get(page.size() - 1).key());
        }
        return keys;
    }

    /** Rows of one node's partition of {@code table} whose indexed {@code range} column lies in the range. */
    public long countRange(String node, String table, ColumnRange range) {
        return await(peers.client(node).call(OpCode.COUNT_RANGE, Messages.countRange(table, range))).reader().getLong();
    }

    /** Index lookups and row fetches on any node, as a join fragment issues them (answers on the session's threads). */
    public PartitionRouter router() {
        return new ClusterRouter("coordinator", peers);
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
        byte[] request = Messages.fragment(new Messages.Fragment(spec, mode, budget, after));
        if (request.length > STAGE_ABOVE_BYTES && after != null) {
            try {
                request = Messages.fragment(new Messages.Fragment(spec, mode, budget,
                        new JoinOutputSteps(after.types(), staged(node, after.pipeline()).steps())));
            } catch (RuntimeException e) {
                return CompletableFuture.failedFuture(e);
            }
        }
        CompletableFuture<Frame> end = peers.client(node).stream(OpCode.RUN_FRAGMENT, request,
                chunk -> chunks.accept(Messages.readResultChunk(chunk.reader())));
        CompletableFuture<FragmentStats> stats = end.thenApply(f -> {
            try {
                return JSON.readValue(f.payload(), FragmentStats.class);
            } catch (Exception e) {
                throw new IllegalStateException("node " + node + " sent an unreadable fragment summary", e);
            }
        });
        stats.whenComplete((v, e) -> {
            if (stats.isCancelled()) {
                end.cancel(false);
            }
        });
        return stats;
    }

    /**
     * Streams every row of one node's partition of {@code table}, in primary-key order; chunks
     * arrive on the session's threads, one at a time. Completes with the row count.
     */
    public CompletableFuture<Long> scan(String node, String table, Consumer<List<Object[]>> rows) {
        return scan(node, table, manifest(node).table(table).schema(), rows);
    }

    /** As {@link #scan(String, String, Consumer)}, the table's stored {@code schema} known already. */
    public CompletableFuture<Long> scan(String node, String table, Schema schema, Consumer<List<Object[]>> rows) {
        RowCodec codec = new RowCodec(schema);
        CompletableFuture<Frame> end = peers.client(node).stream(OpCode.SCAN_PARTITION,
                new PayloadWriter(32).putString(table).toByteArray(), chunk -> {
                    PayloadReader r = chunk.reader();
                    int n = r.getVarInt();
                    List<Object[]> decoded = new ArrayList<>(n);
                    for (int i = 0; i < n; i++) {
                        decoded.add(codec.decode(r.getBytes()));
                    }
                    rows.accept(decoded);
                });
        CompletableFuture<Long> count = end.thenApply(f -> f.reader().getLong());
        count.whenComplete((v, e) -> {
            if (count.isCancelled()) {
                end.cancel(false);
            }
        });
        return count;
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
        return run(node, OpCode.RUN_PIPELINE, pipeline, p -> Messages.pipeline(p, limits, reads), rows);
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
        return run(node, OpCode.RUN_SHUFFLE, pipeline, p -> Messages.shuffle(p, target, limits, reads), rows -> { });
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
        byte[] request = Messages.mergeGroups(new Messages.MergeGroups(exchange, producers, keyCount, aggregates,
                limits));
        return summarised(peers.client(node).stream(OpCode.MERGE_GROUPS, request,
                chunk -> rows.accept(Messages.readResultChunk(chunk.reader()).rows()), ClusterSession::checkSummary));
    }

    /**
     * Runs {@code steps} on one node over the rows {@code producers} nodes shuffle to its
     * {@code exchange}; the rows that come out arrive in chunks on the session's threads.
     */
    public CompletableFuture<PartitionPipeline.Summary> exchanged(String node, String exchange, int producers,
                                                                  ScanPipeline steps, QueryLimits limits,
                                                                  Consumer<List<Object[]>> rows) {
        byte[] request = Messages.exchanged(new Messages.Exchanged(exchange, producers, steps, limits));
        return summarised(peers.client(node).stream(OpCode.RUN_EXCHANGED, request,
                chunk -> rows.accept(Messages.readResultChunk(chunk.reader()).rows()), ClusterSession::checkSummary));
    }

    /** Reads a pipeline's summary where frames are read: a malformed one closes the connection. */
    private static void checkSummary(Frame end) {
        Messages.readPipelineSummary(end.reader());
    }

    /** The summary a node's pipeline ends with; cancelling it stops the node's work. */
    private static CompletableFuture<PartitionPipeline.Summary> summarised(CompletableFuture<Frame> end) {
        CompletableFuture<PartitionPipeline.Summary> summary = end.thenApply(f -> Messages.readPipelineSummary(f.reader()));
        summary.whenComplete((v, e) -> {
            if (summary.isCancelled()) {
                end.cancel(false);
            }
        });
        return summary;
    }

    private CompletableFuture<PartitionPipeline.Summary> run(String node, OpCode op, ScanPipeline pipeline,
                                                             Function<ScanPipeline, byte[]> encode,
                                                             Consumer<List<Object[]>> rows) {
        byte[] request = encode.apply(pipeline);
        if (request.length > STAGE_ABOVE_BYTES) {
            try {
                request = encode.apply(staged(node, pipeline));
            } catch (RuntimeException e) {
                return CompletableFuture.failedFuture(e);
            }
        }
        if (request.length > FrameFormat.MAX_FRAME_BYTES - 64) {
            return CompletableFuture.failedFuture(new ClusterException("the pipeline for node " + node + " takes "
                    + request.length / (1 << 20) + " MiB, over the frame limit of "
                    + (FrameFormat.MAX_FRAME_BYTES >> 20) + " MiB"));
        }
        return summarised(peers.client(node).stream(op, request,
                chunk -> rows.accept(Messages.readResultChunk(chunk.reader()).rows()), ClusterSession::checkSummary));
    }

    /** {@code pipeline} with its joins' broadcast rows sent to {@code node} ahead of it ({@link #stage}). */
    private ScanPipeline staged(String node, ScanPipeline pipeline) {
        return pipeline.withBuilds(build -> build instanceof JoinBuild.Rows r ? stage(node, r.rows()) : build);
    }

    /**
     * Sends broadcast rows to {@code node} ahead of the pipeline that builds from them, a chunk of
     * about {@link #STAGE_CHUNK_BYTES} at a time (each acknowledged before the next: the node's
     * pace holds the sender back), and names them for the pipeline.
     */
    private JoinBuild.Staged stage(String node, List<Object[]> rows) {
        String id = UUID.randomUUID().toString();
        PayloadWriter sample = new PayloadWriter(4096);
        int sampled = Math.min(rows.size(), 256);
        rows.subList(0, sampled).forEach(row -> ValueCodec.writeRow(sample, row));
        int perChunk = (int) Math.max(1, (long) STAGE_CHUNK_BYTES * Math.max(sampled, 1) / Math.max(sample.size(), 1));
        for (int from = 0; from < rows.size() || from == 0; from += perChunk) {
            List<Object[]> chunk = rows.subList(from, Math.min(rows.size(), from + perChunk));
            peers.client(node).call(OpCode.STAGE_ROWS, Messages.stagedChunk(id, chunk)).join();
            if (rows.isEmpty()) {
                break;
            }
        }
        return new JoinBuild.Staged(id);
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
        long t0 = System.nanoTime();
        long[] rows = {0};
        List<CompletableFuture<FragmentStats>> ends = new ArrayList<>();
        for (ClusterSpec.NodeSpec n : this.spec.nodes()) {
            ends.add(fragment(n.id(), spec, mode, budget, after, chunk -> {
                synchronized (rows) {
                    rows[0] += chunk.rows().size();
                    chunk.rows().forEach(sink::accept);
                }
            }));
        }
        try {
            CompletableFuture.allOf(ends.toArray(CompletableFuture[]::new)).join();
        } catch (CompletionException e) {
            ends.forEach(f -> f.cancel(false));
            throw firstFailure(ends, e);
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        return new JoinRun(rows[0], seconds, ends.stream().map(CompletableFuture::join).toList());
    }

    // allOf fails with whichever failure it met first; prefer one naming a node.
    private static RuntimeException firstFailure(List<? extends CompletableFuture<?>> ends, CompletionException e) {
        for (CompletableFuture<?> f : ends) {
            if (f.isCompletedExceptionally()) {
                try {
                    f.join();
                } catch (CompletionException x) {
                    if (x.getCause() instanceof RemoteException re) {
                        return re;
                    }
                }
            }
        }
        return e.getCause() instanceof RuntimeException re ? re : e;
    }

    private static Frame await(CompletableFuture<Frame> f) {
        try {
            return f.join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException re ? re : e;
        }
    }

    @Override
    public void close() {
        peers.close();
        callbacks.shutdownNow();
        connector.shutdownNow();
    }
}
