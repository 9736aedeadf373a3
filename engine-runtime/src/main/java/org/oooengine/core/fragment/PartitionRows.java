package org.oooengine.core.fragment;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The rows of one window partition, read back by position as the window's functions need them
 * (the current row, the ends of each frame, a row some rows before): in memory, reserved of the
 * query's memory, while they fit; then in a spill file in blocks of {@link Pipeline#BATCH_ROWS}
 * rows, of which the few blocks read last stay in memory. Filled, then read, then cleared for the
 * next partition. Not thread-safe.
 */
final class PartitionRows {
    /** Blocks of a spilled partition kept in memory: one for each place the functions read at. */
    private static final int CACHED_BLOCKS = 8;

    private final QueryMemory memory;
    private final String operator;
    private List<Object[]> held = new ArrayList<>();
    private long heldBytes;
    /** Null until the partition outgrows the memory; then every full block of rows is here. */
    private SpillFile spilled;
    /** Where each block of the spill file starts. */
    private final List<Long> blockOffsets = new ArrayList<>();
    private long spilledEnd;
    private long spilledBytes;
    private int size;
    /** Filling: it may spill what it holds when another operator needs the room. */
    private boolean filling = true;
    private boolean busy;
    private final Map<Integer, List<Object[]>> cache = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Integer, List<Object[]>> eldest) {
            return size() > CACHED_BLOCKS;
        }
    };

    PartitionRows(QueryMemory memory, String operator) {
        this.memory = memory;
        this.operator = operator;
    }

    void add(Object[] row) {
        size++;
        if (spilled != null) { // rows go to disk a block at a time
            held.add(row);
            if (held.size() == Pipeline.BATCH_ROWS) {
                writeBlock(held);
                held = new ArrayList<>();
            }
            return;
        }
        long bytes = QueryMemory.rowBytes(row);
        busy = true;
        try {
            memory.reserve(operator, bytes);
        } catch (MemoryLimitExceededException full) {
            if (!memory.canSpill()) {
                throw full;
            }
            held.add(row);
            spill();
            return;
        } finally {
            busy = false;
        }
        heldBytes += bytes;
        held.add(row);
    }

    /** Writes the rows held to disk, for another operator to have the room ({@link QueryMemory.Revocable}). */
    void revoke() {
        if (filling && !busy && spilled == null && !held.isEmpty() && memory.canSpill()) {
            spill();
        }
    }

    /** Moves the rows held to a spill file in full blocks; the last rows, less than a block, stay until it fills. */
    private void spill() {
        spilled = memory.newSpillFile(operator);
        int full = held.size() - held.size() % Pipeline.BATCH_ROWS;
        for (int from = 0; from < full; from += Pipeline.BATCH_ROWS) {
            writeBlock(held.subList(from, from + Pipeline.BATCH_ROWS));
        }
        held = new ArrayList<>(held.subList(full, held.size()));
        memory.release(heldBytes);
        heldBytes = 0;
    }

    private void writeBlock(List<Object[]> rows) {
        blockOffsets.add(spilledEnd);
        long bytes = spilled.append(rows);
        memory.spilled(bytes);
        spilledEnd += bytes;
        spilledBytes += bytes;
    }

    /** No more rows: from here on they are read. */
    void filled() {
        filling = false;
    }

    int size() {
        return size;
    }

    /** The {@code i}th row of the partition, from 0. */
    Object[] get(int i) {
        if (spilled == null) {
            return held.get(i);
        }
        int block = i / Pipeline.BATCH_ROWS;
        if (block == blockOffsets.size()) { // the last rows, never written
            return held.get(i % Pipeline.BATCH_ROWS);
        }
        return cache.computeIfAbsent(block, b -> spilled.blockAt(blockOffsets.get(b))).get(i % Pipeline.BATCH_ROWS);
    }

    /** Bytes this operator's partitions wrote to disk so far. */
    long spilledBytes() {
        return spilledBytes;
    }

    /** Forgets the partition's rows (deletes its file, gives back its memory) for the next one. */
    void clear() {
        held = new ArrayList<>();
        memory.release(heldBytes);
        heldBytes = 0;
        if (spilled != null) {
            spilled.close();
            spilled = null;
        }
        blockOffsets.clear();
        spilledEnd = 0;
        cache.clear();
        size = 0;
        filling = true;
    }
}
