package org.oooengine.core.exec;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.LongAdder;
import org.oooengine.core.ooo.TaskScheduler;
import org.oooengine.core.store.IndexScope;
import org.oooengine.core.store.SecondaryIndex;
import org.oooengine.core.store.Store;
import org.oooengine.core.store.Table;
import org.oooengine.core.types.KeyCodec;

/**
 * The index nested-loop join of one node over partitioned tables. The node scans its own
 * partition of the outer table; each outer row probes the inner table on the node owning the join
 * value — this node's store directly, any other through the {@link PartitionRouter} — and a probe
 * through a GLOBAL index then fetches each matching row from the node owning its primary key.
 * Local and remote steps are tasks of one {@link TaskScheduler}, so the budget bounds the I/Os in
 * flight on this node whether they go to its disk or to the network.
 */
public final class DistributedIndexJoin {
    private final Store store;
    private final PartitionRouter router;
    private final Table outer;
    private final Table inner;
    private final JoinSpec spec;
    private final JoinOutput output;
    private final int outerJoin;
    private final SecondaryIndex innerIndex;
    private final boolean[] innerColumns;
    private final LongAdder localProbes = new LongAdder();
    private final LongAdder remoteRequests = new LongAdder();
    private final LongAdder outerRowsDone = new LongAdder();

    /** Probes and remote requests of one run, besides the storage figures. */
    public record Stats(ExecutionStats execution, long rows, long localProbes, long remoteRequests) {
    }

    public DistributedIndexJoin(Store store, PartitionRouter router, JoinSpec spec) {
        this.store = store;
        this.router = router;
        this.spec = spec;
        this.outer = store.table(spec.outerTable());
        this.inner = store.table(spec.innerTable());
        this.output = new JoinOutput(spec.output(), outer, inner);
        this.outerJoin = outer.schema().indexOf(spec.outerJoin());
        this.innerColumns = inner.columnMask(output.innerPositions());
        this.innerIndex = IndexNestedLoopJoin.probeIndex(inner, spec.innerJoin()).orElse(null);
        if (innerIndex != null && innerIndex.scope() != IndexScope.GLOBAL) {
            throw new IllegalArgumentException("index " + inner.name() + "." + innerIndex.name()
                    + " is partitioned with its rows, so a probe would go to every node; a join probes GLOBAL indexes");
        }
    }

    /** Runs with at most {@code budget} tasks in flight; result rows go to {@code sink} from any thread. */
    public Stats run(int budget, RowSink sink) {
        int[] outerNeeded = Arrays.copyOf(output.outerPositions(), output.outerPositions().length + 1);
        outerNeeded[outerNeeded.length - 1] = outerJoin;
        IndexRangeScan scan = new IndexRangeScan(outer, spec.outerRange(), outerNeeded, null);
        TaskScheduler scheduler = new TaskScheduler(budget, store.computeExecutor());
        LongAdder rows = new LongAdder();
        RowSink counted = row -> {
            rows.increment();
            sink.accept(row);
        };
        scan.start(scheduler, outerRow -> probe(scheduler, outerRow, counted).thenRun(outerRowsDone::increment));
        ExecutionStats stats = ExecutionStats.measure(store, () -> {
            scheduler.start().join();
            return scheduler;
        });
        return new Stats(stats, rows.sum(), localProbes.sum(), remoteRequests.sum());
    }

    /** Outer rows whose probe has answered so far: the progress of a running join. */
    public long outerRowsDone() {
        return outerRowsDone.sum();
    }

    private CompletableFuture<?> probe(TaskScheduler scheduler, Object[] outerRow, RowSink sink) {
        Object key = outerRow[outerJoin];
        if (innerIndex == null) {
            byte[] prefix = inner.primaryKeyPrefix(key);
            String node = router.owner(inner.name(), prefix);
            if (node.equals(router.self())) {
                localProbes.increment();
                return inner.tree().scan(prefix, KeyCodec.successor(prefix), (leaf, slot) -> {
                    sink.accept(output.combine(outerRow, inner.rowAt(leaf, slot, innerColumns)));
                    return true;
                });
            }
            remoteRequests.increment();
            return router.lookup(node, inner.name(), null, prefix).thenAccept(entries -> {
                for (PartitionRouter.Entry e : entries) {
                    sink.accept(output.combine(outerRow, inner.decodeRow(e.value(), innerColumns)));
                }
            });
        }
        byte[] prefix = innerIndex.prefix(key);
        String node = router.owner(inner.name(), prefix);
        if (node.equals(router.self())) {
            localProbes.increment();
            List<Object[]> keys = new ArrayList<>();
            return innerIndex.tree().scan(prefix, KeyCodec.successor(prefix), (leaf, slot) -> {
                keys.add(innerIndex.primaryKeyAt(leaf, slot));
                return true;
            }).thenRun(() -> fetchMatches(scheduler, outerRow, keys, sink));
        }
        remoteRequests.increment();
        return router.lookup(node, inner.name(), innerIndex.name(), prefix).thenAccept(entries -> {
            List<Object[]> keys = new ArrayList<>(entries.size());
            int ixColumns = innerIndex.columns().size();
            for (PartitionRouter.Entry e : entries) {
                keys.add(innerIndex.codec().decodeSuffix(e.key(), ixColumns));
            }
            fetchMatches(scheduler, outerRow, keys, sink);
        });
    }

    /** Fetches the rows an index probe found: each local row by its own task, remote ones batched per node. */
    private void fetchMatches(TaskScheduler scheduler, Object[] outerRow, List<Object[]> primaryKeys, RowSink sink) {
        Map<String, List<byte[]>> remote = new LinkedHashMap<>();
        for (Object[] pkValues : primaryKeys) {
            byte[] pk = inner.keyCodec().encode(pkValues);
            String node = router.owner(inner.name(), inner.primaryKeyPrefix(pkValues[0]));
            if (node.equals(router.self())) {
                localProbes.increment();
                scheduler.spawn(() -> inner.tree().get(pk).thenAccept(value -> emit(outerRow, value, pk, sink)));
            } else {
                remote.computeIfAbsent(node, n -> new ArrayList<>()).add(pk);
            }
        }
        remote.forEach((node, pks) -> {
            remoteRequests.increment();
            scheduler.spawn(() -> router.fetch(node, inner.name(), pks).thenAccept(values -> {
                for (int i = 0; i < pks.size(); i++) {
                    emit(outerRow, values.get(i), pks.get(i), sink);
                }
            }));
        });
    }

    private void emit(Object[] outerRow, byte[] value, byte[] pk, RowSink sink) {
        if (value == null) {
            throw new IllegalStateException("index " + inner.name() + "." + innerIndex.name() + " points to a missing row "
                    + Arrays.toString(inner.keyCodec().decode(pk)));
        }
        sink.accept(output.combine(outerRow, inner.decodeRow(value, innerColumns)));
    }
}
