package org.oooengine.core.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.oooengine.core.storage.ChecksummedRecords;
import org.oooengine.core.storage.DataCorruptedException;
import org.oooengine.core.storage.Directories;
import org.oooengine.core.store.StatementJournal;
import org.oooengine.core.types.Bytes;

/**
 * The statements written in place that this node decided committed, as their deciding node: one
 * record appended and synced per decision ({@link ChecksummedRecords}, tagged with the statement's
 * number, the time of the decision for a payload) — that sync is the statement's commit point.
 * Owners that did not hear the commit ask here ({@code WRITE_OUTCOME}); a statement not found was
 * never committed. Bounded: a record goes once it is older than {@link #KEEP_FOR} and
 * {@link #KEEP} newer ones are kept, or when {@link #MAX} newer ones are; the file is rewritten
 * without the records gone once they outnumber those kept.
 */
final class WriteDecisions {
    private static final Logger LOG = LogManager.getLogger(WriteDecisions.class);
    static final String FILE = "decided";
    /** Decisions always kept, the newest. */
    static final int KEEP = 10_000;
    /** Decisions kept at least this long, up to {@link #MAX}. */
    static final Duration KEEP_FOR = Duration.ofHours(24);
    static final int MAX = 1_000_000;
    private static final int RECORD_BYTES = ChecksummedRecords.OVERHEAD + 8;

    /** What is kept: the newest {@code keep} always, those younger than {@code keepForMillis} up to {@code max}. */
    record Limits(int keep, long keepForMillis, int max, java.util.function.LongSupplier clock) {
        static final Limits DEFAULT = new Limits(KEEP, KEEP_FOR.toMillis(), MAX, System::currentTimeMillis);
    }

    private final Path file;
    private final Limits limits;
    /** Statement number to the time (epoch millis) it was decided, oldest first. */
    private final LinkedHashMap<Long, Long> decided = new LinkedHashMap<>();
    private FileChannel channel;
    /** Records the file holds, kept or not. */
    private long recordsInFile;

    private WriteDecisions(Path file, Limits limits) {
        this.file = file;
        this.limits = limits;
    }

    /**
     * The decisions recorded in {@code dir}. A last record cut short or torn (a crash while it was
     * appended, before it was synced and so before anyone heard of it) is dropped with a warning; a
     * damaged record before the last one is a {@link DataCorruptedException}.
     */
    static WriteDecisions open(Path dir) {
        return open(dir, Limits.DEFAULT);
    }

    /** As above, keeping what {@code limits} say. */
    static WriteDecisions open(Path dir, Limits limits) {
        WriteDecisions d = new WriteDecisions(dir.resolve(FILE), limits);
        try {
            Directories.createPrivate(dir);
            boolean existed = Files.exists(d.file);
            d.channel = Directories.openPrivate(d.file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                    StandardOpenOption.WRITE);
            if (!existed) {
                Directories.syncDirectory(dir);
            }
            ChecksummedRecords.Reader records = new ChecksummedRecords.Reader(d.channel, d.file, 8);
            long size = d.channel.size();
            long good = 0;
            while (true) {
                ChecksummedRecords.Record r;
                try {
                    r = records.next();
                } catch (DataCorruptedException e) {
                    if (size - good > RECORD_BYTES) {
                        throw e;
                    }
                    LOG.warn("{}: dropped a last decision record never completed ({}); it was never answered", d.file,
                            e.getMessage());
                    d.channel.truncate(good);
                    d.channel.force(true);
                    break;
                }
                if (r == null) {
                    break;
                }
                d.decided.put(r.tag(), Bytes.getLong(r.payload(), 0));
                d.recordsInFile++;
                good = r.offset() + RECORD_BYTES;
            }
            d.forgetOld(limits.clock().getAsLong()); // records the file still holds past what is kept
            return d;
        } catch (IOException e) {
            d.close();
            throw new UncheckedIOException("cannot open " + d.file, e);
        } catch (RuntimeException e) {
            d.close();
            throw e;
        }
    }

    /** Records that {@code statement} committed, synced: when this returns, the statement is committed. */
    synchronized void record(long statement) {
        long now = limits.clock().getAsLong();
        byte[] at = new byte[8];
        Bytes.putLong(at, 0, now);
        try {
            ByteBuffer buf = ByteBuffer.wrap(ChecksummedRecords.frame(statement, at));
            long pos = channel.size();
            while (buf.hasRemaining()) {
                pos += channel.write(buf, pos);
            }
            channel.force(false);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot record the decision of statement " + StatementJournal.name(statement)
                    + " in " + file, e);
        }
        decided.remove(statement);
        decided.put(statement, now);
        recordsInFile++;
        try {
            forgetOld(now);
        } catch (RuntimeException e) { // the decision is recorded: tidying up can wait for the next one
            LOG.warn("{}: cannot drop old decisions: {}", file, e.getMessage());
        }
    }

    /** Whether this node decided {@code statement} committed (within what it keeps). */
    synchronized boolean committed(long statement) {
        return decided.containsKey(statement);
    }

    synchronized int size() {
        return decided.size();
    }

    private void forgetOld(long now) throws UncheckedIOException {
        long oldest = now - limits.keepForMillis();
        Iterator<Map.Entry<Long, Long>> it = decided.entrySet().iterator();
        while (decided.size() > limits.keep() && it.hasNext()) {
            Map.Entry<Long, Long> e = it.next();
            if (e.getValue() >= oldest && decided.size() <= limits.max()) {
                break;
            }
            it.remove();
        }
        if (recordsInFile > 2L * decided.size() + limits.keep()) {
            rewrite();
        }
    }

    /** Writes the kept records into a new file, synced, and renames it over the old one. */
    private void rewrite() {
        Path tmp = file.resolveSibling(FILE + ".tmp");
        try {
            try (FileChannel out = Directories.openPrivate(tmp, StandardOpenOption.CREATE,
                    StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
                ByteBuffer buf = ByteBuffer.allocate(RECORD_BYTES * Math.min(decided.size() + 1, 4096));
                for (Map.Entry<Long, Long> e : decided.entrySet()) {
                    byte[] at = new byte[8];
                    Bytes.putLong(at, 0, e.getValue());
                    if (buf.remaining() < RECORD_BYTES) {
                        drain(out, buf);
                    }
                    buf.put(ChecksummedRecords.frame(e.getKey(), at));
                }
                drain(out, buf);
                out.force(true);
            }
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            Directories.syncDirectory(file.getParent());
            FileChannel old = channel;
            channel = Directories.openPrivate(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
            old.close();
            recordsInFile = decided.size();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot rewrite " + file, e);
        }
    }

    private static void drain(FileChannel out, ByteBuffer buf) throws IOException {
        buf.flip();
        while (buf.hasRemaining()) {
            out.write(buf);
        }
        buf.clear();
    }

    synchronized void close() {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException e) {
                LOG.warn("cannot close {}: {}", file, e.getMessage());
            }
        }
    }
}
