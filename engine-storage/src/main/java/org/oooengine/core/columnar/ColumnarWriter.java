package org.oooengine.core.columnar;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32C;
import org.oooengine.core.storage.Directories;
import org.oooengine.core.types.Schema;
import org.oooengine.core.types.TypeKind;

/**
 * Writes a table partition's columnar copy ({@link ColumnFormat}) from rows in their stored form
 * (scaled longs, epoch days), in the order they are added: the clustered tree's key order.
 */
public final class ColumnarWriter implements AutoCloseable {
    private final Path path;
    private final TypeKind[] kinds;
    /** Per column, whether it is a wide decimal, written as text ({@link ColumnFormat#layout}). */
    private final boolean[] wide;
    private final FileChannel out;
    private final List<Object[]> pending = new ArrayList<>(ColumnFormat.GROUP_ROWS);
    private final ByteBuffer footer;
    private final List<byte[]> footerParts = new ArrayList<>();
    private long offset;
    private int groups;
    /** Per column, the least and greatest stored value seen (integer-stored columns with a value only). */
    private final long[] mins;
    private final long[] maxs;

    public ColumnarWriter(Path path, Schema schema) {
        this.path = path;
        this.kinds = new TypeKind[schema.size()];
        this.wide = new boolean[kinds.length];
        for (int c = 0; c < kinds.length; c++) {
            kinds[c] = ColumnFormat.layout(schema.type(c));
            wide[c] = schema.type(c).isWideDecimal();
        }
        this.footer = ByteBuffer.allocate(4 + kinds.length * ColumnFormat.ENTRY_BYTES).order(ByteOrder.LITTLE_ENDIAN);
        this.mins = new long[kinds.length];
        this.maxs = new long[kinds.length];
        java.util.Arrays.fill(mins, Long.MAX_VALUE);
        java.util.Arrays.fill(maxs, Long.MIN_VALUE);
        try {
            // owner-only, as the tree's files: a copy of every row of the table
            this.out = Directories.openPrivate(path, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                    StandardOpenOption.WRITE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + path, e);
        }
        try {
            write(ByteBuffer.allocate(ColumnFormat.HEADER_BYTES).order(ByteOrder.LITTLE_ENDIAN)
                    .putInt(ColumnFormat.MAGIC).putInt(ColumnFormat.VERSION).flip());
        } catch (IOException e) {
            close();
            throw new UncheckedIOException("cannot write " + path, e);
        }
    }

    /**
     * Adds a row in stored form; the writer keeps the array until its group is written, and puts
     * the text of its wide decimals in it.
     */
    public void add(Object[] row) {
        for (int c = 0; c < wide.length; c++) {
            if (wide[c] && row[c] != null) {
                row[c] = row[c].toString();
            }
        }
        pending.add(row);
        if (pending.size() == ColumnFormat.GROUP_ROWS) {
            flushGroup();
        }
    }

    /** The bytes written to the file so far (the rows of the group being filled not yet among them). */
    public long bytesWritten() {
        return offset;
    }

    /** Writes what is pending, the footer and the trailer, and forces the file to disk; returns its size. */
    public long finish() {
        if (!pending.isEmpty()) {
            flushGroup();
        }
        int size = 8 + footerParts.stream().mapToInt(p -> p.length).sum();
        ByteBuffer f = ByteBuffer.allocate(size + 4).order(ByteOrder.LITTLE_ENDIAN).putInt(groups).putInt(kinds.length);
        footerParts.forEach(f::put);
        CRC32C crc = new CRC32C();
        crc.update(f.array(), 0, size);
        f.putInt((int) crc.getValue()).flip();
        long footerOffset = offset;
        try {
            write(f);
            write(ByteBuffer.allocate(ColumnFormat.TRAILER_BYTES).order(ByteOrder.LITTLE_ENDIAN)
                    .putLong(footerOffset).putInt(ColumnFormat.MAGIC).flip());
            out.force(true);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + path, e);
        }
        return offset;
    }

    private void flushGroup() {
        footer.clear();
        footer.putInt(pending.size());
        for (int c = 0; c < kinds.length; c++) {
            Chunk chunk = encode(c);
            CRC32C crc = new CRC32C();
            crc.update(chunk.bytes(), 0, chunk.bytes().length);
            footer.putLong(offset).putInt(chunk.bytes().length).putInt((int) crc.getValue()).put(chunk.flags())
                    .putLong(chunk.min()).putLong(chunk.max());
            try {
                write(ByteBuffer.wrap(chunk.bytes()));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write " + path, e);
            }
        }
        byte[] part = new byte[footer.position()];
        footer.flip().get(part);
        footerParts.add(part);
        groups++;
        pending.clear();
    }

    private record Chunk(byte[] bytes, byte flags, long min, long max) {
    }

    private Chunk encode(int c) {
        int n = pending.size();
        TypeKind kind = kinds[c];
        if (kind == null) {
            return new Chunk(new byte[0], (byte) 0, 0, 0);
        }
        boolean nulls = false;
        for (Object[] row : pending) {
            nulls |= row[c] == null;
        }
        byte flags = nulls ? ColumnFormat.HAS_NULLS : 0;
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        int width = ColumnFormat.width(kind);
        byte[][] strings = width == 0 ? utf8(c) : null;
        Map<String, Integer> dictionary = width == 0 ? dictionary(c) : null;
        int size = (nulls ? n : 0) + (width > 0 ? n * width : stringBytes(strings, dictionary, c));
        ByteBuffer b = ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
        if (nulls) {
            for (Object[] row : pending) {
                b.put((byte) (row[c] == null ? 1 : 0));
            }
        }
        if (width == 0) {
            if (dictionary != null) {
                flags |= ColumnFormat.DICTIONARY;
                b.putInt(dictionary.size());
                for (String s : dictionary.keySet()) {
                    byte[] u = s.getBytes(StandardCharsets.UTF_8);
                    b.putInt(u.length).put(u);
                }
                for (Object[] row : pending) {
                    b.put((byte) (row[c] == null ? 0 : dictionary.get((String) row[c])));
                }
            } else {
                for (byte[] s : strings) {
                    b.putInt(s.length);
                }
                for (byte[] s : strings) {
                    b.put(s);
                }
            }
            return new Chunk(b.array(), flags, 0, 0);
        }
        for (Object[] row : pending) {
            Object v = row[c];
            long x = v == null ? 0 : kind == TypeKind.DOUBLE ? Double.doubleToLongBits((Double) v)
                    : kind == TypeKind.BOOLEAN ? ((Boolean) v ? 1 : 0) : ((Number) v).longValue();
            switch (width) {
                case 1 -> b.put((byte) x);
                case 4 -> b.putInt((int) x);
                default -> b.putLong(x);
            }
            if (v != null && ColumnFormat.integral(kind)) {
                min = Math.min(min, x);
                max = Math.max(max, x);
            }
        }
        if (ColumnFormat.integral(kind) && min <= max) {
            flags |= ColumnFormat.HAS_MIN_MAX;
            mins[c] = Math.min(mins[c], min);
            maxs[c] = Math.max(maxs[c], max);
        }
        return new Chunk(b.array(), flags, min, max);
    }

    /** The least and greatest stored value of column {@code c} so far, or null when it is not stored as integers or had none. */
    public long[] range(int c) {
        return mins[c] <= maxs[c] ? new long[] {mins[c], maxs[c]} : null;
    }

    private byte[][] utf8(int c) {
        byte[][] s = new byte[pending.size()][];
        for (int i = 0; i < s.length; i++) {
            Object v = pending.get(i)[c];
            s[i] = v == null ? new byte[0] : ((String) v).getBytes(StandardCharsets.UTF_8);
        }
        return s;
    }

    /** The chunk's distinct values numbered in order of appearance, or null when there are too many. */
    private Map<String, Integer> dictionary(int c) {
        Map<String, Integer> codes = new LinkedHashMap<>();
        for (Object[] row : pending) {
            if (row[c] != null && !codes.containsKey((String) row[c])) {
                if (codes.size() == ColumnFormat.MAX_DICTIONARY) {
                    return null;
                }
                codes.put((String) row[c], codes.size());
            }
        }
        return codes;
    }

    private int stringBytes(byte[][] strings, Map<String, Integer> dictionary, int c) {
        if (dictionary != null) {
            int bytes = 4 + pending.size();
            for (String s : dictionary.keySet()) {
                bytes += 4 + s.getBytes(StandardCharsets.UTF_8).length;
            }
            return bytes;
        }
        int bytes = 4 * strings.length;
        for (byte[] s : strings) {
            bytes += s.length;
        }
        return bytes;
    }

    private void write(ByteBuffer b) throws IOException {
        while (b.hasRemaining()) {
            offset += out.write(b);
        }
    }

    @Override
    public void close() {
        try {
            out.close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot close " + path, e);
        }
    }
}
