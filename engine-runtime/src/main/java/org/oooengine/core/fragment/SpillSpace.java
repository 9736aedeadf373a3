package org.oooengine.core.fragment;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The disk the spill files of every query of one process may take together: a node's, or the
 * coordinator's. A spill file takes its share as it grows and gives it back when it is deleted;
 * a write past the cap fails its query ({@link SpillLimitExceededException}), whoever else filled
 * the space.
 */
public final class SpillSpace {
    /**
     * What one query may spill in one place unless the operator or the session says otherwise:
     * 16 GiB, about nine times what a node spilled for TPC-H Q9 at SF 10 with 64 MiB of memory
     * per node (7.3 GiB over four nodes, the most of any benchmark run), yet a small part of a
     * data disk, so that one runaway query (a cross join nobody fetches) cannot fill it.
     */
    public static final long DEFAULT_QUERY_MAX_BYTES = 16L << 30;
    /** Where the free space cannot be told: a fixed cap. */
    static final long FALLBACK_MAX_BYTES = 64L << 30;

    private final String where;
    private final long maxBytes;
    private final String setting;
    private final AtomicLong used = new AtomicLong();

    /**
     * @param where    e.g. "node n1"
     * @param setting  how the operator sets the cap, for the message
     */
    public SpillSpace(String where, long maxBytes, String setting) {
        if (maxBytes < 0) {
            throw new IllegalArgumentException("a spill cap of " + maxBytes + " bytes");
        }
        this.where = where;
        this.maxBytes = maxBytes;
        this.setting = setting;
    }

    /** No cap: tests and tools. */
    public static SpillSpace unbounded() {
        return new SpillSpace("here", Long.MAX_VALUE, "");
    }

    /**
     * The default cap of a process that spills to {@code dir}: half the space free now on the file
     * system that holds it. Spill is transient, and the other half stays for what the disk is for
     * (a node's store and its loads and writes, the coordinator's logs); a fixed cap where the free
     * space cannot be told.
     */
    public static long defaultMaxBytes(Path dir) {
        Path p = dir.toAbsolutePath();
        while (p != null && !Files.exists(p)) {
            p = p.getParent();
        }
        if (p == null) {
            return FALLBACK_MAX_BYTES;
        }
        try {
            long free = Files.getFileStore(p).getUsableSpace();
            return free > 0 ? free / 2 : FALLBACK_MAX_BYTES;
        } catch (IOException | RuntimeException e) {
            return FALLBACK_MAX_BYTES;
        }
    }

    /** Takes {@code bytes} for a query's spill file; false when that would go past the cap. */
    boolean take(long bytes) {
        long now = used.addAndGet(bytes);
        if (now > maxBytes || now < 0) {
            used.addAndGet(-bytes);
            return false;
        }
        return true;
    }

    /** Gives back what a deleted spill file took. */
    void give(long bytes) {
        used.addAndGet(-bytes);
    }

    /** Bytes the spill files of this process's queries take now. */
    public long used() {
        return used.get();
    }

    public long maxBytes() {
        return maxBytes;
    }

    /** For a message: "the spill space of node n1 for all its queries, 1.0 GiB (ooo node --spill-max)". */
    String describe() {
        return "the spill space of " + where + " for all its queries, " + QueryMemory.size(maxBytes)
                + (setting.isEmpty() ? "" : " (" + setting + ")");
    }
}
