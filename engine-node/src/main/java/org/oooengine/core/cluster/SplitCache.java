package org.oooengine.core.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.oooengine.core.columnar.ColumnarFile;
import org.oooengine.core.columnar.ColumnarWriter;
import org.oooengine.core.storage.DataCorruptedException;
import org.oooengine.core.storage.Directories;
import org.oooengine.core.storage.IoStats;
import org.oooengine.core.storage.StorageException;
import org.oooengine.core.types.Column;
import org.oooengine.core.types.DataType;
import org.oooengine.core.types.Schema;
import org.oooengine.core.vector.Batch;
import org.oooengine.core.vector.StoredVectors;
import org.oooengine.core.vector.Vector;

/**
 * The columns of warehouse files' splits this node has read, kept transcoded into the engine's own
 * columnar format ({@link ColumnarFile}) in a directory of the node's, so that a scan reading them
 * again maps and decodes them as it does the engine's own tables: no decompression, no decoding of
 * the file's format (Parquet's Snappy pages and runs cost a node about as much CPU again as the
 * rest of a TPC-H query over them). One file per column of a split, named by a digest of the
 * file's path, the split's bytes, the file's version ({@link SplitReader#version}) and the
 * column's type, so a file written again, or read as another type, is read from the file again.
 *
 * <p>At most {@code maxBytes} on disk; the least recently read go first, each closed once no scan
 * reads it. The files outlive the process (a restarted node reads them again); what a crash left
 * half-written is removed when the cache is opened. Its directory and files are the service's own
 * (0700, 0600): they hold table data.
 */
public final class SplitCache implements AutoCloseable {
    private static final Logger LOG = LogManager.getLogger(SplitCache.class);
    /** The cache's directory under the node's data directory. */
    static final String DIRECTORY = "file-cache";
    private static final String SUFFIX = ".col";
    private static final String PARTIAL = ".partial";
    /**
     * The most entries held open between reads (a descriptor and a mapping each): at scale a node
     * keeps many thousands of columns, and the least recently read are opened again when read.
     */
    static final int MAX_OPEN = 1_024;

    private final Path dir;
    private final long maxBytes;
    private final int maxOpen;
    private final IoStats stats = new IoStats();
    /** The entries kept, in order of last use, the least recent first. Guarded by this. */
    private final LinkedHashMap<String, Entry> entries = new LinkedHashMap<>(64, 0.75f, true);
    /** Guarded by this. */
    private long bytes;
    /** The entries whose file is open. Guarded by this. */
    private int open;
    /** The names of the entries being written: a second read of the same column meanwhile keeps none. */
    private final Set<String> writing = ConcurrentHashMap.newKeySet();
    /** The bytes of the entries being written: at most {@code maxBytes} together, a writer past it giving up. */
    private final java.util.concurrent.atomic.AtomicLong writingBytes = new java.util.concurrent.atomic.AtomicLong();
    /** Set once closed: nothing is opened or kept any more. Guarded by this. */
    private boolean closed;
    private final LongAdder hits = new LongAdder();
    private final LongAdder misses = new LongAdder();

    /**
     * One column of one split, as a version of its file holds it and a table reads it: the column's
     * place and name (Parquet finds a table's columns by name, text by place), its type and the
     * file's layout (a text file's delimiter and NULL text).
     */
    record Key(String path, long start, long length, String version, int column, String columnName, DataType type,
               String layout) {
        /** The entry's file name: a digest, so that no path a user names becomes one of the node's. */
        String name() {
            try {
                MessageDigest sha = MessageDigest.getInstance("SHA-256");
                String text = path + '\n' + start + '\n' + length + '\n' + version + '\n' + column + '\n' + columnName
                        + '\n' + type + '\n' + layout;
                return HexFormat.of().formatHex(sha.digest(text.getBytes(StandardCharsets.UTF_8))) + SUFFIX;
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException("SHA-256 is every JVM's", e);
            }
        }

        Schema schema() {
            return new Schema(List.of(new Column(columnName, type)));
        }
    }

    private SplitCache(Path dir, long maxBytes, int maxOpen) {
        this.dir = dir;
        this.maxBytes = maxBytes;
        this.maxOpen = maxOpen;
    }

    /**
     * Opens the cache in {@code dir} (made, owner-only, when missing), keeping at most
     * {@code maxBytes}: the files a previous run kept are kept again, the least recently written
     * first to go; those it left half-written are removed.
     */
    public static SplitCache open(Path dir, long maxBytes) {
        return open(dir, maxBytes, MAX_OPEN);
    }

    /** As above, at most {@code maxOpen} entries open between reads. */
    static SplitCache open(Path dir, long maxBytes, int maxOpen) {
        if (maxBytes <= 0 || maxOpen < 1) {
            throw new IllegalArgumentException("a cache of files' splits of " + maxBytes + " bytes, " + maxOpen + " open");
        }
        SplitCache cache = new SplitCache(dir, maxBytes, maxOpen);
        try {
            Directories.createPrivate(dir);
            List<Path> kept = new ArrayList<>();
            try (DirectoryStream<Path> files = Files.newDirectoryStream(dir)) {
                for (Path f : files) {
                    String name = f.getFileName().toString();
                    if (name.endsWith(PARTIAL)) {
                        Files.deleteIfExists(f);
                    } else if (name.endsWith(SUFFIX)) {
                        kept.add(f);
                    }
                }
            }
            kept.sort(java.util.Comparator.comparingLong(SplitCache::modified));
            synchronized (cache) {
                for (Path f : kept) {
                    cache.add(f.getFileName().toString(), Files.size(f));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the cache of files' splits in " + dir, e);
        }
        return cache;
    }

    private static long modified(Path f) {
        try {
            return Files.getLastModifiedTime(f).toMillis();
        } catch (IOException e) {
            return 0;
        }
    }

    public Path directory() {
        return dir;
    }

    /** The most it keeps. */
    public long maxBytes() {
        return maxBytes;
    }

    /** The bytes kept now. */
    public synchronized long bytes() {
        return bytes;
    }

    /** How many reads of a split's columns found them all kept, and how many did not. */
    public long hits() {
        return hits.sum();
    }

    public long misses() {
        return misses.sum();
    }

    /**
     * Every one of {@code keys}' columns, each held open for reading until {@link Held#close};
     * null (nothing held) when one of them is not kept.
     */
    synchronized List<Held> acquire(List<Key> keys) {
        if (closed) {
            return null;
        }
        List<Held> held = new ArrayList<>(keys.size());
        for (Key key : keys) {
            Entry e = entries.get(key.name());
            if (e != null) {
                e.users++; // before opening: closing idle entries leaves it open
            }
            ColumnarFile file = e == null ? null : e.open(key);
            if (file == null) {
                if (e != null) {
                    e.users--;
                }
                held.forEach(Held::close);
                misses.increment();
                return null;
            }
            held.add(new Held(e, file));
        }
        hits.increment();
        return held;
    }

    /**
     * Drops {@code keys}' entries, as one of them could not be read (its file damaged or gone):
     * they are read from the files again.
     */
    synchronized void discard(List<Key> keys) {
        for (Key key : keys) {
            Entry e = entries.remove(key.name());
            if (e != null) {
                drop(e);
            }
        }
    }

    /**
     * A writer keeping {@code key}'s column as a read of its split goes on; null when it is kept
     * already, or another read is keeping it.
     */
    Writer write(Key key) {
        String name = key.name();
        synchronized (this) {
            if (closed || entries.containsKey(name) || !writing.add(name)) {
                return null;
            }
        }
        // a name of its own: what a writer given up on leaves is no other writer's
        Path partial = dir.resolve(name + "." + java.util.UUID.randomUUID() + PARTIAL);
        try {
            return new Writer(key, name, partial, new ColumnarWriter(partial, key.schema()));
        } catch (RuntimeException e) {
            writing.remove(name);
            deletePartial(partial);
            LOG.warn("cannot keep a column of {} in {}: {}", key.path(), dir, e.getMessage());
            return null;
        }
    }

    private static void deletePartial(Path partial) {
        try {
            Files.deleteIfExists(partial);
        } catch (IOException e) {
            LOG.warn("cannot remove {}: {}", partial, e.getMessage());
        }
    }

    /** Keeps the file written for {@code name}, the least recently read going until all fit. */
    private void publish(String name, Path partial, long size) throws IOException {
        synchronized (this) {
            if (closed || size > maxBytes) {
                Files.deleteIfExists(partial);
                return;
            }
            Files.move(partial, dir.resolve(name), StandardCopyOption.ATOMIC_MOVE);
            add(name, size);
        }
    }

    /** Guarded by this. */
    private void add(String name, long size) {
        Iterator<Map.Entry<String, Entry>> eldest = entries.entrySet().iterator();
        while (bytes + size > maxBytes && eldest.hasNext()) {
            Entry e = eldest.next().getValue();
            eldest.remove();
            drop(e);
        }
        entries.put(name, new Entry(dir.resolve(name), size));
        bytes += size;
    }

    /** Guarded by this: {@code e}, out of the map, deleted, and closed once no read holds it. */
    private void drop(Entry e) {
        bytes -= e.size;
        e.dropped = true;
        try {
            Files.deleteIfExists(e.path); // a read under way keeps its mapping: the file lives on till it ends
        } catch (IOException ex) {
            LOG.warn("cannot remove {}: {}", e.path, ex.getMessage());
        }
        if (e.users == 0) {
            e.close();
        }
    }

    /** Guarded by this: closes the least recently read entries no read holds until few enough are open. */
    private void closeIdle() {
        for (Iterator<Entry> it = entries.values().iterator(); it.hasNext() && open > maxOpen; ) {
            Entry e = it.next();
            if (e.users == 0) {
                e.close();
            }
        }
    }

    /** How many entries are open now. */
    synchronized int openEntries() {
        return open;
    }

    private synchronized void release(Entry e) {
        if (--e.users == 0 && (e.dropped || closed)) {
            e.close();
        }
    }

    /** Closes the entries no read holds; those held close as their reads end. */
    @Override
    public synchronized void close() {
        closed = true;
        for (Entry e : entries.values()) {
            if (e.users == 0) {
                e.close();
            }
        }
    }

    /** A kept column: its file, opened on first read. All its fields guarded by the cache. */
    private final class Entry {
        final Path path;
        final long size;
        ColumnarFile file;
        int users;
        boolean dropped;

        Entry(Path path, long size) {
            this.path = path;
            this.size = size;
        }

        /** The file, opened now if it was not; null (and the entry dropped) when it cannot be. */
        ColumnarFile open(Key key) {
            if (file == null) {
                try {
                    file = ColumnarFile.open(path, key.schema(), stats);
                } catch (DataCorruptedException e) {
                    LOG.warn("dropping {} from the cache of files' splits: {}", path, e.getMessage());
                    entries.remove(key.name());
                    drop(this);
                    return null;
                } catch (StorageException e) { // no descriptor or mapping to spare now: read the file this time
                    LOG.warn("cannot open {} of the cache of files' splits: {}", path, e.getMessage());
                    return null;
                }
                if (++open > maxOpen) {
                    closeIdle();
                }
            }
            return file;
        }

        void close() {
            if (file != null) {
                try {
                    file.close();
                } catch (StorageException e) {
                    LOG.warn("{}", e.getMessage());
                }
                file = null;
                open--;
            }
        }
    }

    /** A kept column held open for reading. */
    final class Held implements AutoCloseable {
        private final Entry entry;
        private final ColumnarFile file;

        private Held(Entry entry, ColumnarFile file) {
            this.entry = entry;
            this.file = file;
        }

        ColumnarFile file() {
            return file;
        }

        @Override
        public void close() {
            release(entry);
        }
    }

    /** A column of a split being kept, a batch of the split's rows at a time, in the order the split holds them. */
    final class Writer {
        private final Key key;
        private final String name;
        private final Path partial;
        private final List<DataType> types;
        private ColumnarWriter out;
        /** The bytes written, counted in {@link #writingBytes}. */
        private long counted;
        /** Set once published or abandoned: each happens once. */
        private boolean done;

        private Writer(Key key, String name, Path partial, ColumnarWriter out) {
            this.key = key;
            this.name = name;
            this.partial = partial;
            this.types = List.of(key.type());
            this.out = out;
        }

        /**
         * Adds the rows of {@code batch}'s column; a failure to write (a full disk) abandons this
         * entry, not the read.
         */
        void add(Batch batch) {
            if (done || out == null) {
                return;
            }
            Vector values = batch.column(key.column());
            try {
                for (Object[] row : StoredVectors.rows(new Batch(new Vector[] {values}, batch.positions(), batch.size()),
                        types, 1)) {
                    out.add(row);
                }
            } catch (RuntimeException e) {
                LOG.warn("cannot keep a column of {} in {}: {}", key.path(), dir, e.getMessage());
                abandon();
                return;
            }
            long written = out.bytesWritten();
            if (writingBytes.addAndGet(written - counted) > maxBytes) {
                // the columns being written would not fit beside each other (a compressed text file read whole)
                abandon();
                return;
            }
            counted = written;
        }

        /** The split was read whole: keeps what was written. */
        void publish() {
            if (done || out == null) {
                abandon();
                return;
            }
            try {
                long size = out.finish();
                out.close();
                out = null;
                SplitCache.this.publish(name, partial, size);
                finished();
            } catch (IOException | RuntimeException e) {
                LOG.warn("cannot keep a column of {} in {}: {}", key.path(), dir, e.getMessage());
                abandon();
            }
        }

        /** The read stopped, failed or changed before the split's end: nothing is kept. Once only. */
        void abandon() {
            if (done) {
                return;
            }
            try {
                if (out != null) {
                    out.close();
                }
            } catch (RuntimeException e) {
                LOG.warn("cannot close {}: {}", partial, e.getMessage());
            } finally {
                out = null;
                deletePartial(partial);
                finished();
            }
        }

        private void finished() {
            done = true;
            writingBytes.addAndGet(-counted);
            counted = 0;
            writing.remove(name);
        }
    }
}
