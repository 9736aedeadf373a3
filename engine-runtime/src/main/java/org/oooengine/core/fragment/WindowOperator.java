package org.oooengine.core.fragment;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Consumer;
import org.oooengine.core.sql.expr.Expr;
import org.oooengine.core.sql.expr.WindowCall;

/**
 * Window functions over rows that may not fit in memory: each row, with its partition and order
 * keys' values appended, is sorted by the partition keys, then the window's ORDER BY
 * ({@link ExternalSort}, which spills sorted runs), and read back one partition at a time into
 * {@link PartitionRows} (which spills a partition that does not fit); each row goes on with every
 * call's value appended after its columns. Not thread-safe.
 */
public final class WindowOperator {
    private final List<Expr> keys;
    private final Comparator<Object[]> samePartition;
    private final Comparator<Object[]> peers;
    private final List<SortKey> order;
    private final List<WindowCall> calls;
    private final QueryMemory memory;
    private final ExternalSort sort;
    private final PartitionRows partition;
    private Object[] first;
    /** Drops rows a filter on a rank above would drop (null: none to drop). */
    private final TopRankedRows topRanked;
    /** Bytes its sort and partitions wrote to disk. */
    private long spilledBytes;

    /**
     * @param width     the input rows' columns
     * @param partition the PARTITION BY expressions over the input row
     * @param orderBy   the window's ORDER BY over the input row (empty: none)
     * @param calls     the functions, their expressions over the input row
     * @param operator  how a message about its memory names it
     */
    public WindowOperator(int width, List<Expr> partition, List<WindowCall.OrderKey> orderBy, List<WindowCall> calls,
                          QueryMemory memory, String operator) {
        this(width, partition, orderBy, calls, null, memory, operator);
    }

    /**
     * As above, the rows it makes read by a filter that keeps only the ranks {@code limit} says
     * (null: any): rows that cannot rank so well are dropped as they come, before the sort.
     */
    public WindowOperator(int width, List<Expr> partition, List<WindowCall.OrderKey> orderBy, List<WindowCall> calls,
                          RankLimit limit, QueryMemory memory, String operator) {
        List<Expr> keys = new ArrayList<>(partition);
        List<SortKey> byPartition = new ArrayList<>();
        for (int i = 0; i < partition.size(); i++) {
            byPartition.add(new SortKey(width + i, true, true));
        }
        List<SortKey> order = new ArrayList<>();
        for (WindowCall.OrderKey k : orderBy) { // the keys' values follow the row's columns
            order.add(new SortKey(width + keys.size(), k.ascending(), k.nullsFirst()));
            keys.add(k.expr());
        }
        this.keys = List.copyOf(keys);
        this.order = List.copyOf(order);
        this.calls = List.copyOf(calls);
        this.memory = memory;
        this.samePartition = SortKey.order(byPartition);
        this.peers = SortKey.order(order);
        List<SortKey> all = new ArrayList<>(byPartition);
        all.addAll(order);
        this.sort = new ExternalSort(all, memory, operator);
        this.partition = new PartitionRows(memory, operator);
        this.topRanked = limit == null ? null : new TopRankedRows(limit, samePartition, peers);
    }

    public void add(List<Object[]> rows) {
        long before = memory.spilledBytes();
        List<Object[]> keyed = new ArrayList<>(rows.size());
        for (Object[] row : rows) {
            Object[] k = java.util.Arrays.copyOf(row, row.length + keys.size());
            for (int i = 0; i < keys.size(); i++) {
                k[row.length + i] = keys.get(i).eval(row);
            }
            keyed.add(k);
        }
        sort.add(topRanked == null ? keyed : topRanked.kept(keyed));
        spilledBytes += memory.spilledBytes() - before;
    }

    /** Spills what it holds, for another operator to have the room ({@link QueryMemory.Revocable}). */
    public void revoke() {
        long before = memory.spilledBytes();
        sort.revoke();
        partition.revoke();
        spilledBytes += memory.spilledBytes() - before;
    }

    /** Sends every row with its calls' values, a batch at a time; gives back what it held. */
    public void finish(Consumer<List<Object[]>> out) {
        long before = memory.spilledBytes();
        long[] downstream = {0}; // what the operators its rows go to spill meanwhile is theirs
        RowBatches batches = new RowBatches(rows -> {
            long at = memory.spilledBytes();
            out.accept(rows);
            downstream[0] += memory.spilledBytes() - at;
        });
        try {
            sort.finish(rows -> {
                for (Object[] row : rows) {
                    if (first != null && samePartition.compare(first, row) != 0) {
                        evaluate(batches);
                    }
                    if (first == null) {
                        first = row;
                    }
                    partition.add(row);
                }
            });
            if (first != null) {
                evaluate(batches);
            }
            batches.flush();
        } finally {
            partition.clear();
            spilledBytes += memory.spilledBytes() - before - downstream[0];
        }
    }

    /** Bytes its sorted runs and partitions too large for memory took on disk. */
    public long spilledBytes() {
        return spilledBytes;
    }

    /** The partition read so far: each row with the calls' values, then the next partition starts. */
    private void evaluate(RowBatches out) {
        partition.filled();
        int n = partition.size();
        WindowFrames.Peers peerGroups = new WindowFrames.Peers(partition, peers);
        List<WindowFrames.Evaluator> evaluators = new ArrayList<>();
        for (WindowCall c : calls) {
            evaluators.add(WindowFrames.evaluator(c, partition, peerGroups, order));
        }
        for (int i = 0; i < n; i++) {
            peerGroups.advance(i);
            Object[] row = partition.get(i);
            int width = row.length - keys.size(); // the keys' values go, the calls' come
            Object[] result = java.util.Arrays.copyOf(row, width + calls.size());
            for (int k = 0; k < evaluators.size(); k++) {
                result[width + k] = evaluators.get(k).value(i);
            }
            out.add(result);
        }
        partition.clear();
        first = null;
    }
}
