package org.oooengine.core.columnar;

import java.io.IOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32C;
import org.oooengine.core.storage.DataCorruptedException;
import org.oooengine.core.storage.IoStats;
import org.oooengine.core.storage.OpenFilesExhaustedException;
import org.oooengine.core.storage.SharedReadChannels;
import org.oooengine.core.storage.StorageException;
import org.oooengine.core.types.Schema;
import org.oooengine.core.types.TypeKind;
import org.oooengine.core.vector.BoolVector;
import org.oooengine.core.vector.DoubleVector;
import org.oooengine.core.vector.LongVector;
import org.oooengine.core.vector.ObjectVector;
import org.oooengine.core.vector.Vector;

/**
 * An opened columnar copy ({@link ColumnFormat}): its footer in memory, its chunks read on demand
 * from a read-only mapping of the file (safe from many threads) and checked against their CRC32C.
 *
 * <p>Mapped rather than read with {@code pread}: a chunk is one group of 1,024 rows of one column,
 * so a scan of TPC-H SF 1's lineitem on a node made some thousands of reads per column, each a
 * system call and two copies (page cache to a direct buffer, then to the heap), a sixth of a
 * node's CPU over the 22 queries. A mapping is made once per opened copy and decoded from in place.
 */
public final class ColumnarFile implements AutoCloseable {
    private final Path path;
    private final TypeKind[] kinds;
    /** Shared with every other opener of the same file in this process ({@link SharedReadChannels}). */
    private final SharedReadChannels.Lease lease;
    private final FileChannel channel;
    private final IoStats stats;
    private final int groups;
    /** Per column, the scale of a wide decimal (its chunks hold the unscaled values as text); -1 for the others. */
    private final int[] wideScales;
    private final int[] groupRows;
    private final long[] offsets;
    private final int[] lengths;
    private final int[] crcs;
    private final byte[] flags;
    private final long[] mins;
    private final long[] maxs;
    /**
     * The file's chunks mapped in regions of at most {@link #REGION_BYTES}, none cut by a region's
     * end: one mapping for every opener of the file ({@link SharedReadChannels.Lease#attached}).
     */
    private final MappedRegions regions;
    /** Per chunk entry, the region holding it. */
    private final int[] regionOf;

    /** Where one mapping ends: a {@link ByteBuffer} indexes with an int. */
    static final long REGION_BYTES = 1L << 30;

    private ColumnarFile(Path path, Schema schema, SharedReadChannels.Lease lease, IoStats stats) throws IOException {
        this.path = path;
        this.stats = stats;
        this.lease = lease;
        this.channel = lease.channel();
        this.kinds = new TypeKind[schema.size()];
        for (int c = 0; c < kinds.length; c++) {
            kinds[c] = ColumnFormat.layout(schema.type(c));
        }
        this.wideScales = new int[kinds.length];
        for (int c = 0; c < kinds.length; c++) {
            wideScales[c] = schema.type(c).isWideDecimal() ? schema.type(c).scale() : -1;
        }
        long size = channel.size();
        if (size < ColumnFormat.HEADER_BYTES + ColumnFormat.TRAILER_BYTES) {
            throw corrupt(0, "file of " + size + " bytes is shorter than a header and trailer");
        }
        ByteBuffer header = readBytes(0, ColumnFormat.HEADER_BYTES);
        if (header.getInt() != ColumnFormat.MAGIC) {
            throw corrupt(0, "not a columnar copy (bad magic)");
        }
        int version = header.getInt();
        if (version != ColumnFormat.VERSION) {
            throw corrupt(4, "format version " + version + "; this engine reads version " + ColumnFormat.VERSION
                    + ": reload the table");
        }
        long trailerAt = size - ColumnFormat.TRAILER_BYTES;
        ByteBuffer trailer = readBytes(trailerAt, ColumnFormat.TRAILER_BYTES);
        long footerAt = trailer.getLong();
        if (trailer.getInt() != ColumnFormat.MAGIC || footerAt < ColumnFormat.HEADER_BYTES || footerAt > trailerAt - 12) {
            throw corrupt(trailerAt, "bad trailer (footer offset " + footerAt + ")");
        }
        ByteBuffer footer = readBytes(footerAt, (int) (trailerAt - footerAt));
        int bodyBytes = footer.limit() - 4;
        CRC32C crc = new CRC32C();
        crc.update(footer.array(), 0, bodyBytes);
        int stored = footer.getInt(bodyBytes);
        if (stored != (int) crc.getValue()) {
            throw corrupt(footerAt, String.format("footer checksum mismatch: expected 0x%08x (stored), actual 0x%08x",
                    stored, (int) crc.getValue()));
        }
        this.groups = footer.getInt();
        int columns = footer.getInt();
        if (columns != kinds.length || bodyBytes != 8 + (long) groups * (4 + columns * ColumnFormat.ENTRY_BYTES)) {
            throw corrupt(footerAt, "footer of " + groups + " groups of " + columns + " columns does not match a table of "
                    + kinds.length + " columns");
        }
        int entries = groups * columns;
        groupRows = new int[groups];
        offsets = new long[entries];
        lengths = new int[entries];
        crcs = new int[entries];
        flags = new byte[entries];
        mins = new long[entries];
        maxs = new long[entries];
        for (int g = 0; g < groups; g++) {
            groupRows[g] = footer.getInt();
            for (int c = 0; c < columns; c++) {
                int e = g * columns + c;
                offsets[e] = footer.getLong();
                lengths[e] = footer.getInt();
                crcs[e] = footer.getInt();
                flags[e] = footer.get();
                mins[e] = footer.getLong();
                maxs[e] = footer.getLong();
                if (offsets[e] < ColumnFormat.HEADER_BYTES || lengths[e] < 0 || offsets[e] + lengths[e] > footerAt) {
                    throw corrupt(footerAt, "the chunk of column " + c + ", group " + g + " (" + lengths[e]
                            + " bytes at offset " + offsets[e] + ") lies outside the data");
                }
            }
        }
        this.regionOf = new int[entries];
        List<long[]> spans = regions(offsets, lengths, regionOf, REGION_BYTES);
        this.regions = lease.attached(() -> MappedRegions.map(channel, spans));
    }

    /**
     * The spans {@code [start, end)} to map, in file order, each at most {@code limit} bytes unless
     * one chunk alone is longer, and each chunk's region in {@code regionOf}.
     */
    static List<long[]> regions(long[] offsets, int[] lengths, int[] regionOf, long limit) {
        List<long[]> spans = new ArrayList<>();
        long start = -1;
        long end = -1;
        Integer[] order = new Integer[offsets.length];
        for (int e = 0; e < order.length; e++) {
            order[e] = e;
        }
        Arrays.sort(order, (a, b) -> Long.compare(offsets[a], offsets[b]));
        for (int e : order) {
            long chunkEnd = offsets[e] + lengths[e];
            if (start < 0 || chunkEnd - start > limit) {
                if (start >= 0) {
                    spans.add(new long[] {start, end});
                }
                start = offsets[e];
                end = chunkEnd;
            } else {
                end = Math.max(end, chunkEnd);
            }
            regionOf[e] = spans.size();
        }
        if (start >= 0) {
            spans.add(new long[] {start, end});
        }
        return spans;
    }

    /** Opens a copy written for {@code schema}; a damaged footer or trailer is refused naming the file. */
    public static ColumnarFile open(Path path, Schema schema, IoStats stats) {
        SharedReadChannels.Lease lease = null;
        try {
            lease = SharedReadChannels.open(path, false, StandardOpenOption.READ);
            return new ColumnarFile(path, schema, lease, stats);
        } catch (IOException | RuntimeException e) {
            if (lease != null) {
                try {
                    lease.close();
                } catch (IOException suppressed) {
                    e.addSuppressed(suppressed);
                }
            }
            if (e instanceof StorageException s) {
                throw s;
            }
            if (e instanceof OpenFilesExhaustedException) {
                throw new StorageException(e.getMessage(), e);
            }
            throw new StorageException("cannot open columnar copy " + path + ": " + e.getMessage(), e);
        }
    }

    public Path path() {
        return path;
    }

    public int groups() {
        return groups;
    }

    public int rows(int group) {
        return groupRows[group];
    }

    /** Whether the chunk of {@code column} in {@code group} keeps its least and greatest stored value. */
    public boolean hasMinMax(int group, int column) {
        return (flags[group * kinds.length + column] & ColumnFormat.HAS_MIN_MAX) != 0;
    }

    public long min(int group, int column) {
        return mins[group * kinds.length + column];
    }

    public long max(int group, int column) {
        return maxs[group * kinds.length + column];
    }

    /** The bytes {@code column}'s chunk of {@code group} takes in the file. */
    public int chunkBytes(int group, int column) {
        return lengths[group * kinds.length + column];
    }

    /** Whether the copy holds {@code column}'s values: all but arrays and maps do. */
    public boolean holds(int column) {
        return kinds[column] != null;
    }

    /** The values of {@code column} in {@code group}, checked against the chunk's checksum. */
    public Vector read(int group, int column) {
        if (!holds(column)) {
            throw new IllegalArgumentException(path + " holds no values of column " + column + " (an array or a map)");
        }
        int e = group * kinds.length + column;
        if (!regions.acquire()) {
            throw new StorageException("cannot read " + path + ": closed (the store version holding it was replaced)");
        }
        Vector v;
        try {
            ByteBuffer b = regions.slice(regionOf[e], offsets[e], lengths[e]);
            stats.chunkRead(lengths[e]);
            CRC32C crc = new CRC32C();
            crc.update(b.duplicate());
            if ((int) crc.getValue() != crcs[e]) {
                throw corrupt(offsets[e], String.format("checksum mismatch in the chunk of column %d, group %d: expected "
                        + "0x%08x (stored), actual 0x%08x", column, group, crcs[e], (int) crc.getValue()));
            }
            v = decode(b, kinds[column], groupRows[group], flags[e]); // copies: nothing read keeps the mapping
        } finally {
            regions.release();
        }
        return wideScales[column] < 0 ? v : wideDecimals((ObjectVector) v, wideScales[column]);
    }

    /** A wide decimal chunk's text as SQL values (BigDecimal at the column's scale), without the text's dictionary. */
    private static Vector wideDecimals(ObjectVector text, int scale) {
        Object[] values = text.values;
        for (int i = 0; i < values.length; i++) {
            if (values[i] != null) {
                values[i] = new java.math.BigDecimal(new java.math.BigInteger((String) values[i]), scale);
            }
        }
        return new ObjectVector(values);
    }

    private static Vector decode(ByteBuffer b, TypeKind kind, int n, byte flags) {
        boolean[] nulls = null;
        if ((flags & ColumnFormat.HAS_NULLS) != 0) {
            nulls = new boolean[n];
            for (int i = 0; i < n; i++) {
                nulls[i] = b.get() != 0;
            }
        }
        switch (kind) {
            case INT, DATE -> {
                long[] v = new long[n];
                int at = values(b, 4L * n);
                for (int i = 0; i < n; i++) {
                    v[i] = b.getInt(at + 4 * i);
                }
                return new LongVector(v, nulls);
            }
            case BIGINT, DECIMAL, TIMESTAMP -> {
                long[] v = new long[n];
                b.asLongBuffer().get(v); // a copy of memory where the machine is little-endian
                values(b, 8L * n);
                return new LongVector(v, nulls);
            }
            case DOUBLE -> {
                double[] v = new double[n];
                b.asDoubleBuffer().get(v);
                values(b, 8L * n);
                return new DoubleVector(v, nulls);
            }
            case BOOLEAN -> {
                byte[] v = new byte[n];
                for (int i = 0; i < n; i++) {
                    byte x = b.get();
                    v[i] = nulls != null && nulls[i] ? BoolVector.NULL : x;
                }
                return new BoolVector(v);
            }
            default -> {
                return strings(b, n, nulls, (flags & ColumnFormat.DICTIONARY) != 0);
            }
        }
    }

    /** Where {@code bytes} of values start in {@code b}, moving past them; underflow where it holds fewer. */
    private static int values(ByteBuffer b, long bytes) {
        if (bytes > b.remaining()) {
            throw new BufferUnderflowException();
        }
        int at = b.position();
        b.position(at + (int) bytes);
        return at;
    }

    /**
     * The chunk's strings, decoded from a heap copy of its bytes (a String is made from an array);
     * a dictionary chunk's vector keeps its entries and codes.
     */
    private static ObjectVector strings(ByteBuffer mapped, int n, boolean[] nulls, boolean dictionary) {
        byte[] bytes = new byte[mapped.remaining()];
        mapped.get(bytes);
        ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        Object[] v = new Object[n];
        if (dictionary) {
            String[] entries = new String[b.getInt()];
            for (int d = 0; d < entries.length; d++) {
                int len = b.getInt();
                entries[d] = new String(bytes, b.position(), len, StandardCharsets.UTF_8);
                b.position(b.position() + len);
            }
            byte[] codes = new byte[n];
            b.get(codes);
            for (int i = 0; i < n; i++) {
                v[i] = nulls != null && nulls[i] ? null : entries[codes[i] & 0xFF];
            }
            return new ObjectVector(v, new ObjectVector.Dictionary(entries, codes, nulls != null));
        }
        int[] lengths = new int[n];
        for (int i = 0; i < n; i++) {
            lengths[i] = b.getInt();
        }
        int p = b.position();
        for (int i = 0; i < n; i++) {
            if (nulls == null || !nulls[i]) {
                v[i] = new String(bytes, p, lengths[i], StandardCharsets.UTF_8);
            }
            p += lengths[i];
        }
        return new ObjectVector(v);
    }

    private ByteBuffer readBytes(long at, int length) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(length).order(ByteOrder.LITTLE_ENDIAN);
        while (b.hasRemaining()) {
            int n = channel.read(b, at + b.position());
            if (n < 0) {
                throw corrupt(at, "ends before the " + length + " bytes expected there");
            }
        }
        return b.flip();
    }

    private DataCorruptedException corrupt(long offset, String what) {
        return new DataCorruptedException(path, "corrupt columnar copy " + path + " at offset " + offset + ": " + what);
    }

    @Override
    public void close() {
        try {
            lease.close();
        } catch (IOException e) {
            throw new StorageException("cannot close " + path + ": " + e.getMessage(), e);
        }
    }
}
