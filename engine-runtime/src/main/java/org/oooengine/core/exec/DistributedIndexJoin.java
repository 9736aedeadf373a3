package org.oooengine.core.exec;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.IntStream;
import org.oooengine.core.ooo.TaskScheduler;
import org.oooengine.core.store.IndexScope;
import org.oooengine.core.store.SecondaryIndex;
import org.oooengine.core.store.Store;
import org.oooengine.core.store.Table;
import org.oooengine.core.types.KeyCodec;

/**
 * The index nested-loop join of one node over partitioned tables, for a chain of any length. The
 * node scans its own partition of the outer table; each partial result probes the next table on
 * the node owning the join value — this node's store directly, any other through the
 * {@link PartitionRouter} — and a probe through a GLOBAL index then fetches each matching row from
 * the node owning its primary key. Every probe and fetch, local or remote, at every step of the
 * chain, is a task of one {@link TaskScheduler}, so the budget bounds the I/Os in flight on this
 * node whether they go to its disk or to the network.
 */
public final class DistributedIndexJoin {
    private final Store store;
    private final PartitionRouter router;
    private final Table outer;
    private final JoinSpec spec;
    private final JoinOutput output;
    private final int[] outerNeeded;
    private final List<Step> steps = new ArrayList<>();
    private final LongAdder localProbes = new LongAdder();
    private final LongAdder remoteRequests = new LongAdder();
    private final LongAdder outerRowsDone = new LongAdder();

    /** Probes and remote requests of one run, besides the storage figures. */
    public record Stats(ExecutionStats execution, long rows, long localProbes, long remoteRequests) {
    }

    /**
     * How one probe of the chain finds its rows: through the clustered tree ({@code index} null) or
     * a GLOBAL index, with the join value at {@code fromColumn} of the {@code fromTable}-th row.
     */
    private record Step(Table table, SecondaryIndex index, boolean[] columns, int fromTable, int fromColumn) {
    }

    public DistributedIndexJoin(Store store, PartitionRouter router, JoinSpec spec) {
        this(store, router, spec, spec.tables().get(0));
    }

    /** As above, the outer rows read from this node's stored table {@code outerStored}: a replica of another's partition. */
    public DistributedIndexJoin(Store store, PartitionRouter router, JoinSpec spec, String outerStored) {
        this.store = store;
        this.router = router;
        this.spec = spec;
        List<String> aliases = spec.aliases();
        List<Table> tables = new ArrayList<>(spec.tables().stream().map(store::table).toList());
        tables.set(0, store.table(outerStored));
        this.outer = tables.get(0);
        this.output = new JoinOutput(spec, tables);
        // Each table's needed columns: those in the output and those later probes join on.
        List<List<Integer>> needed = new ArrayList<>();
        for (int t = 0; t < tables.size(); t++) {
            needed.add(new ArrayList<>(IntStream.of(output.positions(t)).boxed().toList()));
        }
        for (JoinSpec.Probe p : spec.probes()) {
            int fromTable = aliases.indexOf(p.fromAlias());
            needed.get(fromTable).add(tables.get(fromTable).schema().indexOf(p.fromColumn()));
        }
        for (int i = 0; i < spec.probes().size(); i++) {
            JoinSpec.Probe p = spec.probes().get(i);
            Table table = tables.get(i + 1);
            SecondaryIndex index = IndexNestedLoopJoin.probeIndex(table, p.column()).orElse(null);
            if (index != null && index.scope() != IndexScope.GLOBAL) {
                throw new IllegalArgumentException("index " + table.name() + "." + index.name()
                        + " is partitioned with its rows, so a probe would go to every node; a join probes GLOBAL indexes");
            }
            int fromTable = aliases.indexOf(p.fromAlias());
            steps.add(new Step(table, index, table.columnMask(toArray(needed.get(i + 1))), fromTable,
                    tables.get(fromTable).schema().indexOf(p.fromColumn())));
        }
        this.outerNeeded = toArray(needed.get(0));
    }

    private static int[] toArray(List<Integer> positions) {
        return positions.stream().mapToInt(Integer::intValue).toArray();
    }

    /** Runs with at most {@code budget} tasks in flight; result rows go to {@code sink} from any thread. */
    public Stats run(int budget, RowSink sink) {
        IndexRangeScan scan = new IndexRangeScan(outer, spec.outerRange(), outerNeeded, null);
        SecondaryIndex outerIndex = outer.indexLeadingWith(spec.outerRange().column()).orElse(null);
        boolean rowsElsewhere = scan.fetchesRows() && outerIndex != null && outerIndex.scope() == IndexScope.GLOBAL;
        if (rowsElsewhere) { // the node holding an entry of a GLOBAL index need not hold its row: read entries only
            int[] ix = outerIndex.columnPositions();
            int[] pk = outer.primaryKeyPositions();
            int[] covered = IntStream.concat(IntStream.of(ix), IntStream.of(pk)).toArray();
            scan = new IndexRangeScan(outer, spec.outerRange(), covered, null);
        }
        TaskScheduler scheduler = new TaskScheduler(budget, store.computeExecutor());
        LongAdder rows = new LongAdder();
        RowSink counted = row -> {
            rows.increment();
            sink.accept(row);
        };
        scan.start(scheduler, entry -> {
            CompletableFuture<Object[]> outerRow = rowsElsewhere ? outerRowOf(entry)
                    : CompletableFuture.completedFuture(entry);
            return outerRow.thenCompose(row -> {
                if (row == null) {
                    return CompletableFuture.completedFuture(null); // deleted since the entry was read
                }
                Object[][] partial = new Object[steps.size() + 1][];
                partial[0] = row;
                return probe(scheduler, partial, 0, counted);
            }).thenRun(outerRowsDone::increment);
        });
        ExecutionStats stats = ExecutionStats.measure(store, () -> {
            scheduler.start().join();
            return scheduler;
        });
        return new Stats(stats, rows.sum(), localProbes.sum(), remoteRequests.sum());
    }

    /** Outer rows whose first probe has answered so far: the progress of a running join. */
    public long outerRowsDone() {
        return outerRowsDone.sum();
    }

    /**
     * The outer table's row whose primary key {@code entry} (a row holding the index's and the
     * key's columns) gives, read from the node that owns it; null when deleted since.
     */
    private CompletableFuture<Object[]> outerRowOf(Object[] entry) {
        int[] positions = outer.primaryKeyPositions();
        Object[] pkValues = new Object[positions.length];
        for (int i = 0; i < positions.length; i++) {
            pkValues[i] = entry[positions[i]];
        }
        byte[] pk = outer.keyCodec().encode(pkValues);
        boolean[] columns = outer.columnMask(outerNeeded);
        PartitionRouter.Holder holder = router.holder(spec.tables().get(0), outer.primaryKeyPrefix(pkValues[0]));
        CompletableFuture<byte[]> value;
        if (holder.node().equals(router.self())) {
            localProbes.increment();
            value = store.table(holder.storedName()).tree().get(pk);
        } else {
            remoteRequests.increment();
            value = router.fetch(holder, List.of(pk)).thenApply(values -> values.get(0));
        }
        return value.thenApply(v -> {
            if (v == null && !outer.written()) {
                throw new IllegalStateException("index " + outer.name() + " points to a missing row "
                        + Arrays.toString(pkValues));
            }
            return v == null ? null : outer.decodeRow(v, columns);
        });
    }

    /** Probes step {@code s} for a partial result holding the rows of the tables before it. */
    private CompletableFuture<?> probe(TaskScheduler scheduler, Object[][] partial, int s, RowSink sink) {
        Step step = steps.get(s);
        Table table = step.table();
        Object key = partial[step.fromTable()][step.fromColumn()];
        if (key == null) {
            return CompletableFuture.completedFuture(null); // NULL equals nothing
        }
        if (step.index() == null) {
            byte[] prefix = table.primaryKeyPrefix(key);
            PartitionRouter.Holder holder = router.holder(table.name(), prefix);
            if (holder.node().equals(router.self())) {
                localProbes.increment();
                Table local = store.table(holder.storedName());
                return local.tree().scan(prefix, KeyCodec.successor(prefix), (leaf, slot) -> {
                    matched(scheduler, partial, s, local.rowAt(leaf, slot, step.columns()), sink);
                    return true;
                });
            }
            remoteRequests.increment();
            return router.lookup(holder, null, prefix).thenAccept(entries -> {
                for (PartitionRouter.Entry e : entries) {
                    matched(scheduler, partial, s, table.decodeRow(e.value(), step.columns()), sink);
                }
            });
        }
        SecondaryIndex index = step.index();
        byte[] prefix = index.prefix(key);
        PartitionRouter.Holder holder = router.holder(table.name(), prefix);
        if (holder.node().equals(router.self())) {
            localProbes.increment();
            SecondaryIndex local = store.table(holder.storedName()).index(index.name());
            List<Object[]> keys = new ArrayList<>();
            return local.tree().scan(prefix, KeyCodec.successor(prefix), (leaf, slot) -> {
                keys.add(local.primaryKeyAt(leaf, slot));
                return true;
            }).thenRun(() -> fetchMatches(scheduler, partial, s, keys, sink));
        }
        remoteRequests.increment();
        return router.lookup(holder, index.name(), prefix).thenAccept(entries -> {
            List<Object[]> keys = new ArrayList<>(entries.size());
            int ixColumns = index.columns().size();
            for (PartitionRouter.Entry e : entries) {
                keys.add(index.codec().decodeSuffix(e.key(), ixColumns));
            }
            fetchMatches(scheduler, partial, s, keys, sink);
        });
    }

    /** Fetches the rows an index probe found: each local row by its own task, remote ones batched per node. */
    private void fetchMatches(TaskScheduler scheduler, Object[][] partial, int s, List<Object[]> primaryKeys,
                              RowSink sink) {
        Table table = steps.get(s).table();
        Map<PartitionRouter.Holder, List<byte[]>> remote = new LinkedHashMap<>();
        for (Object[] pkValues : primaryKeys) {
            byte[] pk = table.keyCodec().encode(pkValues);
            PartitionRouter.Holder holder = router.holder(table.name(), table.primaryKeyPrefix(pkValues[0]));
            if (holder.node().equals(router.self())) {
                localProbes.increment();
                Table local = store.table(holder.storedName());
                scheduler.spawn(() -> local.tree().get(pk).thenAccept(value -> fetched(scheduler, partial, s, value, pk, sink)));
            } else {
                remote.computeIfAbsent(holder, h -> new ArrayList<>()).add(pk);
            }
        }
        remote.forEach((holder, pks) -> {
            remoteRequests.increment();
            scheduler.spawn(() -> router.fetch(holder, pks).thenAccept(values -> {
                for (int i = 0; i < pks.size(); i++) {
                    fetched(scheduler, partial, s, values.get(i), pks.get(i), sink);
                }
            }));
        });
    }

    private void fetched(TaskScheduler scheduler, Object[][] partial, int s, byte[] value, byte[] pk, RowSink sink) {
        Step step = steps.get(s);
        if (value == null && step.table().written()) {
            return; // deleted since the entry was read
        }
        if (value == null) {
            throw new IllegalStateException("index " + step.table().name() + "." + step.index().name()
                    + " points to a missing row " + Arrays.toString(step.table().keyCodec().decode(pk)));
        }
        matched(scheduler, partial, s, step.table().decodeRow(value, step.columns()), sink);
    }

    /** A row of step {@code s}'s table joined the partial result: emit it, or probe the next step as a task of its own. */
    private void matched(TaskScheduler scheduler, Object[][] partial, int s, Object[] row, RowSink sink) {
        Object[][] next = partial.clone();
        next[s + 1] = row;
        if (s + 1 == steps.size()) {
            sink.accept(output.combine(next));
        } else {
            scheduler.spawn(() -> probe(scheduler, next, s + 1, sink));
        }
    }
}
