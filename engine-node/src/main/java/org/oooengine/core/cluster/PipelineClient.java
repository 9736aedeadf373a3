package org.oooengine.core.cluster;

import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.function.ToIntFunction;
import org.oooengine.core.fragment.JoinBuild;
import org.oooengine.core.fragment.PartitionPipeline;
import org.oooengine.core.fragment.ScanPipeline;
import org.oooengine.core.fragment.ShuffleTarget;
import org.oooengine.core.net.Frame;
import org.oooengine.core.net.FrameFormat;
import org.oooengine.core.net.OpCode;
import org.oooengine.core.sql.expr.AggregateCall;
import org.oooengine.core.types.RowCodec;
import org.oooengine.core.types.Schema;
import org.oooengine.core.wire.PayloadReader;
import org.oooengine.core.wire.PayloadWriter;

/**
 * The coordinator's side of scans and pipelines ({@link PipelineRequests}): partition scans, scan
 * pipelines with their broadcast rows sent ahead, shuffles, the merge of shuffled groups and the
 * joins of shuffled inputs. Each answer streams in chunks on the session's threads, one at a time
 * (empty ones are heartbeats); cancelling the returned future stops the node's work.
 */
final class PipelineClient {
    /** A pipeline request longer than this sends its broadcast rows ahead ({@link StagedBroadcasts}). */
    static final int STAGE_ABOVE_BYTES = 4 << 20;

    private final Peers peers;
    /** The owner of each partition of a table, by its name. */
    private final Function<String, List<String>> owners;
    private final AtomicReference<Encoded> lastEncoded = new AtomicReference<>();
    private final StagedBroadcasts broadcasts;

    PipelineClient(Peers peers, Function<String, List<String>> owners) {
        this.peers = peers;
        this.owners = owners;
        this.broadcasts = new StagedBroadcasts(peers);
    }

    CompletableFuture<Long> scan(String node, String table, Schema schema, Consumer<List<Object[]>> rows) {
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

    /** Runs {@code pipeline} on {@code node} over partition {@code partition} ({@link ServingNodes#OWN_PARTITION}: the node's own). */
    CompletableFuture<PartitionPipeline.Summary> pipeline(String node, int partition, ScanPipeline pipeline,
                                                          QueryLimits limits, TransactionalReads reads, FileReads files,
                                                          Consumer<List<Object[]>> rows) {
        return pipeline(node, partition, pipeline, limits, reads, files, null, rows);
    }

    /** As above, the rows written into files where {@code output} says (null: sent back). */
    CompletableFuture<PartitionPipeline.Summary> pipeline(String node, int partition, ScanPipeline pipeline,
                                                          QueryLimits limits, TransactionalReads reads, FileReads files,
                                                          FileOutput output, Consumer<List<Object[]>> rows) {
        return run(node, partition, OpCode.RUN_PIPELINE, pipeline, files,
                steps -> Messages.pipeline(steps, limits, reads, files, partition, output), rows);
    }

    CompletableFuture<PartitionPipeline.Summary> shuffle(String node, int partition, ScanPipeline pipeline,
                                                         ShuffleTarget target, QueryLimits limits, TransactionalReads reads,
                                                         FileReads files) {
        return run(node, partition, OpCode.RUN_SHUFFLE, pipeline, files,
                steps -> Messages.shuffle(steps, target, limits, reads, files, partition), rows -> { });
    }

    CompletableFuture<PartitionPipeline.Summary> mergeGroups(String node, String exchange, int producers, int keyCount,
                                                             List<AggregateCall> aggregates, QueryLimits limits,
                                                             Consumer<List<Object[]>> rows) {
        byte[] request = Messages.mergeGroups(new Messages.MergeGroups(exchange, producers, keyCount, aggregates,
                limits));
        return streamed(node, OpCode.MERGE_GROUPS, request, rows);
    }

    /** Runs {@code steps} over what arrives at {@code exchange}; their rows written into files where {@code output} says (null: sent back). */
    CompletableFuture<PartitionPipeline.Summary> exchanged(String node, String exchange, int producers,
                                                           ScanPipeline steps, QueryLimits limits, FileOutput output,
                                                           Consumer<List<Object[]>> rows) {
        byte[] request = Messages.exchanged(new Messages.Exchanged(exchange, producers, steps, limits, output));
        return streamed(node, OpCode.RUN_EXCHANGED, request, rows);
    }

    /** Reads a pipeline's summary where frames are read: a malformed one closes the connection. */
    private static void checkSummary(Frame end) {
        Messages.readPipelineSummary(end.reader());
    }

    /** Sends {@code request}; its result rows go to {@code rows}; cancelling the summary stops the node's work. */
    private CompletableFuture<PartitionPipeline.Summary> streamed(String node, OpCode op, byte[] request,
                                                                  Consumer<List<Object[]>> rows) {
        CompletableFuture<Frame> end = peers.client(node).stream(op, request,
                chunk -> rows.accept(Messages.readResultRowsKeepingColumns(chunk.reader())), PipelineClient::checkSummary);
        CompletableFuture<PartitionPipeline.Summary> summary = end.thenApply(f -> Messages.readPipelineSummary(f.reader()));
        summary.whenComplete((v, e) -> {
            if (summary.isCancelled()) {
                end.cancel(false);
            }
        });
        return summary;
    }

    private CompletableFuture<PartitionPipeline.Summary> run(String node, int partition, OpCode op, ScanPipeline pipeline,
                                                             FileReads files, Function<byte[], byte[]> encode,
                                                             Consumer<List<Object[]>> rows) {
        try {
            pipeline = routedTo(node, partition, pipeline, files);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        byte[] request = encode.apply(encoded(pipeline));
        StagedBroadcasts.Staging staging = null;
        if (request.length > STAGE_ABOVE_BYTES) {
            try {
                staging = broadcasts.stage(node, pipeline);
                request = encode.apply(staging.pipeline().toBytes());
            } catch (RuntimeException e) {
                return CompletableFuture.failedFuture(e);
            }
        }
        if (request.length > FrameFormat.MAX_FRAME_BYTES - 64) {
            return CompletableFuture.failedFuture(new ClusterException("the pipeline for node " + node + " takes "
                    + request.length / (1 << 20) + " MiB, over the frame limit of "
                    + (FrameFormat.MAX_FRAME_BYTES >> 20) + " MiB"));
        }
        if (staging == null) {
            return streamed(node, op, request, rows);
        }
        byte[] staged = request;
        return afterwards(staging.send(), () -> streamed(node, op, staged, rows));
    }

    /**
     * {@code next} started once {@code first} is done, without waiting for it here (the broadcast
     * rows of every node go out at the same time); cancelling the result stops whichever runs.
     */
    static <T> CompletableFuture<T> afterwards(CompletableFuture<Void> first, Supplier<CompletableFuture<T>> next) {
        CompletableFuture<T> result = new CompletableFuture<>();
        first.whenComplete((v, e) -> {
            if (e != null) {
                result.completeExceptionally(e instanceof CompletionException && e.getCause() != null ? e.getCause() : e);
                return;
            }
            if (result.isDone()) {
                return; // cancelled while the rows went out
            }
            CompletableFuture<T> running;
            try {
                running = next.get();
            } catch (RuntimeException failed) { // thrown here it would be lost, and the result never done
                result.completeExceptionally(failed);
                return;
            }
            running.whenComplete((t, f) -> {
                if (f != null) {
                    result.completeExceptionally(f);
                } else {
                    result.complete(t);
                }
            });
            result.whenComplete((t, f) -> {
                if (result.isCancelled()) {
                    running.cancel(false);
                }
            });
        });
        result.whenComplete((t, f) -> {
            if (result.isCancelled()) {
                first.cancel(false);
            }
        });
        return result;
    }

    /**
     * {@code pipeline}'s bytes, encoded once for the nodes a step sends it to one after another: its
     * broadcast rows are most of them. The pipeline is held weakly, and only the last one.
     */
    private byte[] encoded(ScanPipeline pipeline) {
        Encoded last = lastEncoded.get();
        if (last != null && last.pipeline().get() == pipeline) {
            return last.bytes();
        }
        byte[] bytes = pipeline.toBytes();
        lastEncoded.set(new Encoded(new WeakReference<>(pipeline), bytes));
        return bytes;
    }

    private record Encoded(WeakReference<ScanPipeline> pipeline, byte[] bytes) {
    }

    /**
     * {@code pipeline} with each join's {@link JoinBuild.Routed} rows replaced by the {@link JoinBuild.Rows}
     * that its run over {@code partition} (of {@code node}'s own) is to have: those whose key is in
     * that partition of the pipeline's table (a co-located build's table is partitioned alike), and
     * those whose key is null in the first partition's. Rows routed by ranges go to the node whose
     * splits of the pipeline's table, in {@code files}, may hold their key.
     */
    private ScanPipeline routedTo(String node, int partition, ScanPipeline pipeline, FileReads files) {
        if (!pipeline.buildsFrom(build -> build instanceof JoinBuild.Routed)) {
            return pipeline; // the same one for every node, encoded once
        }
        return pipeline.withBuilds(build -> {
            if (!(build instanceof JoinBuild.Routed routed)) {
                return build;
            }
            Predicate<Object> mine = routed.byRanges()
                    ? inSplitsOf(node, files.scan(pipeline.table()), routed)
                    : ownedBy(node, partition, pipeline.table(), routed);
            List<Object[]> rows = new ArrayList<>();
            for (Object[] row : routed.rows()) {
                if (mine.test(row[routed.keyColumn()])) {
                    rows.add(row);
                }
            }
            return new JoinBuild.Rows(rows);
        });
    }

    /** Whether a key is in {@code node}'s partition of {@code table} (a null key in the first). */
    private Predicate<Object> ownedBy(String node, int partition, String table, JoinBuild.Routed routed) {
        List<String> owners = this.owners.apply(table);
        int part = partition == ServingNodes.OWN_PARTITION ? owners.indexOf(node) : partition;
        ToIntFunction<Object> partitionOf = Partitioning.partitioner(routed.keyType(), owners.size());
        return key -> Math.max(partitionOf.applyAsInt(key), 0) == part;
    }

    /**
     * Whether a key may be in the splits {@code node} reads of {@code scan}, planned with their
     * ranges and read where assigned; a null key meets no row there, and goes nowhere.
     */
    private static Predicate<Object> inSplitsOf(String node, FileReads.Scan scan, JoinBuild.Routed routed) {
        if (scan == null) {
            throw new IllegalStateException("rows routed by the ranges of splits of a pipeline that reads no files");
        }
        if (scan.scheduling() != FileReads.Scheduling.LOCAL) {
            throw new IllegalStateException("rows routed by the ranges of splits the nodes may take from each other");
        }
        FileReads.KeysHeld held = scan.keysHeldBy(node);
        return key -> {
            Object stored = routed.keyType().toStored(key);
            return held.holds(stored == null ? null : ((Number) stored).longValue());
        };
    }

    /** {@code pipeline} with its joins' broadcast rows sent to {@code node} ahead of it, once they are there. */
    ScanPipeline staged(String node, ScanPipeline pipeline) {
        StagedBroadcasts.Staging staging = broadcasts.stage(node, pipeline);
        staging.send().join();
        return staging.pipeline();
    }
}
