package org.oooengine.core.cluster;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.oooengine.core.exec.ColumnRange;
import org.oooengine.core.exec.DistributedIndexJoin;
import org.oooengine.core.exec.IndexRangeScan;
import org.oooengine.core.exec.PartitionRouter;
import org.oooengine.core.fragment.PartitionPipeline;
import org.oooengine.core.fragment.StagedRows;
import org.oooengine.core.fragment.Exchanges;
import org.oooengine.core.fragment.JoinBuild;
import org.oooengine.core.fragment.Pipeline;
import org.oooengine.core.fragment.PipelineStep;
import org.oooengine.core.fragment.MemoryLimitExceededException;
import org.oooengine.core.fragment.NodeMemory;
import org.oooengine.core.fragment.QueryMemory;
import org.oooengine.core.fragment.SpillLimitExceededException;
import org.oooengine.core.fragment.SpillSpace;
import org.oooengine.core.fragment.FinalAggregation;
import org.oooengine.core.fragment.ScanPipeline;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.net.ErrorCode;
import org.oooengine.core.net.Frame;
import org.oooengine.core.wire.PayloadReader;
import org.oooengine.core.wire.PayloadWriter;
import org.oooengine.core.wire.ProtocolException;
import org.oooengine.core.net.RemoteException;
import org.oooengine.core.net.RequestHandler;
import org.oooengine.core.net.Responder;
import org.oooengine.core.storage.BTree;
import org.oooengine.core.storage.DirectIoUnsupportedException;
import org.oooengine.core.storage.Directories;
import org.oooengine.core.storage.DiskProbe;
import org.oooengine.core.storage.LeafScanner;
import org.oooengine.core.storage.SplitPolicy;
import org.oooengine.core.storage.DataCorruptedException;
import org.oooengine.core.stats.StatisticsCollector;
import org.oooengine.core.stats.StoreStatistics;
import org.oooengine.core.store.Store;
import org.oooengine.core.store.StoreManifest;
import org.oooengine.core.store.StoreOptions;
import org.oooengine.core.store.Table;
import org.oooengine.core.store.TableDefinition;
import org.oooengine.core.store.TableWriter;
import org.oooengine.core.store.TreeReport;
import org.oooengine.core.types.RowCodec;

/**
 * What a node does for its members: lookups and fetches on its partitions, partition scans and
 * statistics, bulk loads, and join fragments. Lookups run on the storage threads and answer when
 * their reads complete; scans, loads and fragments block, so they get threads of their own.
 */
public final class NodeService implements RequestHandler, AutoCloseable {
    private static final Logger LOG = LogManager.getLogger(NodeService.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final byte[] EMPTY = new byte[0];
    private static final int SCAN_CHUNK_BYTES = 64 << 10;
    private static final long LOAD_SORT_MEMORY = 64L << 20;
    private static final long HEARTBEAT_MILLIS = 1000;
    /** The most bytes of broadcast rows a node holds for pipelines to come. */
    private static final long MAX_STAGED_BYTES = 256L << 20;
    /** The most bytes of shuffled rows a node holds for the pipelines that build from them. */
    private static final long MAX_EXCHANGE_BYTES = 512L << 20;
    /** How the operator sets what a node grants one query's request at most ({@link Caps#queryMaxMemoryBytes}). */
    public static final String MEMORY_CAP_FLAG = "ooo node --query-max-memory";
    /** How the operator sets the spill space of a node for all its queries ({@link Caps#spillMaxBytes}). */
    public static final String SPILL_CAP_FLAG = "ooo node --spill-max";

    /** How the operator sets what all the statements running on a node may hold together ({@link Caps#statementsMemoryBytes}). */
    public static final String STATEMENTS_MEMORY_CAP_FLAG = "ooo node --statements-memory";

    /**
     * What a node grants its queries, whatever a request asks: its operators hold at most
     * {@code queryMaxMemoryBytes} (0: half the node's heap, the default a request that asks
     * nothing gets too), and the spill files of all the node's queries take at most
     * {@code spillMaxBytes} of disk together (0: {@link SpillSpace#defaultMaxBytes}, half of what
     * is free on the data directory's file system when the node starts). All the statements
     * running on the node hold at most {@code statementsMemoryBytes} together, their operators and
     * the rows sent ahead for them (0: {@link #DEFAULT_HEAP_SHARE} of the heap); at most
     * {@code maxStatements} of them (their fragments here) run at once, and none starts while those
     * running hold {@link #ADMIT_BELOW_SHARE} of that memory: the others wait their turn, at most
     * {@code admissionWait}.
     */
    public record Caps(long queryMaxMemoryBytes, long spillMaxBytes, long statementsMemoryBytes, int maxStatements,
                       Duration admissionWait) {
        /** The share of the heap the statements may hold together by default (the rest: batches in flight, buffers). */
        public static final double DEFAULT_HEAP_SHARE = 0.6;
        /** A statement waits while those running hold more than this share of the node's memory for statements. */
        public static final double ADMIT_BELOW_SHARE = 0.75;
        public static final int DEFAULT_MAX_STATEMENTS = 8;
        public static final Duration DEFAULT_ADMISSION_WAIT = Duration.ofSeconds(60);
        public static final Caps DEFAULTS = new Caps(0, 0);

        public Caps {
            if (queryMaxMemoryBytes < 0 || spillMaxBytes < 0 || statementsMemoryBytes < 0) {
                throw new IllegalArgumentException("node caps of " + queryMaxMemoryBytes + ", " + spillMaxBytes + " and "
                        + statementsMemoryBytes + " bytes");
            }
            if (maxStatements < 1 || admissionWait.isNegative()) {
                throw new IllegalArgumentException("a node runs at least one statement at once, not " + maxStatements
                        + ", and waits no negative time");
            }
        }

        /** Caps of memory and spill; statements' defaults. */
        public Caps(long queryMaxMemoryBytes, long spillMaxBytes) {
            this(queryMaxMemoryBytes, spillMaxBytes, 0, DEFAULT_MAX_STATEMENTS, DEFAULT_ADMISSION_WAIT);
        }

        /** The bytes the statements may hold together in a process whose heap is {@code maxHeap}. */
        public long statementsMemoryBytes(long maxHeap) {
            return statementsMemoryBytes > 0 ? statementsMemoryBytes : (long) (maxHeap * DEFAULT_HEAP_SHARE);
        }

        public Caps withStatements(long memoryBytes, int max, Duration wait) {
            return new Caps(queryMaxMemoryBytes, spillMaxBytes, memoryBytes, max, wait);
        }
    }
    /** How long a store replaced by a load keeps serving the requests that began on it. */
    private static final Duration RETIRED_STORE_GRACE = Duration.ofSeconds(60);
    /**
     * The machine this node runs on, as its running kernel's boot id: nodes with addresses of their
     * own (network-namespace hosts, several addresses of one host) that share cores and devices
     * report the same one. Absent where the kernel does not tell (not Linux).
     */
    private static final Optional<String> MACHINE = machine();

    private final String nodeId;
    private final Path dataDir;
    private final StoreOptions options;
    private final Duration timeout;
    private final Peers peers;
    private final long startedAt = System.currentTimeMillis();
    private final ExecutorService fragments;
    private final ExecutorService loads;
    private final java.util.concurrent.ScheduledExecutorService heartbeats;
    private final StagedRows staged;
    /** Pipelines (receiving or producing) running now: what a cancelled statement must bring to zero. */
    private final java.util.concurrent.atomic.AtomicInteger pipelinesRunning = new java.util.concurrent.atomic.AtomicInteger();
    /** Chunks of broadcast rows received ahead of their pipelines, since the node started. */
    private final java.util.concurrent.atomic.AtomicLong chunksStaged = new java.util.concurrent.atomic.AtomicLong();
    /** Bytes the requests' operators spilled to disk since the node started. */
    private final java.util.concurrent.atomic.AtomicLong bytesSpilled = new java.util.concurrent.atomic.AtomicLong();
    /** The most a request's operators hold, whatever it asks. */
    private final long queryMaxMemory;
    /** The disk the spill files of all this node's requests may take together. */
    private final SpillSpace spillSpace;
    private final Exchanges exchanges;
    /** What the statements running here hold together: their operators, and the rows sent ahead for them. */
    private final NodeMemory memory;
    /** Statements waiting for their turn to run here. */
    private final Admission admission;
    private volatile Store store;
    private LoadSession load;
    /** The manifest of {@link #load}, staged and ready to publish. */
    private StoreManifest prepared;
    /** Writes in place, a statement at a time, on the write thread ({@link #loads}). */
    private final InPlaceWrites writes;
    /** How often the write thread settles what coordinators of writes in place left ({@link InPlaceWrites#tick}). */
    private static final Duration WRITE_TICK = Duration.ofSeconds(2);
    private final java.util.concurrent.atomic.AtomicBoolean writeTickQueued = new java.util.concurrent.atomic.AtomicBoolean();
    /** How long a tree health answer serves while its tables take no writes. */
    private static final Duration HEALTH_MAX_AGE = Duration.ofSeconds(30);
    private final Map<String, HealthAnswer> healthAnswers = new java.util.concurrent.ConcurrentHashMap<>();
    /** A store a load replaced, until it is closed. */
    private volatile Store replaced;
    /** Reorganizes the trees that writes in place let deteriorate, between statements. */
    private final TreeMaintenance maintenance;
    /** The node's transactional tables and its side of their two-phase commits. */
    private final TransactionService transactions;
    /** How the run before this one ended, when its supervisor started this one after it (reported in stats). */
    private final Optional<PreviousEnd> previousEnd;

    public NodeService(String nodeId, ClusterSpec spec, Path clusterDir, Peers peers, StoreOptions options,
                       Duration timeout) {
        this(nodeId, spec, clusterDir, peers, options, timeout, Caps.DEFAULTS);
    }

    /** As above, granting its queries no more than {@code caps}. */
    public NodeService(String nodeId, ClusterSpec spec, Path clusterDir, Peers peers, StoreOptions options,
                       Duration timeout, Caps caps) {
        this.nodeId = nodeId;
        this.previousEnd = previousEnd(nodeId, clusterDir);
        this.memory = new NodeMemory("node " + nodeId, caps.statementsMemoryBytes(Runtime.getRuntime().maxMemory()),
                STATEMENTS_MEMORY_CAP_FLAG);
        this.admission = new Admission(nodeId, caps, memory);
        this.dataDir = spec.dataDir(clusterDir, spec.node(nodeId));
        this.options = options;
        this.timeout = timeout;
        this.peers = peers;
        this.staged = new StagedRows(nodeId, MAX_STAGED_BYTES, memory);
        this.exchanges = new Exchanges(nodeId, MAX_EXCHANGE_BYTES, memory);
        this.fragments = Executors.newCachedThreadPool(org.oooengine.core.threads.DaemonThreads.background("ooo-fragment-" + nodeId));
        this.loads = Executors.newSingleThreadExecutor(org.oooengine.core.threads.DaemonThreads.background("ooo-load-" + nodeId));
        this.heartbeats = Executors.newSingleThreadScheduledExecutor(org.oooengine.core.threads.DaemonThreads.named("ooo-heartbeat-" + nodeId));
        this.writes = new InPlaceWrites(nodeId, dataDir, () -> store, this::closeReplacedStore, () -> load != null,
                this::askOutcome, work -> {
                    try {
                        loads.execute(work);
                    } catch (java.util.concurrent.RejectedExecutionException e) {
                        // the node is closing: what the answer settles is settled when it starts again
                    }
                });
        this.maintenance = new TreeMaintenance(nodeId, () -> store, loads, heartbeats, writes::idle,
                TreeMaintenance.Options.defaults());
        maintenance.start();
        this.transactions = new TransactionService(nodeId, dataDir.resolve("txn"), peers,
                TransactionService.Options.defaults(), this::fail);
        heartbeats.scheduleWithFixedDelay(() -> {
            if (writeTickQueued.compareAndSet(false, true)) {
                loads.execute(() -> {
                    writeTickQueued.set(false);
                    writes.tick();
                });
            }
        }, WRITE_TICK.toMillis(), WRITE_TICK.toMillis(), TimeUnit.MILLISECONDS);
        try {
            Directories.deleteRecursively(dataDir.resolve("spill")); // what a node that died while spilling left
        } catch (RuntimeException e) {
            LOG.warn("node {}: cannot clear its spill directory: {}", nodeId, e.getMessage());
        }
        this.queryMaxMemory = caps.queryMaxMemoryBytes() > 0 ? caps.queryMaxMemoryBytes()
                : Runtime.getRuntime().maxMemory() / 2;
        this.spillSpace = new SpillSpace("node " + nodeId, caps.spillMaxBytes() > 0 ? caps.spillMaxBytes()
                : SpillSpace.defaultMaxBytes(dataDir), SPILL_CAP_FLAG);
        LOG.info("node {} grants a query at most {} MiB of memory; its queries may spill {} MiB together; the statements "
                + "running on it hold at most {} MiB together, at most {} of them at once", nodeId, queryMaxMemory >> 20,
                spillSpace.maxBytes() >> 20, memory.limit() >> 20, caps.maxStatements());
        Path current = storeDir();
        recoverInterruptedPublish(current);
        try {
            writes.recover(current, this::askOutcomeNow); // committed statements rolled forward before anything reads
        } catch (RuntimeException e) {
            transactions.close();
            writes.close();
            heartbeats.shutdownNow();
            loads.shutdownNow();
            fragments.shutdownNow();
            throw e;
        }
        if (StoreManifest.exists(current)) {
            try {
                store = openStore(current);
            } catch (RuntimeException e) {
                transactions.close(); // its RocksDB lock would keep a node started again in this process out
                throw e;
            }
            LOG.info("node {} serves {} tables from {}", nodeId, store.tables().size(), current);
        } else {
            LOG.info("node {} has no data yet ({} holds no store)", nodeId, current);
        }
    }

    /** What this node's supervisor recorded of the run before this one, if it started this one after it. */
    private static Optional<PreviousEnd> previousEnd(String nodeId, Path clusterDir) {
        if (clusterDir == null) {
            return Optional.empty();
        }
        Path file = PreviousEnd.file(clusterDir, nodeId);
        try {
            Optional<PreviousEnd> end = PreviousEnd.read(file);
            end.ifPresent(e -> LOG.info("node {} was started again by its supervisor after its previous run ended: {}",
                    nodeId, e));
            return end;
        } catch (java.io.IOException | IllegalArgumentException e) {
            LOG.warn("node {}: cannot read {}: {}", nodeId, file, e.getMessage());
            return Optional.empty();
        }
    }

    private Path storeDir() {
        return dataDir.resolve("store");
    }

    /** Asks {@code decider} what became of statement {@code statement} (connecting off the write thread). */
    private CompletableFuture<Byte> askOutcome(String decider, long statement) {
        byte[] payload = new PayloadWriter(10).put(Messages.WRITE_OUTCOME).putLong(statement).put((byte) 0).toByteArray();
        return CompletableFuture.supplyAsync(() -> peers.client(decider), fragments)
                .thenCompose(c -> c.call(org.oooengine.core.net.OpCode.WRITE_ROWS, payload))
                .thenApply(f -> f.reader().get());
    }

    /** As above, waiting at most the request timeout: null when it cannot be asked (a node starting). */
    private Byte askOutcomeNow(String decider, long statement) {
        try {
            return askOutcome(decider, statement).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            LOG.info("node {}: cannot ask node {} about statement {}: {}", nodeId, decider, InPlaceWrites.name(statement),
                    e.getCause() == null ? e.toString() : e.getCause().getMessage());
            return null;
        }
    }

    /**
     * A node that died between the two moves of a publish has its old store as the previous one and
     * none in place: it serves the old one again (the coordinator restores it on the other nodes).
     */
    private void recoverInterruptedPublish(Path current) {
        Path previous = previousStoreDir();
        if (!Files.exists(current) && StoreManifest.exists(previous)) {
            try {
                Files.move(previous, current, StandardCopyOption.ATOMIC_MOVE);
                LOG.warn("node {}: a load was cut short while it was being published; serving the store as it was", nodeId);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException("cannot restore " + previous + " to " + current, e);
            }
        }
    }

    @Override
    public void handle(Frame request, Responder out) {
        PayloadReader r = request.reader();
        switch (request.op()) {
            case INDEX_POINT_LOOKUP -> lookup(Messages.readPointLookup(r), out);
            case INDEX_RANGE_LOOKUP -> lookup(Messages.readRangeLookup(r), out);
            case FETCH_ROWS -> fetch(r, out);
            case PARTITION_STATS -> {
                if (r.hasMore() && (r.get() & Messages.STATS_DROP_CACHE) != 0 && store != null) {
                    store.bufferPool().clear();
                }
                out.reply(stats());
            }
            case TABLE_STATISTICS -> {
                boolean analyze = r.hasMore() && (r.get() & Messages.STATISTICS_ANALYZE) != 0;
                fragments.execute(() -> answer(out, () -> out.reply(statistics(analyze))));
            }
            case SCAN_PARTITION -> {
                String table = r.getString();
                fragments.execute(() -> answer(out, () -> scan(table, out)));
            }
            case BULK_LOAD -> {
                byte[] payload = request.payload();
                loads.execute(() -> answer(out, () -> out.reply(loadStep(new PayloadReader(payload)))));
            }
            case TREE_HEALTH -> {
                String table = r.hasMore() ? r.getString() : null; // null: every table
                fragments.execute(() -> answer(out, () -> out.reply(treeHealth(table))));
            }
            case WRITE_ROWS -> {
                byte[] payload = request.payload(); // in turn with loads: a load's swap never meets a write half done
                loads.execute(() -> answer(out, () -> out.reply(writeStep(new PayloadReader(payload)))));
            }
            case COUNT_RANGE -> {
                String table = r.getString();
                ColumnRange range = JoinSpecCodec.readRange(r);
                fragments.execute(() -> answer(out, () -> out.reply(new PayloadWriter(8)
                        .putLong(new IndexRangeScan(requireStore().table(table), range, new int[0], null).count())
                        .toByteArray())));
            }
            case CALIBRATE_DISK -> {
                long fileBytes = r.getLong();
                Duration perTest = Duration.ofNanos(r.getLong());
                int pageSize = r.getInt();
                // on the load thread: a measurement beside a load would measure neither
                loads.execute(() -> answer(out, () -> out.reply(JSON.writeValueAsBytes(
                        new DiskProbe(dataDir, fileBytes, pageSize)
                                .run(perTest, DiskProbe.QUEUE_DEPTHS)))));
            }
            case RUN_FRAGMENT -> {
                Messages.Fragment f = Messages.readFragment(r);
                fragments.execute(() -> answer(out, () -> admitted(out, true, () -> runFragment(f, out))));
            }
            case RUN_PIPELINE -> {
                Messages.Pipeline p = Messages.readPipeline(r);
                // one that builds from shuffled rows waits for their producers: it never queues behind them
                runWithMemory(p.limits(), out, p.pipeline().exchangeIds().isEmpty(),
                        memory -> runPipeline(p.pipeline(), p.reads(), memory, out));
            }
            case RUN_SHUFFLE -> {
                Messages.Shuffle shuffle = Messages.readShuffle(r);
                runWithMemory(shuffle.limits(), out, shuffle.pipeline().exchangeIds().isEmpty(),
                        memory -> runShuffle(shuffle, memory, out));
            }
            case MERGE_GROUPS -> {
                Messages.MergeGroups m = Messages.readMergeGroups(r);
                runWithMemory(m.limits(), out, false, memory -> mergeGroups(m, memory, out));
            }
            case RUN_EXCHANGED -> {
                Messages.Exchanged e = Messages.readExchanged(r);
                runWithMemory(e.limits(), out, false, memory -> runExchanged(e, memory, out));
            }
            case SHUFFLE_ROWS -> {
                int bytes = request.payload().length;
                Messages.ShuffleChunk chunk = Messages.readShuffleChunk(r);
                // here, not on a pool: the sender waits for this answer before its next chunk
                answer(out, () -> {
                    exchanges.add(chunk.exchange(), chunk.producer(), chunk.rows(), bytes, chunk.last());
                    // held back while the pipeline taking them is behind: the producer waits with its next chunk
                    exchanges.acknowledge(chunk.exchange(), () -> out.reply(EMPTY), timeout.toMillis() / 2, heartbeats);
                });
            }
            case TXN -> transactions.handle(request.payload(), out);
            case STAGE_ROWS -> {
                int bytes = request.payload().length;
                Messages.StagedChunk chunk = Messages.readStagedChunk(r);
                answer(out, () -> {
                    staged.add(chunk.id(), chunk.rows(), bytes);
                    chunksStaged.incrementAndGet();
                    out.reply(EMPTY);
                });
            }
            default -> throw new ProtocolException(request.op() + " is not a request");
        }
    }

    private Store requireStore() {
        Store s = store;
        if (s == null) {
            throw new NotLoadedException("node " + nodeId + " has no data loaded; load with: ooo load tpch --cluster <dir>");
        }
        return s;
    }

    private void lookup(Messages.Lookup l, Responder out) {
        Table t = requireStore().table(l.table());
        boolean clustered = l.index().equals(Messages.CLUSTERED);
        BTree tree = clustered ? t.tree() : t.index(l.index()).tree();
        List<PartitionRouter.Entry> entries = new ArrayList<>();
        tree.scan(l.from(), l.to(), (leaf, slot) -> {
            entries.add(new PartitionRouter.Entry(leaf.key(slot), clustered ? leaf.value(slot) : EMPTY));
            return entries.size() < l.limit();
        }).whenComplete((v, e) -> {
            if (e != null) {
                fail(out, e);
            } else {
                out.reply(Messages.entries(entries));
            }
        });
    }

    private void fetch(PayloadReader r, Responder out) {
        Table t = requireStore().table(r.getString());
        int n = r.getVarInt();
        List<CompletableFuture<byte[]>> reads = new ArrayList<>(Math.min(n, 1024));
        for (int i = 0; i < n; i++) {
            reads.add(t.tree().get(r.getBytes()));
        }
        CompletableFuture.allOf(reads.toArray(CompletableFuture[]::new)).whenComplete((v, e) -> {
            if (e != null) {
                fail(out, e);
            } else {
                out.reply(Messages.values(reads.stream().map(CompletableFuture::join).toList()));
            }
        });
    }

    private void scan(String table, Responder out) throws InterruptedException {
        Table t = requireStore().table(table);
        PayloadWriter[] chunk = {new PayloadWriter(SCAN_CHUNK_BYTES + 1024)};
        int[] inChunk = {0};
        long[] rows = {0};
        LeafScanner.forEachLeaf(t.tree(), leaf -> {
            for (int i = 0; i < leaf.count(); i++) {
                chunk[0].putBytes(leaf.value(i));
                inChunk[0]++;
                rows[0]++;
            }
            if (chunk[0].length() >= SCAN_CHUNK_BYTES) {
                sendScanChunk(out, chunk[0], inChunk[0]);
                chunk[0] = new PayloadWriter(SCAN_CHUNK_BYTES + 1024);
                inChunk[0] = 0;
            }
        });
        if (inChunk[0] > 0) {
            sendScanChunk(out, chunk[0], inChunk[0]);
        }
        out.end(new PayloadWriter().putLong(rows[0]).toByteArray());
    }

    private void sendScanChunk(Responder out, PayloadWriter rows, int count) {
        if (out.cancelled()) {
            throw new CancellationException("scan cancelled by the requester");
        }
        byte[] body = rows.toByteArray();
        out.chunk(new PayloadWriter(body.length + 8).putVarInt(count).putBytesRaw(body).toByteArray());
        out.awaitWritableOrFail(timeout);
    }

    private byte[] stats() {
        Map<String, Object> s = new LinkedHashMap<>();
        // first, so that what answering costs counts after it: a caller times work between two of these
        s.put("processCpuSeconds", processCpuSeconds());
        s.put("cores", Runtime.getRuntime().availableProcessors());
        MACHINE.ifPresent(m -> s.put("machine", m));
        s.put("node", nodeId);
        s.put("uptimeSeconds", (System.currentTimeMillis() - startedAt) / 1000.0);
        s.put("pipelinesRunning", pipelinesRunning.get());
        s.put("chunksStaged", chunksStaged.get());
        s.put("bytesSpilled", bytesSpilled.get());
        s.put("spillBytesInUse", spillSpace.used());
        s.put("spillMaxBytes", spillSpace.maxBytes());
        s.put("queryMaxMemory", queryMaxMemory);
        // The share of the last half minute this process spent in garbage collection (its watchdog ends
        // it at GcWatchdog.LIMIT); absent in a process that runs no watchdog (an in-process test node).
        GcWatchdog.running().ifPresent(w -> {
            s.put("gcShare", Math.round(w.share() * 1000) / 1000.0);
            s.put("gcWindowSeconds", w.observed().toSeconds());
        });
        // How the run before this one ended: what a coordinator that lost its connection to this node asks.
        previousEnd.ifPresent(e -> s.put(PreviousEnd.STATS_FIELD, e.toStats(java.time.Instant.now())));
        s.put("statementMemoryBytes", memory.used());
        s.put("statementMemoryLimitBytes", memory.limit());
        s.put("statementsRunning", admission.running());
        s.put("statementsWaiting", admission.waiting());
        Store st = store;
        s.put("loaded", st != null);
        if (st != null) {
            Map<String, Object> tables = new LinkedHashMap<>();
            st.tables().forEach((name, t) -> tables.put(name, t.rows()));
            s.put("rows", tables);
            s.put("pageReads", st.ioStats().pageReads());
            s.put("bufferPoolPages", st.bufferPool().capacityPages());
            s.put("manifest", st.manifest());
        }
        try {
            return JSON.writeValueAsBytes(s);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** The running kernel's boot id; network namespaces share it. */
    private static Optional<String> machine() {
        try {
            return Optional.of(Files.readString(Path.of("/proc/sys/kernel/random/boot_id")).strip())
                    .filter(id -> !id.isEmpty());
        } catch (java.io.IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** CPU time of this node's process so far, user and system; -1 where the JVM cannot tell. */
    private static double processCpuSeconds() {
        return ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
                ? os.getProcessCpuTime() / 1e9 : -1;
    }

    /** This node's partition statistics, collected anew when asked or when none were kept. */
    private byte[] statistics(boolean analyze) throws Exception {
        Store s = requireStore();
        StoreStatistics stats = analyze ? null : StoreStatistics.read(s.dir()).orElse(null);
        if (stats == null) {
            stats = StatisticsCollector.collect(s);
            LOG.info("node {} collected statistics of {} tables in {} s", nodeId, stats.tables().size(),
                    String.format("%.1f", stats.seconds()));
        }
        return JSON.writeValueAsBytes(stats);
    }

    private byte[] loadStep(PayloadReader r) throws Exception {
        byte step = r.get();
        switch (step) {
            case Messages.LOAD_START -> {
                refuseLoadWhileWriting();
                int pageSize = r.getVarInt();
                double fillFactor = Double.longBitsToDouble(r.getLong());
                boolean keepTables = r.hasMore() && (r.get() & Messages.LOAD_KEEP_TABLES) != 0;
                List<String> replacing = keepTables ? Messages.readStrings(r) : List.of();
                Store current = keepTables ? store : null;
                if (pageSize == 0) { // the store's own
                    pageSize = current == null ? LoadSession.DEFAULT_PAGE_SIZE : current.manifest().pageSize();
                    fillFactor = current == null ? LoadSession.DEFAULT_FILL_FACTOR : current.manifest().fillFactor();
                }
                if (load != null) {
                    LOG.warn("node {}: a new load replaces an unfinished one", nodeId);
                    load.close();
                }
                prepared = null;
                Directories.deleteRecursively(previousStoreDir()); // the last load was published everywhere, or never will be
                load = new LoadSession(dataDir.resolve("staging"), pageSize, fillFactor, LOAD_SORT_MEMORY, current, replacing);
                return EMPTY;
            }
            case Messages.LOAD_BEGIN -> {
                TableDefinition def = Messages.readDefinition(r);
                requireLoad().begin(def, r.hasMore() && r.get() == Messages.LOAD_APPEND);
                return EMPTY;
            }
            case Messages.LOAD_ABORT -> {
                if (load != null) {
                    load.close();
                    load = null;
                    prepared = null;
                    Directories.deleteRecursively(dataDir.resolve("staging"));
                }
                return EMPTY;
            }
            case Messages.LOAD_DROP -> {
                requireLoad().drop(r.getString());
                return EMPTY;
            }
            case Messages.LOAD_ROWS -> {
                String table = r.getString();
                int n = r.getVarInt();
                for (int i = 0; i < n; i++) {
                    int index = r.getVarInt() - 1;
                    requireLoad().add(table, index, r.getBytes());
                }
                return EMPTY;
            }
            case Messages.LOAD_FINISH_TABLE -> {
                return new PayloadWriter().putLong(requireLoad().finishTable(r.getString())).toByteArray();
            }
            case Messages.LOAD_PREPARE -> {
                Map<String, Object> source = JSON.readValue(r.getBytes(), new TypeReference<>() { });
                prepared = requireLoad().commit(source);
                return EMPTY;
            }
            case Messages.LOAD_PUBLISH -> {
                refuseLoadWhileWriting();
                publish();
                return EMPTY;
            }
            case Messages.LOAD_RESTORE -> {
                refuseLoadWhileWriting();
                restorePrevious();
                return EMPTY;
            }
            case Messages.LOAD_FORGET -> {
                Directories.deleteRecursively(previousStoreDir());
                return EMPTY;
            }
            default -> throw new ProtocolException("unknown bulk-load step " + step);
        }
    }

    /** A load does not swap a store in or out under a statement prepared here: its journal names that store's pages. */
    private void refuseLoadWhileWriting() {
        String refusal = writes.loadRefusal();
        if (refusal != null) {
            throw new IllegalStateException(refusal);
        }
    }

    /** A step of an in-place write (a coordinator's statement), on the write thread: see {@link InPlaceWrites}. */
    private byte[] writeStep(PayloadReader r) {
        byte step = r.get();
        long statement = r.getLong();
        switch (step) {
            case Messages.WRITE_APPLY -> {
                String table = r.getString();
                SplitPolicy policy = SplitPolicy.named(r.getString());
                ClusterWriter.RowWrite kind = ClusterWriter.RowWrite.values()[r.get()];
                int n = r.getVarInt();
                List<byte[]> rows = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    rows.add(r.getBytes());
                }
                requireStore();
                return new PayloadWriter(8).putLong(writes.apply(statement, table, policy, kind, rows)).toByteArray();
            }
            case Messages.WRITE_PREPARE -> {
                requireStore();
                writes.prepare(statement, r.getString());
                return EMPTY;
            }
            case Messages.WRITE_DECIDE -> {
                requireStore();
                writes.decide(statement);
                return EMPTY;
            }
            case Messages.WRITE_COMMIT -> {
                requireStore();
                writes.commit(statement);
                return EMPTY;
            }
            case Messages.WRITE_ROLLBACK -> {
                writes.rollBack(statement);
                return EMPTY;
            }
            case Messages.WRITE_OUTCOME -> {
                boolean settle = r.hasMore() && (r.get() & Messages.WRITE_SETTLE) != 0;
                return new byte[] {writes.outcome(statement, settle)};
            }
            default -> throw new ProtocolException("unknown write step " + step);
        }
    }

    /**
     * The health of the store's trees (of {@code table} only, when given). Measuring reads every
     * leaf, so an answer is kept for {@link #HEALTH_MAX_AGE} while its tables take no writes: a
     * client asking over and over does not keep the node reading its whole store.
     */
    private byte[] treeHealth(String table) throws Exception {
        Store st = requireStore();
        long writes = st.tables().values().stream().filter(t -> table == null || t.name().equals(table))
                .mapToLong(Table::writes).sum();
        String key = table == null ? "" : table;
        HealthAnswer kept = healthAnswers.get(key);
        if (kept != null && kept.store() == st && kept.writes() == writes
                && System.nanoTime() - kept.at() < HEALTH_MAX_AGE.toNanos()) {
            return kept.json();
        }
        List<TreeReport> reports = new ArrayList<>();
        for (Table t : st.tables().values()) {
            if (table == null || t.name().equals(table)) {
                reports.addAll(TreeReport.of(t, TreeReport.RANGES));
            }
        }
        byte[] json = JSON.writeValueAsBytes(reports);
        if (healthAnswers.size() > 64) {
            healthAnswers.clear();
        }
        healthAnswers.put(key, new HealthAnswer(st, writes, System.nanoTime(), json));
        return json;
    }

    private record HealthAnswer(Store store, long writes, long at, byte[] json) {
    }

    private LoadSession requireLoad() {
        if (load == null) {
            throw new IllegalStateException("no bulk load in progress on node " + nodeId);
        }
        return load;
    }

    /**
     * Serves the prepared (staged) store in place of the current one, which is kept as the previous
     * store until the coordinator says every node published ({@code LOAD_FORGET}) or brings it back
     * because one could not ({@code LOAD_RESTORE}).
     */
    private synchronized void publish() throws Exception {
        if (prepared == null) {
            throw new IllegalStateException("no prepared load to publish on node " + nodeId);
        }
        StoreManifest manifest = prepared;
        List<String> changed = load.changedTables();
        load.close();
        load = null;
        prepared = null;
        Store old = store;
        Optional<StoreStatistics> previous = old == null ? Optional.empty() : StoreStatistics.read(old.dir());
        Path current = storeDir();
        Directories.deleteRecursively(previousStoreDir());
        if (Files.exists(current)) {
            Files.move(current, previousStoreDir(), StandardCopyOption.ATOMIC_MOVE);
        } else {
            Directories.createPrivate(previousStoreDir()); // restoring "no store" serves none
        }
        Files.move(dataDir.resolve("staging"), current, StandardCopyOption.ATOMIC_MOVE);
        // The old store's open files outlive their directory's move: requests that began on it finish there.
        serve(current, old);
        LOG.info("node {} loaded {} tables in {} s", nodeId, manifest.tables().size(),
                String.format("%.1f", manifest.loadSeconds()));
        StatisticsCollector.collectAfterLoad(store, previous, changed);
    }

    /** Serves the store a publish replaced again (a load another node could not publish); nothing when there is none. */
    private synchronized void restorePrevious() throws Exception {
        Path previous = previousStoreDir();
        if (!Files.exists(previous)) {
            return;
        }
        Store published = store;
        Path current = storeDir();
        Path retired = dataDir.resolve("retired");
        Directories.deleteRecursively(retired);
        if (Files.exists(current)) {
            Files.move(current, retired, StandardCopyOption.ATOMIC_MOVE);
        }
        Files.move(previous, current, StandardCopyOption.ATOMIC_MOVE);
        Directories.deleteRecursively(retired);
        serve(current, published);
        LOG.warn("node {} serves its store as it was before the last load again: another node could not publish it",
                nodeId);
    }

    /** Opens the store in {@code dir} and serves it, retiring {@code old}. */
    private void serve(Path dir, Store old) {
        try {
            store = StoreManifest.exists(dir) ? openStore(dir) : null;
        } catch (RuntimeException e) {
            store = null;
            throw e;
        } finally {
            retire(old);
        }
    }

    /** Where a published load keeps the store it replaced, until every node has published. */
    private Path previousStoreDir() {
        return dataDir.resolve("previous");
    }

    /**
     * Closes a replaced store once the requests already running on it have had time to finish. Its
     * cached pages go now: those requests read from its open files, and a run of table writes does
     * not keep a buffer pool per replaced store.
     */
    private void retire(Store old) {
        if (old != null) {
            old.bufferPool().clear();
            replaced = old;
            CompletableFuture.delayedExecutor(RETIRED_STORE_GRACE.toSeconds(), TimeUnit.SECONDS).execute(() -> {
                old.close();
                if (replaced == old) {
                    replaced = null;
                }
            });
        }
    }

    /**
     * Closes the store a load replaced, if it is still open, before rows are written in place: the
     * new store shares the files of the tables the load kept (hard links), and the replaced one's
     * readers would not see the writes published. Requests still running on it fail.
     */
    private void closeReplacedStore() {
        Store old = replaced;
        if (old != null) {
            replaced = null;
            old.close();
            LOG.info("node {}: closed the store a load replaced before writing rows in place into the files it shares",
                    nodeId);
        }
    }

    private Store openStore(Path dir) {
        try {
            return Store.open(dir, options);
        } catch (DirectIoUnsupportedException e) {
            LOG.warn("node {}: {}; reading through the page cache instead", nodeId, e.getMessage());
            return Store.open(dir, options.withDirectIo(false));
        }
    }

    private void runFragment(Messages.Fragment f, Responder out) {
        Store s = requireStore();
        for (ClusterSpec.NodeSpec n : peers.spec().nodes()) {
            if (!n.id().equals(nodeId)) {
                peers.client(n.id());
            }
        }
        PartitionRouter router = new ClusterRouter(nodeId, peers);
        if (f.mode() == ExecutionMode.OOO_LOCAL) {
            router = new SerialRouter(router);
        }
        int budget = f.mode() == ExecutionMode.INORDER ? 1 : f.budget();
        long frames0 = peers.framesSent();
        DistributedIndexJoin join = new DistributedIndexJoin(s, router, f.spec());
        ResultStreamer sink = new ResultStreamer(out, timeout, join::outerRowsDone);
        // A fragment may run long between result chunks; an empty chunk tells the requester it is alive.
        var beat = heartbeats.scheduleAtFixedRate(sink::heartbeat, HEARTBEAT_MILLIS, HEARTBEAT_MILLIS,
                TimeUnit.MILLISECONDS);
        DistributedIndexJoin.Stats st;
        try (QueryMemory memory = queryMemory(QueryLimits.DEFAULTS)) {
            try {
                if (f.after() == null) {
                    st = join.run(budget, sink);
                } else {
                    JoinOutput rows = new JoinOutput(f.after(), (build, batch) -> sentRows(build, out, batch), sink,
                            memory, out);
                    try {
                        st = join.run(budget, rows);
                        rows.finish();
                    } finally {
                        f.after().pipeline().stagedIds().forEach(staged::remove);
                    }
                }
                sink.flush();
            } finally {
                bytesSpilled.addAndGet(memory.spilledBytes());
            }
        } finally {
            beat.cancel(false);
        }
        var e = st.execution();
        FragmentStats stats = new FragmentStats(nodeId, e.seconds(), st.rows(), e.pageReads(), e.bytesRead(),
                e.maxIoInflight(), e.maxTasksInflight(), e.tasks(), st.localProbes(), st.remoteRequests(),
                peers.framesSent() - frames0);
        try {
            out.end(JSON.writeValueAsBytes(stats));
        } catch (Exception ex) {
            throw new IllegalStateException(ex);
        }
    }

    /**
     * An index join's rows on their way out through the steps planned after the join: their stored
     * values become SQL values, and they go through the steps a batch at a time (the join's tasks
     * deliver them from several threads: one batch at a time goes in).
     */
    private static final class JoinOutput implements org.oooengine.core.exec.RowSink {
        private final SqlType[] types;
        private final Pipeline pipeline;
        private List<Object[]> batch = new ArrayList<>(Pipeline.BATCH_ROWS);

        JoinOutput(JoinOutputSteps steps, Pipeline.BuildSource sent, ResultStreamer out, QueryMemory memory,
                   Responder responder) {
            this.types = steps.types().toArray(SqlType[]::new);
            this.pipeline = new Pipeline(steps.steps(), types.length, (build, rows) -> {
                if (build instanceof JoinBuild.Rows r) {
                    rows.accept(r.rows());
                } else {
                    sent.read(build, rows);
                }
            }, rows -> rows.forEach(out::accept), memory);
            pipeline.stopWhen(cancelledBy(responder));
        }

        @Override
        public synchronized void accept(Object[] stored) {
            Object[] row = new Object[types.length];
            for (int i = 0; i < row.length; i++) {
                row[i] = types[i].fromStored(stored[i]);
            }
            batch.add(row);
            if (batch.size() == Pipeline.BATCH_ROWS) {
                pipeline.accept(batch);
                batch = new ArrayList<>(Pipeline.BATCH_ROWS);
            }
        }

        synchronized void finish() {
            pipeline.accept(batch);
            pipeline.finish();
        }
    }

    /**
     * Runs a scan pipeline over this node's partition: its rows go out in chunks as batches
     * leave the pipeline (the reader's pace holds the scan back); a partial aggregate sends its
     * groups at the end, with heartbeats meanwhile so the requester knows the node is alive.
     */
    /**
     * What a request's operators may hold: what it asks, but never more than this node's cap,
     * which is also what it gets when it asks nothing; operators beyond it spill to files in the
     * node's {@code spill} directory, as much as the request asks (by default
     * {@link SpillSpace#DEFAULT_QUERY_MAX_BYTES}) and the node's spill space has left.
     */
    private QueryMemory queryMemory(QueryLimits asked) {
        long memory = asked.memoryBytes() > 0 ? Math.min(asked.memoryBytes(), queryMaxMemory) : queryMaxMemory;
        String hint = memory < queryMaxMemory ? QueryMemory.raiseWith(org.oooengine.core.settings.SessionSettings.QUERY_MAX_MEMORY_PER_NODE.name())
                : "that is the most node " + nodeId + " grants a query (" + MEMORY_CAP_FLAG + ")"
                        + (asked.memoryBytes() > queryMaxMemory ? ", less than the " + asked.memoryBytes() + " bytes asked" : "");
        long spill = asked.spillBytes() > 0 ? asked.spillBytes() : SpillSpace.DEFAULT_QUERY_MAX_BYTES;
        return new QueryMemory("node " + nodeId, memory, hint, dataDir.resolve("spill"), spill, spillSpace,
                this.memory);
    }

    private void runPipeline(ScanPipeline p, TransactionalReads reads, QueryMemory memory, Responder out) {
        streamed(out, () -> forget(p), sink -> PartitionPipeline.run(this::storeTable, outside(reads),
                (build, rows) -> sentRows(build, out, rows), p, batch -> batch.forEach(sink::accept), out::cancelled, memory));
    }

    private Table storeTable(String name) {
        return requireStore().table(name);
    }

    /** The transactional tables a pipeline reads, as read within its transaction on this node (null: a store's table). */
    private java.util.function.Function<String, PartitionPipeline.RowSource> outside(TransactionalReads reads) {
        return name -> reads.reads(name) ? transactions.rows(reads.transaction(), name, reads.tables().get(name)) : null;
    }

    /**
     * Runs {@code work}, whose rows stream to the requester, with heartbeats while it runs (the
     * requester knows the node is alive); {@code cleanup} after it, done or failed; its summary ends
     * the answer.
     */
    private void streamed(Responder out, Runnable cleanup,
                          java.util.function.Function<ResultStreamer, PartitionPipeline.Summary> work) {
        pipelinesRunning.incrementAndGet();
        ResultStreamer sink = new ResultStreamer(out, timeout, () -> 0);
        var beat = heartbeats.scheduleAtFixedRate(sink::heartbeat, HEARTBEAT_MILLIS, HEARTBEAT_MILLIS,
                TimeUnit.MILLISECONDS);
        PartitionPipeline.Summary summary;
        try {
            summary = work.apply(sink);
            sink.flush();
            summary = summary.withBytesOut(sink.bytesSent());
        } finally {
            beat.cancel(false);
            cleanup.run();
            pipelinesRunning.decrementAndGet();
        }
        out.end(Messages.pipelineSummary(summary));
    }

    /**
     * Runs a shuffle's producing pipeline over this node's partition: its rows go to the nodes
     * that own their keys, not to the requester, who hears heartbeats and then what was sent.
     */
    private void runShuffle(Messages.Shuffle shuffle, QueryMemory memory, Responder out) {
        ResultStreamer alive = new ResultStreamer(out, timeout, () -> 0);
        var beat = heartbeats.scheduleAtFixedRate(alive::heartbeat, HEARTBEAT_MILLIS, HEARTBEAT_MILLIS,
                TimeUnit.MILLISECONDS);
        int width = shuffle.pipeline().width();
        for (PipelineStep step : shuffle.pipeline().steps()) {
            width = Pipeline.widthAfter(step, width);
        }
        if (shuffle.target().lastKeyColumn() >= width) {
            throw new IllegalArgumentException("a shuffle keyed on column " + shuffle.target().lastKeyColumn()
                    + " of rows of " + width + " columns");
        }
        ShuffleSender sender = new ShuffleSender(nodeId, shuffle.target(), peers, exchanges, out::cancelled,
                timeout.toMillis() / 2);
        PartitionPipeline.Summary summary;
        pipelinesRunning.incrementAndGet();
        try {
            summary = PartitionPipeline.run(this::storeTable, outside(shuffle.reads()), (build, rows) -> sentRows(build, out, rows),
                    shuffle.pipeline(), sender, out::cancelled, memory);
            sender.finish();
            summary = summary.withBytesOut(sender.bytesSent());
        } finally {
            beat.cancel(false);
            forget(shuffle.pipeline());
            pipelinesRunning.decrementAndGet();
        }
        out.end(Messages.pipelineSummary(summary));
    }

    /**
     * The last step of a GROUP BY whose groups were shuffled to the nodes by key: merges the
     * partial rows of the groups this node owns as they arrive (spilling where they outgrow the
     * query's memory) and streams each group's result once every producer is done.
     */
    private void mergeGroups(Messages.MergeGroups m, QueryMemory memory, Responder out) {
        long t0 = System.nanoTime();
        streamed(out, () -> exchanges.remove(m.exchange()), sink -> {
            long[] partials = {0};
            long[] results = {0};
            FinalAggregation merge = new FinalAggregation(m.keyCount(), m.aggregates(), memory);
            exchanges.drain(m.exchange(), m.producers(), out::cancelled, rows -> {
                partials[0] += rows.size();
                rows.forEach(merge::accept);
            });
            merge.finish(rows -> {
                results[0] += rows.size();
                rows.forEach(sink::accept);
            });
            return PartitionPipeline.Summary.of(partials[0], results[0], System.nanoTime() - t0, memory);
        });
    }

    /**
     * A join of two shuffled inputs on this node: the steps (a hash join building from the other
     * exchange, then what follows it) run over the rows shuffled to {@code e}'s exchange as they
     * arrive, and what comes out streams to the requester.
     */
    private void runExchanged(Messages.Exchanged e, QueryMemory memory, Responder out) {
        long t0 = System.nanoTime();
        ScanPipeline spec = e.pipeline();
        streamed(out, () -> {
            exchanges.remove(e.exchange());
            forget(spec);
        }, sink -> {
            Pipeline pipeline = new Pipeline(spec.steps(), spec.width(), (build, rows) -> sentRows(build, out, rows),
                    batch -> batch.forEach(sink::accept), memory);
            pipeline.stopWhen(cancelledBy(out));
            exchanges.drain(e.exchange(), e.producers(), out::cancelled, pipeline::accept);
            pipeline.finish();
            return PartitionPipeline.Summary.of(pipeline.rowsIn(), pipeline.rowsOut(), System.nanoTime() - t0, memory);
        });
    }

    /**
     * Rows other members sent this node for a pipeline's join: staged broadcast rows, or an
     * exchange's shuffled rows as they arrive.
     */
    private void sentRows(JoinBuild build, Responder out, java.util.function.Consumer<List<Object[]>> rows) {
        if (build instanceof JoinBuild.Staged st) {
            rows.accept(staged.rows(st.id()));
        } else if (build instanceof JoinBuild.Exchanged e) {
            exchanges.drain(e.exchangeId(), e.producers(), out::cancelled, rows);
        } else {
            throw new IllegalArgumentException("no rows for " + build + " on node " + nodeId);
        }
    }

    /** For {@link Pipeline#stopWhen}: throws once the requester cancelled or went away. */
    private static java.util.function.BooleanSupplier cancelledBy(Responder out) {
        return () -> {
            if (out.cancelled()) {
                throw new CancellationException("the requester cancelled the query or went away");
            }
            return false;
        };
    }

    /** Drops the rows sent for a pipeline that ended. */
    private void forget(ScanPipeline p) {
        p.stagedIds().forEach(staged::remove);
        p.exchangeIds().forEach(exchanges::remove);
    }

    /** Runs blocking work for a request and turns its failure into an error frame. */
    private void answer(Responder out, ThrowingRunnable work) {
        try {
            work.run();
        } catch (Throwable e) {
            fail(out, e);
        }
    }

    private void fail(Responder out, Throwable e) {
        Throwable cause = e;
        while ((cause instanceof CompletionException || cause instanceof java.util.concurrent.ExecutionException)
                && cause.getCause() != null) {
            cause = cause.getCause();
        }
        ErrorCode code;
        if (cause instanceof RemoteException re) {
            code = re.code();
        } else if (cause instanceof NotLoadedException || cause instanceof IllegalArgumentException) {
            code = ErrorCode.NOT_FOUND;
        } else if (cause instanceof CancellationException) {
            code = ErrorCode.CANCELLED;
        } else if (cause instanceof org.oooengine.core.txn.TransactionAbortedException) {
            code = ErrorCode.CONFLICT; // a pipeline's read of a transactional table: its statement may run again
        } else if (corruption(cause) != null) {
            cause = corruption(cause); // its message names the file, the page or offset and what did not match
            code = ErrorCode.DATA_CORRUPTED;
            LOG.error("node {}: {}", nodeId, cause.getMessage());
        } else if (cause instanceof MemoryLimitExceededException || cause instanceof Admission.AdmissionException) {
            code = ErrorCode.OUT_OF_MEMORY;
            LOG.info("node {}: {}", nodeId, cause.getMessage());
        } else if (cause instanceof SpillLimitExceededException) {
            code = ErrorCode.DISK_FULL;
            LOG.warn("node {}: {}", nodeId, cause.getMessage());
        } else if (cause instanceof OutOfMemoryError) {
            code = ErrorCode.OUT_OF_MEMORY;
            LOG.error("node {}: out of memory serving a request", nodeId, cause);
        } else {
            code = ErrorCode.INTERNAL;
            LOG.warn("node {}: request failed", nodeId, cause);
        }
        // the receiving client's RemoteException names this node: the message does not repeat it
        out.fail(code, String.valueOf(cause.getMessage()));
    }

    /** The page or chunk check that failed anywhere in {@code e}'s causes (a reader may wrap it), or null. */
    private static DataCorruptedException corruption(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof DataCorruptedException p) {
                return p;
            }
        }
        return null;
    }

    @FunctionalInterface
    private interface ThrowingRunnable {
        void run() throws Exception;
    }

    /** Work of one query on this node, given what it may hold. */
    private interface QueryWork {
        void run(QueryMemory memory) throws Exception;
    }

    /**
     * Runs {@code work} on the fragment pool with a query memory of the {@code limits} asked (0:
     * the defaults; never past this node's caps), counting what it spilled and deleting its spill
     * files when it ends, failed or not.
     */
    private void runWithMemory(QueryLimits limit, Responder out, boolean queued, QueryWork work) {
        fragments.execute(() -> answer(out, () -> admitted(out, queued, () -> {
            try (QueryMemory memory = queryMemory(limit)) {
                try {
                    work.run(memory);
                } finally {
                    bytesSpilled.addAndGet(memory.spilledBytes());
                }
            }
        })));
    }

    /**
     * Runs {@code work} once the node admits it ({@link Admission}), when {@code queued}: a
     * fragment that waits for no other statement's part. One that does (it takes shuffled rows)
     * runs at once: queued behind the producers it waits for, it would never start.
     */
    private void admitted(Responder out, boolean queued, ThrowingRunnable work) throws Exception {
        if (!queued) {
            work.run();
            return;
        }
        // while it waits, the requester hears that the node is alive, as from a running fragment
        admission.enter(out::cancelled, () -> out.chunk(Messages.resultChunk(0, List.of())));
        try {
            work.run();
        } finally {
            admission.exit();
        }
    }

    /** A request for data on a node that has none. */
    static final class NotLoadedException extends RuntimeException {
        NotLoadedException(String message) {
            super(message);
        }
    }

    @Override
    public void close() {
        transactions.close();
        fragments.shutdownNow();
        loads.shutdownNow();
        heartbeats.shutdownNow();
        if (load != null) {
            load.close();
        }
        Store s = store;
        store = null;
        if (s != null) {
            s.close();
        }
        writes.close();
    }
}
