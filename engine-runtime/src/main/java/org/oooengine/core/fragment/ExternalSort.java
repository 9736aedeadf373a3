package org.oooengine.core.fragment;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.function.Consumer;

/**
 * ORDER BY over rows that may not fit in memory (an external merge sort): rows are held, reserved
 * of the query's memory, while they fit; when they do not (and the query may spill) the held rows
 * are sorted and written to a spill file as one sorted run, and holding starts over. At the end
 * the runs are merged, a block of each at a time, into one order. More than {@link #FAN_IN} runs
 * are merged in passes, so the blocks held while merging stay few. Not thread-safe.
 */
public final class ExternalSort {
    /** The most runs merged at once: one block of rows each is in memory during a merge. */
    static final int FAN_IN = 64;

    private final List<SortKey> keys;
    private final Comparator<Object[]> order;
    private final QueryMemory memory;
    private final String operator;
    private List<Object[]> held = new ArrayList<>();
    private long heldBytes;
    private final List<SpillFile> runs = new ArrayList<>();
    /** In one of its own steps: not to be asked to spill then. */
    private boolean busy;

    public ExternalSort(List<SortKey> keys, QueryMemory memory, String operator) {
        this.keys = List.copyOf(keys);
        this.order = SortKey.order(keys);
        this.memory = memory;
        this.operator = operator;
    }

    public void add(List<Object[]> rows) {
        long bytes = QueryMemory.rowsBytes(rows);
        busy = true;
        try {
            memory.reserve(operator, bytes);
        } catch (MemoryLimitExceededException full) {
            if (!memory.canSpill()) {
                throw full;
            }
            held.addAll(rows); // one batch past the limit, for as long as it takes to write the run
            spillRun();
            return;
        } finally {
            busy = false;
        }
        heldBytes += bytes;
        held.addAll(rows);
    }

    /** Writes the rows held as a run, for another operator to have the room ({@link QueryMemory.Revocable}). */
    public void revoke() {
        if (!busy && !held.isEmpty() && memory.canSpill()) {
            spillRun();
        }
    }

    /** How many sorted runs went to disk so far. */
    public int runsSpilled() {
        return runs.size();
    }

    private void spillRun() {
        sortHeld();
        SpillFile run = memory.newSpillFile(operator);
        for (int from = 0; from < held.size(); from += Pipeline.BATCH_ROWS) {
            memory.spilled(run.append(held.subList(from, Math.min(held.size(), from + Pipeline.BATCH_ROWS))));
        }
        runs.add(run);
        held = new ArrayList<>();
        memory.release(heldBytes);
        heldBytes = 0;
    }

    /** Sorts the rows held: on their keys as longs where they are and the memory has room for them, else by the comparator. */
    private void sortHeld() {
        long bytes = LongKeySort.bytes(held.size(), keys.size());
        if (!memory.tryReserve(bytes)) {
            held.sort(order); // (about 4 bytes a row beside them)
            return;
        }
        try {
            if (!LongKeySort.sort(held, keys)) {
                held.sort(order);
            }
        } finally {
            memory.release(bytes);
        }
    }

    /** Sends every row in order, a batch at a time; deletes the runs and gives back the memory. */
    public void finish(Consumer<List<Object[]>> out) {
        busy = true; // for good: its rows go on from here
        if (runs.isEmpty()) {
            sortHeld();
            for (int from = 0; from < held.size(); from += Pipeline.BATCH_ROWS) {
                out.accept(held.subList(from, Math.min(held.size(), from + Pipeline.BATCH_ROWS)));
            }
            held = new ArrayList<>();
            memory.release(heldBytes);
            heldBytes = 0;
            return;
        }
        if (!held.isEmpty()) {
            spillRun();
        }
        while (runs.size() > FAN_IN) {
            List<SpillFile> first = new ArrayList<>(runs.subList(0, FAN_IN));
            runs.subList(0, FAN_IN).clear();
            SpillFile merged = memory.newSpillFile(operator);
            merge(first, rows -> memory.spilled(merged.append(rows)));
            runs.add(merged);
        }
        List<SpillFile> last = new ArrayList<>(runs);
        runs.clear();
        merge(last, out);
    }

    /** Merges sorted runs into {@code out}, a batch at a time, and deletes them. */
    private void merge(List<SpillFile> sorted, Consumer<List<Object[]>> out) {
        List<Cursor> cursors = new ArrayList<>();
        try {
            PriorityQueue<Cursor> heads = new PriorityQueue<>((a, b) -> {
                int c = order.compare(a.row(), b.row());
                return c != 0 ? c : Integer.compare(a.run, b.run);
            });
            for (int i = 0; i < sorted.size(); i++) {
                Cursor c = new Cursor(i, sorted.get(i).blocks());
                cursors.add(c);
                if (c.advance()) {
                    heads.add(c);
                }
            }
            List<Object[]> batch = new ArrayList<>(Pipeline.BATCH_ROWS);
            while (!heads.isEmpty()) {
                Cursor c = heads.poll();
                batch.add(c.row());
                if (batch.size() == Pipeline.BATCH_ROWS) {
                    out.accept(batch);
                    batch = new ArrayList<>(Pipeline.BATCH_ROWS);
                }
                if (c.advance()) {
                    heads.add(c);
                }
            }
            if (!batch.isEmpty()) {
                out.accept(batch);
            }
        } finally {
            cursors.forEach(c -> c.blocks.close());
            sorted.forEach(SpillFile::close);
        }
    }

    /** A run being merged: its current row, the block it is in, and the blocks still to read. */
    private static final class Cursor {
        final int run;
        final SpillFile.Blocks blocks;
        private List<Object[]> block = List.of();
        private int next;

        Cursor(int run, SpillFile.Blocks blocks) {
            this.run = run;
            this.blocks = blocks;
        }

        Object[] row() {
            return block.get(next - 1);
        }

        /** Moves to the next row; false when the run has no more. */
        boolean advance() {
            while (next == block.size()) {
                if (!blocks.hasNext()) {
                    return false;
                }
                block = blocks.next();
                next = 0;
            }
            next++;
            return true;
        }
    }
}
