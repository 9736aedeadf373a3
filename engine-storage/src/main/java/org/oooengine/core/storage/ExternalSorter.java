package org.oooengine.core.storage;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.PriorityQueue;

/**
 * Sorts (key, value) entries by unsigned key bytes with bounded memory: runs of up to {@code
 * memoryBytes} are sorted in memory and spilled to temporary files, then merged. Used to build
 * secondary indexes and to load input that does not arrive in primary-key order.
 */
public final class ExternalSorter implements Closeable {
    public record Entry(byte[] key, byte[] value) {
    }

    private static final Comparator<Entry> ORDER = (a, b) -> Arrays.compareUnsigned(a.key, b.key);
    private static final int ENTRY_OVERHEAD = 64;

    private final Path tempDir;
    private final long memoryBytes;
    private final List<Entry> buffer = new ArrayList<>();
    private final List<Path> runs = new ArrayList<>();
    private final List<DataInputStream> open = new ArrayList<>();
    private long buffered;

    public ExternalSorter(Path tempDir, long memoryBytes) {
        this.tempDir = tempDir;
        this.memoryBytes = memoryBytes;
    }

    public void add(byte[] key, byte[] value) {
        buffer.add(new Entry(key, value));
        buffered += key.length + value.length + ENTRY_OVERHEAD;
        if (buffered >= memoryBytes) {
            spill();
        }
    }

    private void spill() {
        buffer.sort(ORDER);
        try {
            // A temporary file is created owner-only (0600), like every file of the store.
            Path run = Files.createTempFile(tempDir, "sort-run-", ".tmp");
            runs.add(run);
            try (DataOutputStream out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(run), 1 << 16))) {
                for (Entry e : buffer) {
                    out.writeInt(e.key.length);
                    out.write(e.key);
                    out.writeInt(e.value.length);
                    out.write(e.value);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot spill a sort run to " + tempDir, e);
        }
        buffer.clear();
        buffered = 0;
    }

    /** All entries in key order. Call once, after the last {@link #add}. */
    public Iterator<Entry> sorted() {
        buffer.sort(ORDER);
        if (runs.isEmpty()) {
            return buffer.iterator();
        }
        spill();
        PriorityQueue<Head> heads = new PriorityQueue<>((a, b) -> ORDER.compare(a.entry, b.entry));
        for (Path run : runs) {
            try {
                DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(run), 1 << 16));
                open.add(in);
                Entry first = read(in);
                if (first != null) {
                    heads.add(new Head(first, in));
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read sort run " + run, e);
            }
        }
        return new Iterator<>() {
            @Override
            public boolean hasNext() {
                return !heads.isEmpty();
            }

            @Override
            public Entry next() {
                Head h = heads.poll();
                if (h == null) {
                    throw new NoSuchElementException();
                }
                Entry out = h.entry;
                Entry more = read(h.in);
                if (more != null) {
                    heads.add(new Head(more, h.in));
                }
                return out;
            }
        };
    }

    private record Head(Entry entry, DataInputStream in) {
    }

    private static Entry read(DataInputStream in) {
        try {
            int kl;
            try {
                kl = in.readInt();
            } catch (EOFException eof) {
                return null;
            }
            byte[] k = in.readNBytes(kl);
            byte[] v = in.readNBytes(in.readInt());
            return new Entry(k, v);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read a sort run", e);
        }
    }

    @Override
    public void close() {
        for (DataInputStream in : open) {
            try {
                in.close();
            } catch (IOException ignored) {
                // best effort: the run files are deleted below either way
            }
        }
        for (Path run : runs) {
            try {
                Files.deleteIfExists(run);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot delete sort run " + run, e);
            }
        }
    }
}
