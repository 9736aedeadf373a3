package org.oooengine.core.cluster;

import static org.oooengine.core.cluster.NodeCalls.JSON;
import static org.oooengine.core.cluster.NodeCalls.await;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Consumer;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
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
    private static final Logger LOG = LogManager.getLogger(IndexJoinClient.class);
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

    /**
     * The join over every partition of its outer table, a fragment per partition where it is
     * served. Where partitions have copies, a fragment's rows are held until it ends (up to
     * {@link #HELD_ROWS_MAX}), so that a fragment that loses its node runs again from the start on
     * the partition's next holder, its first rows never delivered twice.
     */
    ClusterSession.JoinRun join(JoinSpec join, ExecutionMode mode, int budget, JoinOutputSteps after, RowSink sink) {
        long t0 = System.nanoTime();
        long[] rows = {0};
        Consumer<List<Object[]>> deliver = chunk -> {
            synchronized (rows) {
                rows[0] += chunk.size();
                chunk.forEach(sink::accept);
            }
        };
        String outer = join.tables().get(0);
        List<CompletableFuture<FragmentStats>> ends = new ArrayList<>();
        for (ServingNodes.Served part : serving.of(outer, hedging)) {
            ends.add(spec.replication() == 1
                    ? fragment(part.node(), part.partition(), join, mode, budget, after, chunk -> deliver.accept(chunk.rows()))
                    : retried(outer, part, join, mode, budget, after, deliver, spec.replication() - 1));
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

    /** Rows a fragment holds back while it may still run again elsewhere. */
    static final int HELD_ROWS_MAX = 1_000_000;

    /**
     * The fragment over partition {@code part}, its rows held and delivered when it ends; one that
     * loses its node runs again on the partition's next serving node, at most {@code retries} times.
     * A fragment whose rows outgrow {@link #HELD_ROWS_MAX} delivers them as they come from then on
     * and is not run again.
     */
    private CompletableFuture<FragmentStats> retried(String outer, ServingNodes.Served part, JoinSpec join,
                                                     ExecutionMode mode, int budget, JoinOutputSteps after,
                                                     Consumer<List<Object[]>> deliver, int retries) {
        HeldRows held = new HeldRows(deliver);
        return fragment(part.node(), part.partition(), join, mode, budget, after, chunk -> held.add(chunk.rows()))
                .handle((stats, e) -> {
                    if (e == null) {
                        held.release();
                        if (retries < spec.replication() - 1) {
                            LOG.info("the join's fragment over partition {} of {} ran again on {} in {} s ({} rows, {} remote requests)",
                                    part.partition(), outer, stats.node(), String.format("%.3f", stats.seconds()), stats.rows(),
                                    stats.remoteRequests());
                        }
                        return CompletableFuture.completedFuture(stats);
                    }
                    String lost = RemoteException.lostNode(e);
                    if (lost == null || retries == 0 || held.released()) {
                        return CompletableFuture.<FragmentStats>failedFuture(e);
                    }
                    serving.probeAgain();
                    ServingNodes.Served again = serving.of(outer, hedging).get(part.partition());
                    LOG.warn("the join's fragment over partition {} of {} lost node {}; it runs again on {}",
                            part.partition(), outer, lost, again.node());
                    return retried(outer, again, join, mode, budget, after, deliver, retries - 1);
                }).thenCompose(f -> f);
    }

    /** A fragment's rows, held until it ends, or passed on once there are too many to hold. */
    private static final class HeldRows {
        private final Consumer<List<Object[]>> deliver;
        private List<Object[]> rows = new ArrayList<>();
        private boolean released;

        HeldRows(Consumer<List<Object[]>> deliver) {
            this.deliver = deliver;
        }

        synchronized void add(List<Object[]> chunk) {
            if (released) {
                deliver.accept(chunk);
                return;
            }
            rows.addAll(chunk);
            if (rows.size() > HELD_ROWS_MAX) {
                release();
            }
        }

        synchronized void release() {
            if (!released) {
                released = true;
                deliver.accept(rows);
                rows = List.of();
            }
        }

        synchronized boolean released() {
            return released;
        }
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
