package org.oooengine.core.cluster;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.oooengine.core.exec.ColumnRange;
import org.oooengine.core.exec.DistributedIndexJoin;
import org.oooengine.core.exec.IndexRangeScan;
import org.oooengine.core.exec.PartitionRouter;
import org.oooengine.core.fragment.JoinBuild;
import org.oooengine.core.fragment.PartitionPipeline;
import org.oooengine.core.fragment.Pipeline;
import org.oooengine.core.fragment.QueryMemory;
import org.oooengine.core.net.Frame;
import org.oooengine.core.net.OpCode;
import org.oooengine.core.net.Responder;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.storage.BTree;
import org.oooengine.core.store.Store;
import org.oooengine.core.store.Table;
import org.oooengine.core.wire.PayloadReader;
import org.oooengine.core.wire.PayloadWriter;
import org.oooengine.core.wire.ProtocolException;

/**
 * Index joins on a node: the probes other members' join fragments send it (index lookups, row
 * fetches by primary key), range counts for the planner, and the join fragment over this node's
 * partition of an outer table. Lookups and fetches run on the storage threads and answer when
 * their reads complete; a fragment blocks, so it gets a thread of its own.
 */
final class IndexJoinRequests implements RequestFamily {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final NodeContext node;
    private final NodeQueries queries;

    IndexJoinRequests(NodeContext node, NodeQueries queries) {
        this.node = node;
        this.queries = queries;
    }

    @Override
    public Set<OpCode> ops() {
        return EnumSet.of(OpCode.INDEX_POINT_LOOKUP, OpCode.INDEX_RANGE_LOOKUP, OpCode.FETCH_ROWS, OpCode.COUNT_RANGE,
                OpCode.RUN_FRAGMENT);
    }

    @Override
    public void handle(Frame request, Responder out) {
        PayloadReader r = request.reader();
        switch (request.op()) {
            case INDEX_POINT_LOOKUP, INDEX_RANGE_LOOKUP, FETCH_ROWS -> {
                try {
                    if (request.op() == OpCode.FETCH_ROWS) {
                        fetch(r, out);
                    } else {
                        lookup(request.op() == OpCode.INDEX_POINT_LOOKUP ? Messages.readPointLookup(r)
                                : Messages.readRangeLookup(r), out);
                    }
                } catch (ProtocolException e) {
                    throw e;
                } catch (RuntimeException e) { // (a table this node does not hold: NOT_FOUND, which a prober sends elsewhere)
                    node.fail(out, e);
                }
            }
            case COUNT_RANGE -> {
                String table = r.getString();
                ColumnRange range = JoinSpecCodec.readRange(r);
                node.fragments().execute(() -> node.answer(out, () -> out.reply(new PayloadWriter(8)
                        .putLong(new IndexRangeScan(node.store().table(table), range, new int[0], null).count())
                        .toByteArray())));
            }
            case RUN_FRAGMENT -> {
                Messages.Fragment f = Messages.readFragment(r);
                node.fragments().execute(() -> node.answer(out, () -> queries.admitted(out, true,
                        () -> runFragment(f, out))));
            }
            default -> throw new IllegalStateException(request.op() + " is not an index join's");
        }
    }

    private void lookup(Messages.Lookup l, Responder out) {
        Table t = node.store().table(l.table());
        boolean clustered = l.index().equals(Messages.CLUSTERED);
        BTree tree = clustered ? t.tree() : t.index(l.index()).tree();
        List<PartitionRouter.Entry> entries = new ArrayList<>();
        tree.scan(l.from(), l.to(), (leaf, slot) -> {
            entries.add(new PartitionRouter.Entry(leaf.key(slot), clustered ? leaf.value(slot) : NodeContext.EMPTY));
            return entries.size() < l.limit();
        }).whenComplete((v, e) -> {
            if (e != null) {
                node.fail(out, e);
            } else {
                out.reply(Messages.entries(entries));
            }
        });
    }

    private void fetch(PayloadReader r, Responder out) {
        Table t = node.store().table(r.getString());
        int n = r.getVarInt();
        List<CompletableFuture<byte[]>> reads = new ArrayList<>(Math.min(n, 1024));
        for (int i = 0; i < n; i++) {
            reads.add(t.tree().get(r.getBytes()));
        }
        CompletableFuture.allOf(reads.toArray(CompletableFuture[]::new)).whenComplete((v, e) -> {
            if (e != null) {
                node.fail(out, e);
            } else {
                out.reply(Messages.values(reads.stream().map(CompletableFuture::join).toList()));
            }
        });
    }

    private void runFragment(Messages.Fragment f, Responder out) {
        Store s = node.store().require();
        Peers peers = node.peers();
        ClusterSpec spec = peers.spec();
        for (ClusterSpec.NodeSpec n : spec.nodes()) {
            if (!n.id().equals(node.nodeId())) {
                try {
                    peers.client(n.id());
                } catch (RuntimeException down) {
                    if (spec.replication() == 1) {
                        throw down;
                    }
                    // its partitions are read from the replicas' holders (ClusterRouter.holder)
                }
            }
        }
        String outer = f.spec().tables().get(0);
        int partition = f.partition();
        if (partition >= spec.owners(outer).size()) {
            throw new IllegalArgumentException("a join fragment over partition " + partition + " of table " + outer
                    + ", which has " + spec.owners(outer).size());
        }
        boolean own = partition == ServingNodes.OWN_PARTITION || spec.owners(outer).get(partition).equals(node.nodeId());
        ClusterRouter cluster = new ClusterRouter(node.nodeId(), peers, f.hedging(), s.tables()::containsKey);
        PartitionRouter router = f.mode() == ExecutionMode.OOO_LOCAL ? new SerialRouter(cluster) : cluster;
        int budget = f.mode() == ExecutionMode.INORDER ? 1 : f.budget();
        long frames0 = peers.framesSent();
        DistributedIndexJoin join = new DistributedIndexJoin(s, router, f.spec(),
                own ? outer : ClusterSpec.replicaName(outer, partition));
        ResultStreamer sink = new ResultStreamer(out, node.readerStall(), join::outerRowsDone);
        // A fragment may run long between result chunks; an empty chunk tells the requester it is alive.
        var beat = queries.heartbeat(sink::heartbeat);
        DistributedIndexJoin.Stats st;
        try (QueryMemory memory = queries.queryMemory(QueryLimits.DEFAULTS)) {
            try {
                if (f.after() == null) {
                    st = join.run(budget, sink);
                } else {
                    JoinOutput rows = new JoinOutput(f.after(), (build, chunks) -> queries.sentRows(build, out, chunks),
                            sink, memory, out);
                    try {
                        st = join.run(budget, rows);
                        rows.finish();
                    } finally {
                        f.after().pipeline().stagedIds().forEach(queries.staged::remove);
                    }
                }
                sink.flush();
            } finally {
                queries.bytesSpilled.addAndGet(memory.spilledBytes());
            }
        } finally {
            beat.cancel(false);
        }
        var e = st.execution();
        FragmentStats stats = new FragmentStats(node.nodeId(), e.seconds(), st.rows(), e.pageReads(), e.bytesRead(),
                e.maxIoInflight(), e.maxTasksInflight(), e.tasks(), st.localProbes(), st.remoteRequests(),
                peers.framesSent() - frames0, cluster.hedgedRequests(), micros(peers.latencies().typical(0.5)));
        try {
            out.end(JSON.writeValueAsBytes(stats));
        } catch (Exception ex) {
            throw new IllegalStateException(ex);
        }
    }

    private static long micros(long nanos) {
        return nanos < 0 ? -1 : nanos / 1000;
    }

    /**
     * An index join's rows on their way out through the steps planned after the join: their stored
     * values become SQL values, and they go through the steps a batch at a time, on column batches
     * (the join's tasks deliver them from several threads: one batch at a time goes in).
     */
    private static final class JoinOutput implements org.oooengine.core.exec.RowSink {
        private final SqlType[] types;
        private final PartitionPipeline.OverTypedRows pipeline;
        private List<Object[]> batch = new ArrayList<>(Pipeline.BATCH_ROWS);

        JoinOutput(JoinOutputSteps steps, Pipeline.BuildSource sent, ResultStreamer out, QueryMemory memory,
                   Responder responder) {
            this.types = steps.types().toArray(SqlType[]::new);
            this.pipeline = new PartitionPipeline.OverTypedRows(steps.steps(), steps.types(), (build, chunks) -> {
                if (build instanceof JoinBuild.Rows r) {
                    chunks.accept(r.chunk());
                } else {
                    sent.read(build, chunks);
                }
            }, rows -> rows.forEach(out::accept), memory, NodeQueries.cancelledBy(responder));
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
}
