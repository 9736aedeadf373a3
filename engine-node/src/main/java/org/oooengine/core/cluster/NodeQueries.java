package org.oooengine.core.cluster;

import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Function;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.oooengine.core.fragment.Exchanges;
import org.oooengine.core.fragment.JoinBuild;
import org.oooengine.core.fragment.NodeMemory;
import org.oooengine.core.fragment.PartitionPipeline;
import org.oooengine.core.fragment.Pipeline;
import org.oooengine.core.fragment.QueryMemory;
import org.oooengine.core.fragment.ScanPipeline;
import org.oooengine.core.fragment.SpillSpace;
import org.oooengine.core.fragment.StagedRows;
import org.oooengine.core.net.Responder;
import org.oooengine.core.storage.Directories;
import org.oooengine.core.wire.ColumnarRows;

/**
 * What the queries running on a node share: the memory and spill space they may take, their turn
 * to run ({@link Admission}), the rows other members send ahead for them (staged broadcast rows,
 * shuffled exchanges), and the counters a node's status reports of them.
 */
final class NodeQueries {
    private static final Logger LOG = LogManager.getLogger(NodeService.class);
    static final long HEARTBEAT_MILLIS = 1000;
    /** The most bytes of broadcast rows a node holds for pipelines to come. */
    private static final long MAX_STAGED_BYTES = 256L << 20;
    /** The most bytes of shuffled rows a node holds for the pipelines that build from them. */
    private static final long MAX_EXCHANGE_BYTES = 512L << 20;

    private final NodeContext node;
    /** The most a request's operators hold, whatever it asks. */
    final long queryMaxMemory;
    /** The disk the spill files of all this node's requests may take together. */
    final SpillSpace spillSpace;
    /** What the statements running here hold together: their operators, and the rows sent ahead for them. */
    final NodeMemory memory;
    /** Statements waiting for their turn to run here. */
    final Admission admission;
    final StagedRows staged;
    final Exchanges exchanges;
    /** Pipelines (receiving or producing) running now: what a cancelled statement must bring to zero. */
    final AtomicInteger pipelinesRunning = new AtomicInteger();
    /** Chunks of broadcast rows received ahead of their pipelines, since the node started. */
    final AtomicLong chunksStaged = new AtomicLong();
    /** Bytes the requests' operators spilled to disk since the node started. */
    final AtomicLong bytesSpilled = new AtomicLong();

    NodeQueries(NodeContext node, NodeService.Caps caps) {
        this.node = node;
        String nodeId = node.nodeId();
        this.memory = new NodeMemory("node " + nodeId, caps.statementsMemoryBytes(Runtime.getRuntime().maxMemory()),
                NodeService.STATEMENTS_MEMORY_CAP_FLAG);
        this.admission = new Admission(nodeId, caps, memory);
        this.staged = new StagedRows(nodeId, MAX_STAGED_BYTES, memory);
        this.exchanges = new Exchanges(nodeId, MAX_EXCHANGE_BYTES, memory);
        try {
            Directories.deleteRecursively(node.dataDir().resolve("spill")); // what a node that died while spilling left
        } catch (RuntimeException e) {
            LOG.warn("node {}: cannot clear its spill directory: {}", nodeId, e.getMessage());
        }
        this.queryMaxMemory = caps.queryMaxMemoryBytes() > 0 ? caps.queryMaxMemoryBytes()
                : Runtime.getRuntime().maxMemory() / 2;
        this.spillSpace = new SpillSpace("node " + nodeId, caps.spillMaxBytes() > 0 ? caps.spillMaxBytes()
                : SpillSpace.defaultMaxBytes(node.dataDir()), NodeService.SPILL_CAP_FLAG);
        LOG.info("node {} grants a query at most {} MiB of memory; its queries may spill {} MiB together; the statements "
                + "running on it hold at most {} MiB together, at most {} of them at once", nodeId, queryMaxMemory >> 20,
                spillSpace.maxBytes() >> 20, memory.limit() >> 20, caps.maxStatements());
    }

    /**
     * What a request's operators may hold: what it asks, but never more than this node's cap,
     * which is also what it gets when it asks nothing; operators beyond it spill to files in the
     * node's {@code spill} directory, as much as the request asks (by default
     * {@link SpillSpace#DEFAULT_QUERY_MAX_BYTES}) and the node's spill space has left.
     */
    QueryMemory queryMemory(QueryLimits asked) {
        long limit = asked.memoryBytes() > 0 ? Math.min(asked.memoryBytes(), queryMaxMemory) : queryMaxMemory;
        String hint = limit < queryMaxMemory ? QueryMemory.raiseWith(org.oooengine.core.settings.SessionSettings.QUERY_MAX_MEMORY_PER_NODE.name())
                : "that is the most node " + node.nodeId() + " grants a query (" + NodeService.MEMORY_CAP_FLAG + ")"
                        + (asked.memoryBytes() > queryMaxMemory ? ", less than the " + asked.memoryBytes() + " bytes asked" : "");
        long spill = asked.spillBytes() > 0 ? asked.spillBytes() : SpillSpace.DEFAULT_QUERY_MAX_BYTES;
        return new QueryMemory("node " + node.nodeId(), limit, hint, node.dataDir().resolve("spill"), spill, spillSpace,
                memory);
    }

    /** Work of one query on this node, given what it may hold. */
    interface QueryWork {
        void run(QueryMemory memory) throws Exception;
    }

    /**
     * Runs {@code work} on the fragment pool with a query memory of the {@code limits} asked (0:
     * the defaults; never past this node's caps), counting what it spilled and deleting its spill
     * files when it ends, failed or not.
     */
    void runWithMemory(QueryLimits limit, Responder out, boolean queued, QueryWork work) {
        node.fragments().execute(() -> node.answer(out, () -> admitted(out, queued, () -> {
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
    void admitted(Responder out, boolean queued, NodeContext.ThrowingRunnable work) throws Exception {
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

    /** Runs {@code beat} every {@link #HEARTBEAT_MILLIS} until the returned future is cancelled. */
    ScheduledFuture<?> heartbeat(Runnable beat) {
        return node.heartbeats().scheduleAtFixedRate(beat, HEARTBEAT_MILLIS, HEARTBEAT_MILLIS, TimeUnit.MILLISECONDS);
    }

    /**
     * Runs {@code work}, whose rows stream to the requester, with heartbeats while it runs (the
     * requester knows the node is alive); {@code cleanup} after it, done or failed; its summary ends
     * the answer.
     */
    void streamed(Responder out, Runnable cleanup, Function<ResultStreamer, PartitionPipeline.Summary> work) {
        pipelinesRunning.incrementAndGet();
        ResultStreamer sink = new ResultStreamer(out, node.readerStall(), () -> 0);
        var beat = heartbeat(sink::heartbeat);
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
     * Rows other members sent this node for a pipeline's join: staged broadcast rows, or an
     * exchange's shuffled rows as they arrive.
     */
    void sentRows(JoinBuild build, Responder out, Consumer<ColumnarRows.Chunk> chunks) {
        if (build instanceof JoinBuild.Staged st) {
            staged.read(st.id(), chunks);
        } else if (build instanceof JoinBuild.Exchanged e) {
            exchanges.drainChunks(e.exchangeId(), e.producers(), out::cancelled, chunks);
        } else {
            throw new IllegalArgumentException("no rows for " + build + " on node " + node.nodeId());
        }
    }

    /** Drops the rows sent for a pipeline that ended. */
    void forget(ScanPipeline p) {
        p.stagedIds().forEach(staged::remove);
        p.exchangeIds().forEach(exchanges::remove);
    }

    /** For {@link Pipeline#stopWhen}: throws once the requester cancelled or went away. */
    static BooleanSupplier cancelledBy(Responder out) {
        return () -> {
            if (out.cancelled()) {
                throw new CancellationException("the requester cancelled the query or went away");
            }
            return false;
        };
    }
}
