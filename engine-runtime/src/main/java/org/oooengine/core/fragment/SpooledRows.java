package org.oooengine.core.fragment;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.function.Consumer;

/**
 * A statement's result rows kept for its client to fetch: in memory, reserved of the query's
 * memory, up to a share of it (the operators still running need the rest: an aggregation's
 * spilled groups are merged back while its first results are already here); the rest in a spill
 * file, in the order they came. Read once, in that order; the file is deleted when the query's
 * memory closes. Batches arrive from one thread at a time, and are kept as they came: a chunk
 * gathered column by column stays one ({@link org.oooengine.core.wire.ColumnarRows.ChunkRows}),
 * for a reader that takes its columns ({@link Cursor#take}).
 */
public final class SpooledRows implements Consumer<List<Object[]>> {
    /** The share of the query's memory held rows may take. */
    static final int SHARE = 4;

    private final QueryMemory memory;
    private final String operator;
    private final long maxHeldBytes;
    private final List<List<Object[]>> held = new ArrayList<>();
    private long heldBytes;
    /** In one of its own steps: not to be asked to spill then. */
    private boolean busy;
    private SpillFile spilled;
    private long count;

    public SpooledRows(QueryMemory memory, String operator) {
        this.memory = memory;
        this.operator = operator;
        this.maxHeldBytes = memory.limit() / SHARE;
    }

    @Override
    public void accept(List<Object[]> batch) {
        count += batch.size();
        if (spilled == null) {
            long bytes = QueryMemory.rowsBytes(batch);
            boolean inShare = heldBytes + bytes <= maxHeldBytes || !memory.canSpill();
            busy = true;
            try {
                if (inShare && held(batch, bytes)) {
                    return;
                }
            } finally {
                busy = false;
            }
            spilled = memory.newSpillFile(operator);
        }
        memory.spilled(spilled.append(batch));
    }

    /**
     * Writes the rows held to disk, for an operator still running to have the room
     * ({@link QueryMemory.Revocable}); only before any went there, which keeps them in order.
     */
    public void revoke() {
        if (!busy && spilled == null && !held.isEmpty() && memory.canSpill()) {
            spilled = memory.newSpillFile(operator);
            for (List<Object[]> batch : held) {
                memory.spilled(spilled.append(batch));
            }
            held.clear();
            memory.release(heldBytes);
            heldBytes = 0;
        }
    }

    /** Holds the batch in memory if the query's memory has room; false when not, and it may spill. */
    private boolean held(List<Object[]> batch, long bytes) {
        try {
            memory.reserve(operator, bytes);
        } catch (MemoryLimitExceededException full) {
            if (!memory.canSpill()) {
                throw full;
            }
            return false;
        }
        heldBytes += bytes;
        held.add(batch);
        return true;
    }

    /** How many rows came. */
    public long count() {
        return count;
    }

    /** Every row in the order they came: those held, then those read back from disk a block at a time. */
    public Cursor iterator() {
        SpillFile.Blocks onDisk = spilled == null ? null : spilled.blocks();
        Iterator<List<Object[]>> inMemory = held.iterator();
        return new Cursor(new Iterator<>() {
            @Override
            public boolean hasNext() {
                return inMemory.hasNext() || onDisk != null && onDisk.hasNext();
            }

            @Override
            public List<Object[]> next() {
                return inMemory.hasNext() ? inMemory.next() : onDisk.next();
            }
        });
    }

    /** Reads rows in order, a row at a time or a run of them at a time as the lists they came in. */
    public static final class Cursor implements RowRuns {
        private final Iterator<List<Object[]>> lists;
        private List<Object[]> current = List.of();
        private int at;

        public Cursor(Iterator<List<Object[]>> lists) {
            this.lists = lists;
        }

        @Override
        public boolean hasNext() {
            while (at == current.size()) {
                if (!lists.hasNext()) {
                    return false;
                }
                current = lists.next();
                at = 0;
            }
            return true;
        }

        @Override
        public Object[] next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            return current.get(at++);
        }

        @Override
        public List<List<Object[]>> take(int max) {
            List<List<Object[]>> pieces = new ArrayList<>();
            int taken = 0;
            while (taken < max && hasNext()) {
                int n = Math.min(max - taken, current.size() - at);
                pieces.add(current.subList(at, at + n));
                at += n;
                taken += n;
            }
            return pieces;
        }
    }
}
