package org.oooengine.core.exec;

import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.oooengine.core.ooo.TaskScheduler;
import org.oooengine.core.storage.Page;
import org.oooengine.core.store.SecondaryIndex;
import org.oooengine.core.store.Table;
import org.oooengine.core.types.KeyCodec;

/**
 * Out-of-order index range scan: walks the index leaves of a range as producer tasks and hands
 * every matching row to {@code downstream} as a spawned task. When the row needs columns the index
 * does not hold, each row is fetched from the clustered tree by its own task (one random read).
 * A residual predicate is applied to the complete row.
 */
public final class IndexRangeScan {
    private final Table table;
    private final SecondaryIndex index;
    private final byte[] from;
    private final byte[] toExclusive;
    private final boolean fetchRows;
    private final Predicate<Object[]> residual;
    private final boolean[] fetchedColumns;

    /**
     * @param neededColumns table positions the consumer reads
     * @param residual      applied to each complete row after the index range (null: none); with
     *                      a residual every column is decoded, else only the needed ones
     */
    public IndexRangeScan(Table table, ColumnRange range, int[] neededColumns, Predicate<Object[]> residual) {
        this.table = table;
        this.index = table.indexLeadingWith(range.column()).orElseThrow(() -> new IllegalArgumentException(
                "no index on " + table.name() + "." + range.column() + " for the range predicate; indexes: "
                        + table.indexes().keySet()));
        this.from = index.prefix(range.low());
        this.toExclusive = KeyCodec.successor(index.prefix(range.high()));
        this.residual = residual;
        int[] covered = coveredPositions();
        this.fetchedColumns = residual == null ? table.columnMask(neededColumns) : null;
        this.fetchRows = Arrays.stream(neededColumns).anyMatch(c -> Arrays.stream(covered).noneMatch(x -> x == c));
    }

    private int[] coveredPositions() {
        int[] ix = index.columnPositions();
        int[] pk = table.primaryKeyPositions();
        int[] all = Arrays.copyOf(ix, ix.length + pk.length);
        System.arraycopy(pk, 0, all, ix.length, pk.length);
        return all;
    }

    public boolean fetchesRows() {
        return fetchRows;
    }

    /** Index entries in the range, counted by walking the leaves (no rows read); blocks the calling thread. */
    public long count() {
        Page leaf = index.tree().seek(from).join();
        long n = 0;
        byte[] seen = null;
        for (int i = leaf.lowerBound(from); ; i = leaf.resumeSlot(from, seen)) {
            for (; i < leaf.count(); i++) {
                if (toExclusive != null && leaf.compareKey(i, toExclusive) >= 0) {
                    return n;
                }
                n++;
            }
            seen = leaf.lastKeyPast(seen);
            if (leaf.next() < 0) {
                return n;
            }
            leaf = index.tree().page(leaf.next()).join();
        }
    }

    /** Queues the scan on the scheduler; each qualifying row goes to {@code downstream} inside a task. */
    public void start(TaskScheduler scheduler, TaskContinuation downstream) {
        scheduler.produce(() -> index.tree().seek(from).thenAccept(
                leaf -> consumeLeaf(scheduler, leaf, leaf.lowerBound(from), downstream)));
    }

    private void consumeLeaf(TaskScheduler scheduler, Page leaf, int slot, TaskContinuation downstream) {
        consumeLeaf(scheduler, leaf, slot, null, downstream);
    }

    /**
     * Entries of {@code leaf} from {@code slot} on, or ({@code slot} -1) from where a scan that
     * last passed {@code seen} resumes on it.
     */
    private void consumeLeaf(TaskScheduler scheduler, Page leaf, int slot, byte[] seen, TaskContinuation downstream) {
        int n = leaf.count();
        if (slot < 0) {
            slot = leaf.resumeSlot(from, seen);
        }
        for (int i = slot; i < n; i++) {
            if (toExclusive != null && leaf.compareKey(i, toExclusive) >= 0) {
                return;
            }
            Object[] entry = index.entryAt(leaf, i);
            if (fetchRows) {
                byte[] pk = table.keyCodec().encode(Arrays.copyOfRange(entry, index.columnPositions().length, entry.length));
                scheduler.spawn(() -> table.tree().get(pk).thenCompose(value -> {
                    if (value == null && table.written()) { // deleted since the entry was read
                        return CompletableFuture.completedFuture(null);
                    }
                    if (value == null) {
                        throw new IllegalStateException("index " + table.name() + "." + index.name()
                                + " points to a missing row " + Arrays.toString(entry));
                    }
                    return emit(table.decodeRow(value, fetchedColumns), downstream);
                }));
            } else {
                Object[] row = rowFromEntry(entry);
                scheduler.spawn(() -> emit(row, downstream));
            }
        }
        long next = leaf.next();
        byte[] last = leaf.lastKeyPast(seen);
        if (next >= 0) {
            scheduler.produce(() -> index.tree().page(next).thenAccept(p -> consumeLeaf(scheduler, p, -1, last,
                    downstream)));
        }
    }

    private CompletableFuture<?> emit(Object[] row, TaskContinuation downstream) {
        if (residual != null && !residual.test(row)) {
            return CompletableFuture.completedFuture(null);
        }
        return downstream.continueWith(row);
    }

    /** A row built from an index entry alone: index and primary key columns set, the rest null. */
    private Object[] rowFromEntry(Object[] entry) {
        Object[] row = new Object[table.schema().size()];
        int[] ix = index.columnPositions();
        int[] pk = table.primaryKeyPositions();
        for (int i = 0; i < ix.length; i++) {
            row[ix[i]] = entry[i];
        }
        for (int i = 0; i < pk.length; i++) {
            row[pk[i]] = entry[ix.length + i];
        }
        return row;
    }

    /** What a task does with a row it produced; may issue further I/O. */
    @FunctionalInterface
    public interface TaskContinuation {
        CompletableFuture<?> continueWith(Object[] row);
    }

    /** For callers that only want the rows: emits each to a consumer. */
    public static TaskContinuation toConsumer(Consumer<Object[]> consumer) {
        return row -> {
            consumer.accept(row);
            return CompletableFuture.completedFuture(null);
        };
    }
}
