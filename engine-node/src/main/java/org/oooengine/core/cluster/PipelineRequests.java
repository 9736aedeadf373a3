package org.oooengine.core.cluster;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.function.Consumer;
import java.util.function.Function;
import org.oooengine.core.fragment.FinalAggregation;
import org.oooengine.core.fragment.PartitionPipeline;
import org.oooengine.core.fragment.Pipeline;
import org.oooengine.core.fragment.PipelineStep;
import org.oooengine.core.fragment.QueryMemory;
import org.oooengine.core.fragment.ScanPipeline;
import org.oooengine.core.net.Frame;
import org.oooengine.core.net.OpCode;
import org.oooengine.core.net.Responder;
import org.oooengine.core.storage.LeafScanner;
import org.oooengine.core.store.Table;
import org.oooengine.core.wire.PayloadReader;
import org.oooengine.core.wire.PayloadWriter;

/**
 * Scans and pipelines on a node: partition scans, scan pipelines (filter, project, joins, partial
 * aggregates), the broadcast rows staged for them, shuffles between the nodes (producing, receiving,
 * merging groups, joining what arrived). They block, so they run on threads of their own, each
 * query's operators held to its memory.
 */
final class PipelineRequests implements RequestFamily {
    private static final int SCAN_CHUNK_BYTES = 64 << 10;

    private final NodeContext node;
    private final NodeQueries queries;
    private final TransactionService transactions;
    /** The splits of scans of files this node hands out to itself and to the others. */
    private final SplitQueues splitQueues = new SplitQueues();

    /** The columns of files' splits this node keeps for reading again; null: none kept. */
    private final SplitCache fileCache;

    PipelineRequests(NodeContext node, NodeQueries queries, TransactionService transactions, SplitCache fileCache) {
        this.node = node;
        this.queries = queries;
        this.transactions = transactions;
        this.fileCache = fileCache;
    }

    /** How this node reads the files of {@code scan}: through its cache of their splits where it keeps one and the scan may. */
    private SplitReader splitReader(FileReads.Scan scan) {
        SplitReader files = SplitReader.installed();
        return fileCache == null || !scan.cached() ? files : new CachingSplitReader(files, fileCache);
    }

    @Override
    public Set<OpCode> ops() {
        return EnumSet.of(OpCode.SCAN_PARTITION, OpCode.RUN_PIPELINE, OpCode.STAGE_ROWS, OpCode.RUN_SHUFFLE,
                OpCode.SHUFFLE_ROWS, OpCode.MERGE_GROUPS, OpCode.RUN_EXCHANGED, OpCode.TAKE_SPLIT);
    }

    @Override
    public void handle(Frame request, Responder out) {
        PayloadReader r = request.reader();
        switch (request.op()) {
            case SCAN_PARTITION -> {
                String table = r.getString();
                node.fragments().execute(() -> node.answer(out, () -> scan(table, out)));
            }
            case RUN_PIPELINE -> {
                Messages.Pipeline p = Messages.readPipeline(r);
                // one that builds from shuffled rows waits for their producers: it never queues behind them
                queries.runWithMemory(p.limits(), out, p.pipeline().exchangeIds().isEmpty(),
                        memory -> runPipeline(p, memory, out));
            }
            case RUN_SHUFFLE -> {
                Messages.Shuffle shuffle = Messages.readShuffle(r);
                queries.runWithMemory(shuffle.limits(), out, shuffle.pipeline().exchangeIds().isEmpty(),
                        memory -> runShuffle(shuffle, memory, out));
            }
            case MERGE_GROUPS -> {
                Messages.MergeGroups m = Messages.readMergeGroups(r);
                queries.runWithMemory(m.limits(), out, false, memory -> mergeGroups(m, memory, out));
            }
            case RUN_EXCHANGED -> {
                Messages.Exchanged e = Messages.readExchanged(r);
                queries.runWithMemory(e.limits(), out, false, memory -> runExchanged(e, memory, out));
            }
            case SHUFFLE_ROWS -> {
                int bytes = request.payload().length;
                Messages.ShuffleChunk chunk = Messages.readShuffleChunk(r);
                // here, not on a pool: the sender waits for this answer before its next chunk
                node.answer(out, () -> {
                    queries.exchanges.add(chunk.exchange(), chunk.producer(), chunk.rows(), bytes, chunk.last());
                    // held back while the pipeline taking them is behind: the producer waits with its next chunk
                    queries.exchanges.acknowledge(chunk.exchange(), () -> out.reply(NodeContext.EMPTY),
                            node.timeout().toMillis() / 2, node.heartbeats());
                });
            }
            case STAGE_ROWS -> {
                int bytes = request.payload().length;
                Messages.StagedChunk chunk = Messages.readStagedChunk(r);
                node.answer(out, () -> {
                    queries.staged.add(chunk.id(), chunk.chunk(), bytes);
                    queries.chunksStaged.incrementAndGet();
                    out.reply(NodeContext.EMPTY);
                });
            }
            case TAKE_SPLIT -> {
                String scan = r.getString();
                int size = r.getVarInt();
                boolean back = r.get() != 0;
                // here, not on a pool: a node that ran out of splits waits on it
                node.answer(out, () -> {
                    SplitQueues.Queue q = splitQueues.of(scan, size);
                    out.reply(new PayloadWriter(4).putInt(back ? q.takeBack() : q.takeFront()).toByteArray());
                });
            }
            default -> throw new IllegalStateException(request.op() + " is not a pipeline's");
        }
    }

    private void scan(String table, Responder out) throws InterruptedException {
        Table t = node.store().table(table);
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
        out.awaitWritableOrFail(node.readerStall());
    }

    /**
     * Runs a scan pipeline over this node's partition: its rows go out in chunks as batches
     * leave the pipeline (the reader's pace holds the scan back), or into files where the request
     * says ({@link FileOutput}), a record of each file going out at the end; a partial aggregate
     * sends its groups at the end, with heartbeats meanwhile so the requester knows the node is alive.
     */
    private void runPipeline(Messages.Pipeline request, QueryMemory memory, Responder out) {
        ScanPipeline p = request.pipeline();
        int partition = request.partition();
        var outside = outside(request.reads(), request.files(), partition);
        Pipeline.BuildSource sent = (build, chunks) -> queries.sentRows(build, out, chunks);
        queries.streamed(out, () -> queries.forget(p), sink -> toRowsOrFiles(request.output(), sink,
                rows -> PartitionPipeline.run(tablesOf(partition), outside, sent, p, rows, out::cancelled, memory)));
    }

    /**
     * Runs a pipeline whose rows go to the requester as they come or, where {@code output} says,
     * into files of this node's, a record of each file going to the requester at the end; a run
     * that fails deletes every file it wrote ({@link PipelineFileWriter}).
     */
    private PartitionPipeline.Summary toRowsOrFiles(FileOutput output, ResultStreamer sink,
                                                    Function<Consumer<List<Object[]>>, PartitionPipeline.Summary> run) {
        if (output == null) {
            return run.apply(sink.batches());
        }
        try (PipelineFileWriter files = new PipelineFileWriter(output, node.nodeId(), RowFileWriters.installed())) {
            PartitionPipeline.Summary summary = run.apply(files);
            files.finish(sink::accept);
            return summary;
        }
    }

    /**
     * The tables of this node's store a pipeline over {@code partition} reads: those it owns under
     * their names, the others' as the replicas it holds ({@link ClusterSpec#replicaName}).
     */
    private Function<String, Table> tablesOf(int partition) {
        if (partition == ServingNodes.OWN_PARTITION) {
            return node.store()::table;
        }
        ClusterSpec spec = node.peers().spec();
        return name -> node.store().table(ownsPartition(spec, name, partition) ? name
                : ClusterSpec.replicaName(name, partition));
    }

    /** Whether this node owns {@code partition} of {@code table}; a partition the table does not have is refused by number. */
    private boolean ownsPartition(ClusterSpec spec, String table, int partition) {
        List<String> owners = spec.owners(table);
        if (partition >= owners.size()) {
            throw new IllegalArgumentException("a request over partition " + partition + " of table " + table
                    + ", which has " + owners.size());
        }
        return owners.get(partition).equals(node.nodeId());
    }

    /** The name receivers count a producer over {@code partition} by: the node, and the partition where it is another's. */
    private String producerName(String table, int partition) {
        return partition == ServingNodes.OWN_PARTITION || ownsPartition(node.peers().spec(), table, partition)
                ? node.nodeId() : node.nodeId() + "/partition-" + partition;
    }

    /**
     * The tables a pipeline over {@code partition} reads outside this node's store: those held in
     * files, from the splits assigned to this node; transactional tables as read within the
     * statement's transaction here — this node's own rows, or its copy of the partition where it is
     * another's — or, for those it reads from their analytical copies, as this node's copy holds
     * them (null: a store's table).
     */
    private Function<String, PartitionPipeline.RowSource> outside(TransactionalReads reads, FileReads files,
                                                                  int partition) {
        return name -> files.reads(name)
                ? new SplitRows(files.scan(name), node.nodeId(), splitReader(files.scan(name)), splitQueues, node.peers())
                : !reads.reads(name) ? null
                : reads.fromCopy(name) ? transactions.copyRows(name, reads.tables().get(name), reads.copySnapshot())
                : transactions.rows(reads.transaction(), partition == ServingNodes.OWN_PARTITION
                        || ownsPartition(node.peers().spec(), name, partition) ? name
                        : ClusterSpec.replicaName(name, partition), reads.tables().get(name));
    }

    /**
     * Runs a shuffle's producing pipeline over this node's partition: its rows go to the nodes
     * that own their keys, not to the requester, who hears heartbeats and then what was sent.
     */
    private void runShuffle(Messages.Shuffle shuffle, QueryMemory memory, Responder out) {
        ResultStreamer alive = new ResultStreamer(out, node.readerStall(), () -> 0);
        var beat = queries.heartbeat(alive::heartbeat);
        int width = shuffle.pipeline().width();
        for (PipelineStep step : shuffle.pipeline().steps()) {
            width = Pipeline.widthAfter(step, width);
        }
        if (shuffle.target().lastKeyColumn() >= width) {
            throw new IllegalArgumentException("a shuffle keyed on column " + shuffle.target().lastKeyColumn()
                    + " of rows of " + width + " columns");
        }
        ShuffleSender sender = new ShuffleSender(node.nodeId(), producerName(shuffle.pipeline().table(), shuffle.partition()),
                shuffle.target(), node.peers(), queries.exchanges, out::cancelled, node.timeout().toMillis() / 2);
        PartitionPipeline.Summary summary;
        queries.pipelinesRunning.incrementAndGet();
        try {
            summary = PartitionPipeline.run(tablesOf(shuffle.partition()), outside(shuffle.reads(), shuffle.files(), shuffle.partition()),
                    (build, chunks) -> queries.sentRows(build, out, chunks), shuffle.pipeline(), sender, out::cancelled, memory);
            sender.finish();
            summary = summary.withBytesOut(sender.bytesSent());
        } finally {
            beat.cancel(false);
            queries.forget(shuffle.pipeline());
            queries.pipelinesRunning.decrementAndGet();
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
        queries.streamed(out, () -> queries.exchanges.remove(m.exchange()), sink -> {
            long[] partials = {0};
            long[] results = {0};
            FinalAggregation merge = new FinalAggregation(m.keyCount(), m.aggregates(), memory);
            queries.exchanges.drainChunks(m.exchange(), m.producers(), out::cancelled, chunk -> {
                partials[0] += chunk.size();
                merge.acceptChunk(chunk);
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
        queries.streamed(out, () -> {
            queries.exchanges.remove(e.exchange());
            queries.forget(spec);
        }, sink -> toRowsOrFiles(e.output(), sink, rows -> {
            PartitionPipeline.OverRows pipeline = new PartitionPipeline.OverRows(spec,
                    (build, chunks) -> queries.sentRows(build, out, chunks), rows, memory);
            pipeline.stopWhen(NodeQueries.cancelledBy(out));
            queries.exchanges.drainChunks(e.exchange(), e.producers(), out::cancelled, pipeline::accept);
            pipeline.finish();
            return PartitionPipeline.Summary.of(pipeline.rowsIn(), pipeline.rowsOut(), System.nanoTime() - t0, memory)
                    .withRowsUngrouped(pipeline.rowsUngrouped());
        }));
    }
}
