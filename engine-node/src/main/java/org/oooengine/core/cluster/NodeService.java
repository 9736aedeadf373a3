package org.oooengine.core.cluster;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.oooengine.core.fragment.SpillSpace;
import org.oooengine.core.net.Frame;
import org.oooengine.core.net.RequestHandler;
import org.oooengine.core.net.Responder;
import org.oooengine.core.store.StoreOptions;
import org.oooengine.core.threads.DaemonThreads;

/**
 * What a node does for its members, one family of requests to a class, each owning its op codes
 * ({@link RequestTable}): index-join probes and fragments ({@link IndexJoinRequests}), scans,
 * pipelines and shuffles ({@link PipelineRequests}), loads and writes in place
 * ({@link TableWriteRequests}), transactions ({@link TransactionService}), statistics and calibration
 * ({@link StatisticsRequests}) and the node's status ({@link NodeStatusRequests}). This class starts
 * them over the store the node serves and closes them.
 */
public final class NodeService implements RequestHandler, AutoCloseable {
    private static final Logger LOG = LogManager.getLogger(NodeService.class);
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
     * {@code admissionWait}. The columns of files' splits the node has read are kept, transcoded
     * for reading again, in at most {@code fileCacheBytes} of disk ({@link SplitCache}; 0: a tenth
     * of what is free on the data directory's file system when the node starts; negative: none).
     */
    public record Caps(long queryMaxMemoryBytes, long spillMaxBytes, long statementsMemoryBytes, int maxStatements,
                       Duration admissionWait, long fileCacheBytes) {
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
            this(queryMaxMemoryBytes, spillMaxBytes, 0, DEFAULT_MAX_STATEMENTS, DEFAULT_ADMISSION_WAIT, 0);
        }

        /** The bytes the statements may hold together in a process whose heap is {@code maxHeap}. */
        public long statementsMemoryBytes(long maxHeap) {
            return statementsMemoryBytes > 0 ? statementsMemoryBytes : (long) (maxHeap * DEFAULT_HEAP_SHARE);
        }

        public Caps withStatements(long memoryBytes, int max, Duration wait) {
            return new Caps(queryMaxMemoryBytes, spillMaxBytes, memoryBytes, max, wait, fileCacheBytes);
        }

        /** These caps, files' splits kept in at most {@code bytes} (0: the default; negative: none kept). */
        public Caps withFileCache(long bytes) {
            return new Caps(queryMaxMemoryBytes, spillMaxBytes, statementsMemoryBytes, maxStatements, admissionWait, bytes);
        }

        /** The cache of files' splits of a node whose data directory is {@code dataDir}; null when none is kept. */
        SplitCache fileCache(Path dataDir) {
            if (fileCacheBytes < 0) {
                return null;
            }
            long bytes = fileCacheBytes > 0 ? fileCacheBytes : SpillSpace.defaultMaxBytes(dataDir) / 5; // of half of what is free
            if (bytes <= 0) { // a file system with next to nothing free
                LOG.warn("keeping no columns of files' splits: no space free under {}", dataDir);
                return null;
            }
            return SplitCache.open(dataDir.resolve(SplitCache.DIRECTORY), bytes);
        }
    }

    private final NodeContext node;
    private final ExecutorService fragments;
    private final ExecutorService loads;
    private final ScheduledExecutorService heartbeats;
    private final ServedStore store;
    private final TableWriteRequests tableWrites;
    private final FileWriteRequests fileWrites;
    /** The columns of files' splits this node keeps for reading again; null: none kept. */
    private final SplitCache fileCache;
    /** The node's transactional tables and its side of their two-phase commits. */
    private final TransactionService transactions;
    private final RequestTable requests;

    public NodeService(String nodeId, ClusterSpec spec, Path clusterDir, Peers peers, StoreOptions options,
                       Duration timeout) {
        this(nodeId, spec, clusterDir, peers, options, timeout, Caps.DEFAULTS);
    }

    /** As above, granting its queries no more than {@code caps}. */
    public NodeService(String nodeId, ClusterSpec spec, Path clusterDir, Peers peers, StoreOptions options,
                       Duration timeout, Caps caps) {
        Optional<PreviousEnd> previousEnd = previousEnd(nodeId, clusterDir);
        Path dataDir = spec.dataDir(clusterDir, spec.node(nodeId));
        this.fragments = Executors.newCachedThreadPool(DaemonThreads.background("ooo-fragment-" + nodeId));
        this.loads = Executors.newSingleThreadExecutor(DaemonThreads.background("ooo-load-" + nodeId));
        this.heartbeats = Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("ooo-heartbeat-" + nodeId));
        this.store = new ServedStore(nodeId, dataDir, options);
        this.node = new NodeContext(nodeId, dataDir, timeout, peers, store, fragments, loads, heartbeats);
        this.fileCache = caps.fileCache(dataDir);
        NodeQueries queries = new NodeQueries(node, caps);
        this.tableWrites = new TableWriteRequests(node);
        this.fileWrites = new FileWriteRequests(node);
        // Reorganizes the trees that writes in place let deteriorate, between statements.
        new TreeMaintenance(nodeId, store::current, loads, heartbeats, tableWrites::idle,
                TreeMaintenance.Options.defaults()).start();
        this.transactions = new TransactionService(nodeId, dataDir.resolve("txn"), peers,
                TransactionService.Options.defaults(), node::fail);
        tableWrites.startTicks();
        this.requests = new RequestTable(List.of(new IndexJoinRequests(node, queries),
                new PipelineRequests(node, queries, transactions, fileCache), tableWrites, transactions,
                new StatisticsRequests(node), new NodeStatusRequests(node, queries, transactions, previousEnd, fileCache), fileWrites,
                new ProfileRequests(node), new StoredFileRequests(node)));
        store.recoverInterruptedPublish();
        try {
            tableWrites.recover(); // committed statements rolled forward before anything reads
        } catch (RuntimeException e) {
            if (fileCache != null) {
                fileCache.close();
            }
            transactions.close();
            tableWrites.close();
            heartbeats.shutdownNow();
            loads.shutdownNow();
            fragments.shutdownNow();
            throw e;
        }
        try {
            store.openAtStart();
        } catch (RuntimeException e) {
            transactions.close(); // its RocksDB lock would keep a node started again in this process out
            if (fileCache != null) {
                fileCache.close();
            }
            throw e;
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

    /** Which family serves each request. */
    RequestTable requests() {
        return requests;
    }

    @Override
    public void handle(Frame request, Responder out) {
        requests.handle(request, out);
    }

    @Override
    public void close() {
        transactions.close();
        fileWrites.close();
        fragments.shutdownNow();
        loads.shutdownNow();
        heartbeats.shutdownNow();
        tableWrites.closeLoad();
        store.close();
        tableWrites.close();
        if (fileCache != null) {
            fileCache.close();
        }
    }
}
