package org.oooengine.core.cluster;

import static org.oooengine.core.cluster.NodeCalls.JSON;
import static org.oooengine.core.cluster.NodeCalls.await;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Consumer;
import org.oooengine.core.exec.ColumnRange;
import org.oooengine.core.exec.JoinSpec;
import org.oooengine.core.exec.PartitionRouter;
import org.oooengine.core.exec.RowSink;
import org.oooengine.core.net.Frame;
import org.oooengine.core.net.OpCode;
import org.oooengine.core.net.RemoteException;
import org.oooengine.core.store.StoreManifest;
import org.oooengine.core.tpch.JoinQueries;
import org.oooengine.core.types.DataType;
import org.oooengine.core.types.KeyCodec;

/**
 * The coordinator's side of index joins ({@link IndexJoinRequests}): the join fragments on every
 * node, the index lookups and range counts it asks of one node, and the selective-join queries
 * (OL, PL, Q3', Q8') built from the values of an index over every partition.
 */
final class IndexJoinClient {
    private static final int KEYS_PER_REQUEST = 50_000;

    private final ClusterSpec spec;
    private final Peers peers;
    private final ClusterTables tables;
    private final PipelineClient pipelines;
    private final ServingNodes serving;
    private volatile boolean hedging = true;

    IndexJoinClient(ClusterSpec spec, Peers peers, ClusterTables tables, PipelineClient pipelines, ServingNodes serving) {
        this.spec = spec;
        this.peers = peers;
        this.tables = tables;
        this.pipelines = pipelines;
        this.serving = serving;
    }

    JoinQueries.Query query(JoinQueries.Shape shape, double selectivity) {
        StoreManifest.TableMeta t = tables.table(shape.outer()).meta();
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

    List<byte[]> allKeys(String table, String index, int pageSize) {
        List<byte[]> keys = new ArrayList<>();
        for (ClusterSpec.NodeSpec n : spec.nodes()) {
            keys.addAll(nodeKeys(n.id(), table, index, pageSize, Integer.MAX_VALUE));
        }
        return keys;
    }

    List<byte[]> nodeKeys(String node, String table, String index, int pageSize, int max) {
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

    long countRange(String node, String table, ColumnRange range) {
        return await(peers.client(node).call(OpCode.COUNT_RANGE, Messages.countRange(table, range))).reader().getLong();
    }

    PartitionRouter router() {
        return new ClusterRouter("coordinator", peers, hedging);
    }

    /**
     * Whether the joins started from now on avoid slow nodes — their fragments served by another
     * holder, their probes hedged or sent elsewhere — (on by default; off only to measure it).
     */
    void hedging(boolean on) {
        hedging = on;
    }

    /** The join's fragment over partition {@code partition} of its outer table ({@link ServingNodes#OWN_PARTITION}: {@code node}'s own). */
    CompletableFuture<FragmentStats> fragment(String node, int partition, JoinSpec join, ExecutionMode mode, int budget,
                                              JoinOutputSteps after, Consumer<ClusterSession.Chunk> chunks) {
        byte[] request = Messages.fragment(new Messages.Fragment(join, mode, budget, after, partition, hedging));
        if (request.length > PipelineClient.STAGE_ABOVE_BYTES && after != null) {
            try {
                request = Messages.fragment(new Messages.Fragment(join, mode, budget,
                        new JoinOutputSteps(after.types(), pipelines.staged(node, after.pipeline()).steps()), partition,
                        hedging));
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

    ClusterSession.JoinRun join(JoinSpec join, ExecutionMode mode, int budget, JoinOutputSteps after, RowSink sink) {
        long t0 = System.nanoTime();
        long[] rows = {0};
        List<CompletableFuture<FragmentStats>> ends = new ArrayList<>();
        // a fragment per partition of the outer table, where it is served: its owner, or a replica's holder
        for (ServingNodes.Served part : serving.of(join.tables().get(0), hedging)) {
            ends.add(fragment(part.node(), part.partition(), join, mode, budget, after, chunk -> {
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
        return new ClusterSession.JoinRun(rows[0], seconds, ends.stream().map(CompletableFuture::join).toList());
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
}
