package org.oooengine.core.fragment;

import java.math.BigDecimal;
import java.util.concurrent.atomic.AtomicLong;
import org.oooengine.core.settings.SessionSettings;

/**
 * What one query's operators hold in memory where they run (a node's request, or the
 * coordinator), as estimated from the rows they keep, against a limit: an operator that would
 * go over it fails the query with {@link MemoryLimitExceededException}, naming itself, the place
 * and the amounts, instead of the process running out of heap. What they spill to disk is held
 * to a limit too, the query's own and the place's for all its queries ({@link SpillSpace}): past
 * either, {@link SpillLimitExceededException}. On a node, what every statement there holds is
 * also held of the node's {@link NodeMemory}, so that many statements at once stay within the
 * heap too.
 */
public final class QueryMemory implements AutoCloseable {
    private final String where;
    private final long limit;
    /** What the message of an operator over the limit says after it, e.g. how to raise the limit; empty for nothing. */
    private final String hint;
    private final long spillLimit;
    private final SpillSpace spillSpace;
    /** Bytes this query's spill files take on disk now. */
    private final AtomicLong onDisk = new AtomicLong();
    private final AtomicLong used = new AtomicLong();
    private final AtomicLong spilled = new AtomicLong();
    private final AtomicLong spilledRows = new AtomicLong();
    /** The most the operators here held at once. */
    private final AtomicLong peak = new AtomicLong();
    /** Operators being measured (EXPLAIN ANALYZE): each sees the most held while it runs. */
    private final java.util.List<Watch> watches = new java.util.concurrent.CopyOnWriteArrayList<>();
    /** Bytes spilled by every query of this process. */
    private static final AtomicLong SPILLED_IN_PROCESS = new AtomicLong();
    /** Where operators that can spill put what does not fit; null: they fail instead. */
    private final java.nio.file.Path spillDirectory;
    private final java.util.List<SpillFile> spills = new java.util.ArrayList<>();
    /** Operators that write what they hold to disk when asked, for another operator to have room. */
    private final java.util.List<Revocable> revocables = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final ThreadLocal<Boolean> revoking = ThreadLocal.withInitial(() -> false);
    /** What the statements of the node together may hold, or null. */
    private final NodeMemory node;
    /** Closed: what it held went back to the node, and what operators give back after that is not counted. */
    private volatile boolean closed;

    /**
     * An operator that can give back what it holds by spilling it (an aggregation's groups, a
     * sort's rows): asked when another operator's reservation does not fit. Only where the
     * operators of a statement run one at a time (the coordinator): an operator is asked between
     * its own steps, never in the middle of one.
     */
    @FunctionalInterface
    public interface Revocable {
        /** Spills what it holds now and gives back its memory; nothing when it cannot (it is the one asking). */
        void revoke();
    }

    /**
     * @param where   e.g. "node n1"
     * @param setting how a user raises the limit, for the message
     */
    public QueryMemory(String where, long limit, String setting) {
        this(where, limit, setting, null);
    }

    /** As above; aggregations that outgrow the limit spill to files in {@code spillDirectory} (made when first needed). */
    public QueryMemory(String where, long limit, String setting, java.nio.file.Path spillDirectory) {
        this(where, limit, raiseWith(setting), spillDirectory, Long.MAX_VALUE, SpillSpace.unbounded());
    }

    /**
     * As above, its spill files held to {@code spillLimit} bytes on disk at a time and to what
     * {@code spillSpace} has left.
     *
     * @param hint what a message of an operator over the memory limit adds, e.g. {@link #raiseWith}
     */
    public QueryMemory(String where, long limit, String hint, java.nio.file.Path spillDirectory, long spillLimit,
                       SpillSpace spillSpace) {
        this(where, limit, hint, spillDirectory, spillLimit, spillSpace, null);
    }

    /**
     * As above, every byte reserved also from {@code node} (null: none), what all statements
     * running there may hold together; what this memory still holds when it closes goes back.
     */
    public QueryMemory(String where, long limit, String hint, java.nio.file.Path spillDirectory, long spillLimit,
                       SpillSpace spillSpace, NodeMemory node) {
        this.where = where;
        this.limit = limit;
        this.hint = hint;
        this.spillDirectory = spillDirectory;
        this.spillLimit = spillLimit;
        this.spillSpace = spillSpace;
        this.node = node;
    }

    /** "raise it with SET {@code setting}=&lt;bytes&gt;"; empty for no setting. */
    public static String raiseWith(String setting) {
        return setting.isEmpty() ? "" : "raise it with SET " + setting + "=<bytes>";
    }

    /** No limit: tests and tools that hold what they read anyway. */
    public static QueryMemory unbounded() {
        return new QueryMemory("here", Long.MAX_VALUE, "");
    }

    /** Has {@code operator} spill what it holds when another needs the room ({@link Revocable}). */
    public void revocable(Revocable operator) {
        revocables.add(operator);
    }

    /**
     * Takes {@code bytes} more for {@code operator}, or fails if that goes over the limit even
     * after the operators that can spill did.
     */
    public void reserve(String operator, long bytes) {
        if (fits(bytes) || revoked() && fits(bytes)) {
            return;
        }
        long now = used.get();
        if (now + bytes <= limit && node != null) {
            throw new MemoryLimitExceededException(node.full(operator, bytes));
        }
        throw new MemoryLimitExceededException(operator + " on " + where + " needs more than the query's memory limit of "
                + mib(limit) + " there (" + mib(now) + " held, " + mib(bytes) + " more asked)"
                + (hint.isEmpty() ? "" : "; " + hint));
    }

    /**
     * Takes {@code bytes} if there is room without asking any operator to spill; else takes nothing
     * (false): for room that only speeds an operator up.
     */
    public boolean tryReserve(long bytes) {
        return fits(bytes);
    }

    /** Takes {@code bytes} if both this query's limit and the node's have room; else takes nothing. */
    private boolean fits(long bytes) {
        long now = used.addAndGet(bytes);
        if (now > limit && bytes > 0) {
            used.addAndGet(-bytes);
            return false;
        }
        if (node != null && !closed && !node.tryReserve(bytes)) {
            used.addAndGet(-bytes);
            return false;
        }
        peak.accumulateAndGet(now, Math::max);
        for (Watch w : watches) {
            w.peak.accumulateAndGet(now, Math::max);
        }
        return true;
    }

    /** Asks the operators that can spill to do so; whether they gave anything back. */
    private boolean revoked() {
        if (revocables.isEmpty() || revoking.get()) {
            return false;
        }
        long before = used.get();
        revoking.set(true);
        try {
            revocables.forEach(Revocable::revoke);
        } finally {
            revoking.set(false);
        }
        return used.get() < before;
    }

    /** Gives back {@code bytes} an operator no longer holds. */
    public void release(long bytes) {
        if (closed) {
            return;
        }
        used.addAndGet(-bytes);
        if (node != null) {
            node.release(bytes);
        }
    }

    public long used() {
        return used.get();
    }

    /** What the operators here may hold together. */
    public long limit() {
        return limit;
    }

    /** Whether operators may spill to disk here. */
    public boolean canSpill() {
        return spillDirectory != null;
    }

    /** What the operators here may have in spill files at a time. */
    public long spillLimit() {
        return spillLimit;
    }

    /** Bytes this query's spill files take on disk now. */
    public long spillBytesOnDisk() {
        return onDisk.get();
    }

    /**
     * A new spill file of {@code operator}, deleted at the latest when this query's memory closes;
     * its writes are held to the query's spill limit and the place's spill space.
     */
    SpillFile newSpillFile(String operator) {
        if (spillDirectory == null) {
            throw new IllegalStateException("no spill directory on " + where);
        }
        try {
            org.oooengine.core.storage.Directories.createPrivate(spillDirectory);
        } catch (java.io.IOException e) {
            throw new IllegalStateException("cannot make the spill directory " + spillDirectory + ": " + e.getMessage(), e);
        }
        SpillFile f = new SpillFile(spillDirectory, this, operator);
        synchronized (spills) {
            spills.add(f);
        }
        return f;
    }

    /**
     * Takes {@code bytes} of disk for {@code operator}'s spill file, before it writes them; fails
     * the query if that goes past its spill limit or the place's spill space.
     */
    void takeDisk(String operator, long bytes) {
        long now = onDisk.addAndGet(bytes);
        if (now > spillLimit || now < 0) {
            onDisk.addAndGet(-bytes);
            throw new SpillLimitExceededException(operator + " on " + where + " cannot spill " + size(bytes)
                    + " more: the query's spill limit there is " + size(spillLimit) + " (" + SessionSettings.SPILL_MAX_BYTES.name() + "), "
                    + size(now - bytes) + " of it spilled; the query stops and its spill files are removed");
        }
        if (!spillSpace.take(bytes)) {
            onDisk.addAndGet(-bytes);
            throw new SpillLimitExceededException(operator + " on " + where + " cannot spill " + size(bytes)
                    + " more: " + spillSpace.describe() + ", has " + size(spillSpace.used()) + " in use; the query "
                    + "stops and its spill files are removed");
        }
    }

    /** Gives back the disk a deleted spill file took. */
    void giveDisk(long bytes) {
        onDisk.addAndGet(-bytes);
        spillSpace.give(bytes);
    }

    /** Counts bytes an operator wrote to a spill file. */
    void spilled(long bytes) {
        spilled.addAndGet(bytes);
        SPILLED_IN_PROCESS.addAndGet(bytes);
    }

    /** Counts rows an operator wrote to a spill file (a row merged from one spill file into another counts again). */
    void spilledRows(long rows) {
        spilledRows.addAndGet(rows);
    }

    /** Rows spilled to disk here so far. */
    public long spilledRows() {
        return spilledRows.get();
    }

    /** The most the operators here held at once so far. */
    public long peakBytes() {
        return peak.get();
    }

    /**
     * Starts measuring one operator (EXPLAIN ANALYZE): what is held and spilled from now until
     * the watch closes, operators that run meanwhile (its inputs) included.
     */
    public Watch watch() {
        Watch w = new Watch(used.get(), spilled.get());
        watches.add(w);
        return w;
    }

    /** What a query's operators held and spilled here while one operator ran; see {@link #watch()}. */
    public final class Watch implements AutoCloseable {
        private final long heldAtStart;
        private final long spilledAtStart;
        private final AtomicLong peak;
        private long spilledWhile = -1;

        private Watch(long heldAtStart, long spilledAtStart) {
            this.heldAtStart = heldAtStart;
            this.spilledAtStart = spilledAtStart;
            this.peak = new AtomicLong(heldAtStart);
        }

        /** The most held at once while watched, above what was held when the watch started. */
        public long peakBytes() {
            return Math.max(0, peak.get() - heldAtStart);
        }

        /** Bytes spilled while watched (so far, until closed). */
        public long spilledBytes() {
            return spilledWhile >= 0 ? spilledWhile : spilled.get() - spilledAtStart;
        }

        @Override
        public void close() {
            if (spilledWhile < 0) {
                spilledWhile = spilled.get() - spilledAtStart;
                watches.remove(this);
            }
        }
    }

    /** Bytes every query of this process has spilled to disk so far. */
    public static long spilledInProcess() {
        return SPILLED_IN_PROCESS.get();
    }

    /** Bytes spilled to disk here so far. */
    public long spilledBytes() {
        return spilled.get();
    }

    /** Deletes the spill files still left (a failed or cancelled query's). */
    @Override
    public void close() {
        if (!closed) {
            closed = true;
            long held = used.getAndSet(0);
            if (node != null) {
                node.release(held); // what operators that failed or never give back still held
            }
        }
        synchronized (spills) {
            RuntimeException first = null;
            for (SpillFile f : spills) {
                try {
                    f.close();
                } catch (RuntimeException e) {
                    first = first == null ? e : first;
                }
            }
            spills.clear();
            if (first != null) {
                throw first;
            }
        }
    }

    private static String mib(long bytes) {
        return String.format(java.util.Locale.ROOT, "%.1f MiB", bytes / (double) (1 << 20));
    }

    /** {@code bytes} for a message: in MiB, in GiB from 1 GiB on. */
    static String size(long bytes) {
        return bytes >= 1L << 30 ? String.format(java.util.Locale.ROOT, "%.1f GiB", bytes / (double) (1L << 30))
                : mib(bytes);
    }

    /** About the heap bytes a row of SQL values takes: the array, and each value's object. */
    public static long rowBytes(Object[] row) {
        long bytes = 16 + 4L * row.length;
        for (Object v : row) {
            if (v == null || v instanceof Boolean) {
                continue;
            }
            if (v instanceof String s) {
                bytes += 40 + s.length();
            } else if (v instanceof BigDecimal) {
                bytes += 40;
            } else {
                bytes += 24;
            }
        }
        return bytes;
    }

    /** The rows' bytes by {@link #rowBytes}, from a sample of at most 64 rows when there are more. */
    public static long rowsBytes(java.util.List<Object[]> rows) {
        int n = rows.size();
        if (n == 0) {
            return 0;
        }
        var ofChunk = org.oooengine.core.wire.ColumnarRows.chunkOf(rows);
        if (ofChunk != null) { // its columns' share, not rows boxed to be measured
            return chunkBytes(ofChunk.chunk()) * n / ofChunk.chunk().size();
        }
        int step = Math.max(1, n / 64);
        long sampled = 0;
        int count = 0;
        for (int i = 0; i < n; i += step) {
            sampled += rowBytes(rows.get(i));
            count++;
        }
        return sampled * n / count;
    }

    /** About the heap bytes of a chunk of rows: its columns' arrays, its strings and other objects sampled. */
    public static long chunkBytes(org.oooengine.core.wire.ColumnarRows.Chunk chunk) {
        if (chunk.columns() == null) {
            return rowsBytes(chunk.rows());
        }
        int n = chunk.size();
        long bytes = 16;
        for (org.oooengine.core.wire.ColumnarRows.Column c : chunk.columns()) {
            bytes += 16 + (c.nulls() == null ? 0 : n) + 8L * n;
            if (c.objects() != null && n > 0) {
                int step = Math.max(1, n / 64);
                long sampled = 0;
                int count = 0;
                for (int i = 0; i < n; i += step) {
                    Object v = c.objects()[i];
                    sampled += v instanceof String s ? 40 + s.length() : v == null || v instanceof Boolean ? 0 : 24;
                    count++;
                }
                bytes += sampled * n / count;
            }
        }
        return bytes;
    }
}
