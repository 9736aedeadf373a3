package org.oooengine.core.fragment;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import java.util.zip.CRC32C;
import org.oooengine.core.wire.ColumnarRows;
import org.oooengine.core.wire.PayloadReader;
import org.oooengine.core.wire.PayloadWriter;
import org.oooengine.core.storage.DataCorruptedException;

/**
 * Rows an operator moved out of memory: a private file of blocks, each {@code length (int) |
 * CRC32C (int) | a chunk as the wire sends it}: rows with their values tagged, or where they
 * came as a chunk of columns, its columns ({@link ColumnarRows}), read back as such. Read back
 * once in the order written and deleted on close. A damaged block is refused naming the file and offset.
 */
final class SpillFile implements AutoCloseable {
    private final Path path;
    /** Whose spill limits its writes are held to; null: none (tests). */
    private final QueryMemory owner;
    private final String operator;
    private DataOutputStream out;
    private long bytes;
    /** Bytes of disk taken of the owner's limits and not yet given back. */
    private long taken;
    /** The reader {@link #blocks} opened, closed with the file. */
    private Blocks reading;
    /** What {@link #blockAt} reads through, opened on its first call and closed with the file. */
    private java.nio.channels.FileChannel random;

    SpillFile(Path dir) {
        this(dir, null, "");
    }

    /** A spill file of {@code operator}, its writes held to {@code owner}'s spill limits. */
    SpillFile(Path dir, QueryMemory owner, String operator) {
        this.owner = owner;
        this.operator = operator;
        try {
            this.path = Files.createTempFile(dir, "spill-", ".rows"); // owner-only where permissions are POSIX
        } catch (IOException e) {
            throw new UncheckedIOException("cannot spill to " + dir, e);
        }
        try {
            this.out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(path), 1 << 16));
        } catch (IOException e) {
            delete();
            throw new UncheckedIOException("cannot spill to " + path, e);
        }
    }

    /** Appends rows as one block; returns the bytes written. */
    long append(List<Object[]> rows) {
        if (rows.isEmpty()) {
            return 0;
        }
        PayloadWriter w = new PayloadWriter(64 * rows.size());
        ColumnarRows.ChunkRows ofChunk = ColumnarRows.chunkOf(rows);
        if (ofChunk != null) { // columns stay columns, read back as such
            ColumnarRows.write(w, ofChunk);
        } else {
            ColumnarRows.writeRows(w, rows);
        }
        byte[] payload = w.toByteArray();
        CRC32C crc = new CRC32C();
        crc.update(payload, 0, payload.length);
        if (owner != null) { // before writing: a write past a cap never reaches the disk
            owner.takeDisk(operator, 8L + payload.length);
            taken += 8L + payload.length;
        }
        try {
            out.writeInt(payload.length);
            out.writeInt((int) crc.getValue());
            out.write(payload);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + path, e);
        }
        bytes += 8 + payload.length;
        if (owner != null) {
            owner.spilledRows(rows.size());
        }
        return 8 + payload.length;
    }

    long bytes() {
        return bytes;
    }

    /** Reads every block back in order, handing each to {@code blocks}. */
    void readAll(Consumer<List<Object[]>> blocks) {
        try (Blocks in = blocks()) {
            while (in.hasNext()) {
                blocks.accept(in.next());
            }
        }
    }

    /**
     * The blocks in the order written, read as asked for (a merge reads several files a block at
     * a time); no more rows may be appended.
     */
    Blocks blocks() {
        try {
            if (out != null) {
                out.close();
                out = null;
            }
            reading = new Blocks(Files.size(path),
                    new DataInputStream(new BufferedInputStream(Files.newInputStream(path), 1 << 16)));
            return reading;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + path, e);
        }
    }

    /**
     * The block that starts {@code offset} bytes into the file (an offset {@link #append}'s sums
     * give), read on its own and checked against its checksum: for an operator that reads its rows
     * back out of order (a window over a partition that did not fit). No more rows may be appended.
     */
    List<Object[]> blockAt(long offset) {
        try {
            if (out != null) {
                out.close();
                out = null;
            }
            if (random == null) {
                random = java.nio.channels.FileChannel.open(path, java.nio.file.StandardOpenOption.READ);
            }
            java.nio.ByteBuffer header = java.nio.ByteBuffer.allocate(8);
            readFully(header, offset);
            header.flip();
            int length = header.getInt();
            int stored = header.getInt();
            if (length < 0 || length > bytes - offset - 8) {
                throw corrupt(offset, "a block of " + length + " bytes where " + (bytes - offset - 8) + " remain");
            }
            java.nio.ByteBuffer payload = java.nio.ByteBuffer.allocate(length);
            readFully(payload, offset + 8);
            CRC32C crc = new CRC32C();
            crc.update(payload.array(), 0, length);
            if ((int) crc.getValue() != stored) {
                throw corrupt(offset, String.format("checksum mismatch: expected 0x%08x (stored), actual 0x%08x",
                        stored, (int) crc.getValue()));
            }
            return ColumnarRows.readKeepingColumns(new PayloadReader(payload.array()));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + path, e);
        }
    }

    private void readFully(java.nio.ByteBuffer into, long at) throws IOException {
        long position = at;
        while (into.hasRemaining()) {
            int n = random.read(into, position);
            if (n < 0) {
                throw corrupt(at, "the file ends " + (position - at) + " bytes into a read of " + into.capacity());
            }
            position += n;
        }
    }

    /** A spill file's blocks, each checked against its checksum as it is read. */
    final class Blocks implements java.util.Iterator<List<Object[]>>, AutoCloseable {
        private final long size;
        private final DataInputStream in;
        private long offset;

        private Blocks(long size, DataInputStream in) {
            this.size = size;
            this.in = in;
        }

        @Override
        public boolean hasNext() {
            return offset < size;
        }

        @Override
        public List<Object[]> next() {
            if (!hasNext()) {
                throw new java.util.NoSuchElementException();
            }
            try {
                if (size - offset < 8) {
                    throw corrupt(offset, "a block header cut short");
                }
                int length = in.readInt();
                int stored = in.readInt();
                if (length < 0 || length > size - offset - 8) {
                    throw corrupt(offset, "a block of " + length + " bytes where " + (size - offset - 8) + " remain");
                }
                byte[] payload = new byte[length];
                in.readFully(payload);
                CRC32C crc = new CRC32C();
                crc.update(payload, 0, length);
                if ((int) crc.getValue() != stored) {
                    throw corrupt(offset, String.format("checksum mismatch: expected 0x%08x (stored), actual 0x%08x",
                            stored, (int) crc.getValue()));
                }
                List<Object[]> rows = ColumnarRows.readKeepingColumns(new PayloadReader(payload));
                offset += 8 + length;
                return rows;
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + path, e);
            }
        }

        @Override
        public void close() {
            try {
                in.close();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot close " + path, e);
            }
        }
    }

    private DataCorruptedException corrupt(long offset, String what) {
        return new DataCorruptedException(path, "corrupt spill file " + path + " at offset " + offset + ": " + what);
    }

    /** Closes and deletes the file, also when closing fails. */
    @Override
    public void close() {
        try {
            if (reading != null) {
                reading.close();
                reading = null;
            }
            if (random != null) {
                random.close();
                random = null;
            }
            if (out != null) {
                out.close();
                out = null;
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot close " + path, e);
        } finally {
            delete();
            if (owner != null && taken > 0) {
                owner.giveDisk(taken);
                taken = 0;
            }
        }
    }

    private void delete() {
        try {
            Files.deleteIfExists(path);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + path, e);
        }
    }
}
