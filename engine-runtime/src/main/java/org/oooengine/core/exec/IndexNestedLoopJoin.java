package org.oooengine.core.exec;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.oooengine.core.ooo.TaskScheduler;
import org.oooengine.core.store.SecondaryIndex;
import org.oooengine.core.store.Store;
import org.oooengine.core.store.Table;
import org.oooengine.core.types.KeyCodec;

/**
 * Index nested-loop join. The outer rows come from an index range scan; each outer row probes the
 * inner table — through the inner clustered tree when the join column leads its primary key, else
 * through a secondary index followed by one row fetch per match. Every probe and fetch is a task
 * on a {@link TaskScheduler}: with a budget of hundreds this is the out-of-order join; with a
 * budget of one it is the classic in-order join over the same code.
 */
public final class IndexNestedLoopJoin {
    private final Store store;
    private final Table outer;
    private final Table inner;
    private final JoinSpec spec;
    private final JoinOutput output;
    private final int outerJoin;
    private final Optional<SecondaryIndex> innerIndex;
    private final boolean[] innerColumns;

    public IndexNestedLoopJoin(Store store, JoinSpec spec) {
        JoinSpec.Probe probe = spec.onlyProbe("the single-node index nested-loop join");
        this.store = store;
        this.spec = spec;
        this.outer = store.table(spec.outerTable());
        this.inner = store.table(spec.innerTable());
        this.output = new JoinOutput(spec, List.of(outer, inner));
        this.outerJoin = outer.schema().indexOf(probe.fromColumn());
        this.innerColumns = inner.columnMask(output.innerPositions());
        this.innerIndex = probeIndex(inner, probe.column());
    }

    /**
     * How a join probes {@code inner} on {@code column}: empty when the column leads the primary
     * key (the clustered tree is probed), else the index leading with it.
     */
    static Optional<SecondaryIndex> probeIndex(Table inner, String column) {
        if (inner.primaryKey().get(0).equals(column)) {
            return Optional.empty();
        }
        return Optional.of(inner.indexLeadingWith(column).orElseThrow(() -> new IllegalArgumentException(
                "cannot probe " + inner.name() + "." + column + ": it neither leads the primary key nor an index")));
    }

    /** Runs the join with at most {@code budget} tasks (and so I/Os) in flight. */
    public ExecutionStats run(int budget, RowSink sink) {
        int[] outerNeeded = Arrays.copyOf(output.outerPositions(), output.outerPositions().length + 1);
        outerNeeded[outerNeeded.length - 1] = outerJoin;
        IndexRangeScan scan = new IndexRangeScan(outer, spec.outerRange(), outerNeeded, null);
        TaskScheduler scheduler = new TaskScheduler(budget, store.computeExecutor());
        scan.start(scheduler, outerRow -> probe(scheduler, outerRow, sink));
        return ExecutionStats.measure(store, () -> {
            scheduler.start().join();
            return scheduler;
        });
    }

    private CompletableFuture<?> probe(TaskScheduler scheduler, Object[] outerRow, RowSink sink) {
        Object key = outerRow[outerJoin];
        if (innerIndex.isEmpty()) {
            byte[] prefix = inner.primaryKeyPrefix(key);
            return inner.tree().scan(prefix, KeyCodec.successor(prefix), (leaf, slot) -> {
                sink.accept(output.combine(outerRow, inner.rowAt(leaf, slot, innerColumns)));
                return true;
            });
        }
        SecondaryIndex ix = innerIndex.get();
        byte[] prefix = ix.prefix(key);
        return ix.tree().scan(prefix, KeyCodec.successor(prefix), (leaf, slot) -> {
            byte[] pk = inner.keyCodec().encode(ix.primaryKeyAt(leaf, slot));
            scheduler.spawn(() -> inner.tree().get(pk).thenAccept(value -> {
                if (value == null && inner.written()) {
                    return; // deleted since the entry was read
                }
                if (value == null) {
                    throw new IllegalStateException("index " + inner.name() + "." + ix.name() + " points to a missing row");
                }
                sink.accept(output.combine(outerRow, inner.decodeRow(value, innerColumns)));
            }));
            return true;
        });
    }
}
