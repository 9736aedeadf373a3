package org.oooengine.cluster.bench.micro;

import io.airlift.compress.lz4.Lz4Compressor;
import io.airlift.compress.lz4.Lz4Decompressor;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.vector.Batch;
import org.oooengine.core.vector.Vector;
import org.oooengine.core.wire.ColumnarRows;
import org.oooengine.core.vector.GatheredRows;
import org.oooengine.core.wire.PayloadReader;
import org.oooengine.core.wire.PayloadWriter;
import org.oooengine.core.wire.ValueCodec;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * A shuffle's chunk of 1,024 rows written and read in the row format (a tag before every value,
 * {@link ValueCodec}) and column by column ({@link ColumnarRows}), in two shapes: the partial
 * groups TPC-H Q18 shuffles (an order's key, its customer's key and name, date, price and a
 * decimal sum) and lineitem rows as a scan ships them (keys, decimals, flags, dates, a comment).
 * The bytes of a chunk are printed once per fork, and what LZ4 makes of them (as members compress
 * the frames they send with {@code ooo cluster start --wire-compression lz4}): the compressed bytes,
 * and the time to compress and decompress a chunk. Run with {@code ./ooo bench micro --filter Wire}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(3)
public class WireBenchmarks {
    static final int ROWS = 1024;

    @Param({"groups", "lineitem"})
    String shape;

    @Param({"rows", "columns"})
    String format;

    private static final SqlType[] GROUP_TYPES = {SqlType.BIGINT, SqlType.STRING, SqlType.BIGINT, SqlType.DATE,
        SqlType.decimal(15, 2), SqlType.decimal(15, 2)};
    private static final SqlType[] LINEITEM_TYPES = {SqlType.BIGINT, SqlType.BIGINT, SqlType.BIGINT, SqlType.BIGINT,
        SqlType.decimal(15, 2), SqlType.decimal(15, 2), SqlType.decimal(15, 2), SqlType.decimal(15, 2),
        SqlType.STRING, SqlType.STRING, SqlType.DATE, SqlType.DATE, SqlType.DATE, SqlType.STRING, SqlType.STRING};

    private List<Object[]> chunk;
    private SqlType[] types;
    private Batch batch;
    private byte[] encoded;
    private final Lz4Compressor compressor = new Lz4Compressor();
    private final Lz4Decompressor decompressor = new Lz4Decompressor();
    /** Room for the compressor's output, and what it made of the chunk, which decompressLz4 reads. */
    private byte[] compressBuffer;
    private byte[] compressed;
    private byte[] decompressed;

    @Setup(Level.Trial)
    public void setUp() {
        chunk = shape.equals("groups") ? partialGroups() : lineitems();
        types = shape.equals("groups") ? GROUP_TYPES : LINEITEM_TYPES;
        batch = asBatch(chunk, types);
        encoded = encode();
        compressBuffer = new byte[compressor.maxCompressedLength(encoded.length)];
        int n = compressLz4();
        compressed = java.util.Arrays.copyOf(compressBuffer, n);
        decompressed = new byte[encoded.length];
        System.out.printf("%n%s in %s: %,d bytes a chunk of %,d rows, %,d with LZ4%n", shape, format, encoded.length, ROWS, n);
    }

    /** The chunk's bytes LZ4-compressed, as a member compresses a frame's payload. */
    @Benchmark
    public int compressLz4() {
        return compressor.compress(encoded, 0, encoded.length, compressBuffer, 0, compressBuffer.length);
    }

    @Benchmark
    public int decompressLz4() {
        return decompressor.decompress(compressed, 0, compressed.length, decompressed, 0, decompressed.length);
    }

    @Benchmark
    public byte[] encode() {
        PayloadWriter w = new PayloadWriter(ROWS * 64);
        if (format.equals("rows")) {
            w.putVarInt(chunk.size());
            chunk.forEach(row -> ValueCodec.writeRow(w, row));
        } else {
            ColumnarRows.write(w, chunk);
        }
        return w.toByteArray();
    }

    /**
     * A batch of vectors to a chunk: the rows boxed then written ({@code rows}: tagged, {@code
     * columns}: column by column), or {@code columns} gathered from the vectors unboxed.
     */
    @Benchmark
    public byte[] encodeBatch() {
        PayloadWriter w = new PayloadWriter(ROWS * 64);
        if (format.equals("rows")) {
            List<Object[]> rows = batch.toRows(types);
            w.putVarInt(rows.size());
            rows.forEach(row -> ValueCodec.writeRow(w, row));
        } else {
            GatheredRows gathered = new GatheredRows(batch, types, ROWS);
            gathered.add(batch, batch.positions(), batch.size());
            gathered.write(w);
        }
        return w.toByteArray();
    }

    @Benchmark
    public List<Object[]> decode() {
        PayloadReader r = new PayloadReader(encoded);
        if (format.equals("columns")) {
            return ColumnarRows.read(r);
        }
        int n = r.getVarInt();
        List<Object[]> rows = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            rows.add(ValueCodec.readRow(r));
        }
        return rows;
    }

    /** The rows as a batch of the vectors their types are held in. */
    private static Batch asBatch(List<Object[]> rows, SqlType[] types) {
        Vector[] columns = new Vector[types.length];
        for (int c = 0; c < types.length; c++) {
            columns[c] = Vector.allocate(types[c], rows.size());
            for (int i = 0; i < rows.size(); i++) {
                columns[c].setBoxed(i, rows.get(i)[c], types[c]);
            }
        }
        return Batch.of(columns, rows.size());
    }

    private static List<Object[]> partialGroups() {
        Random random = new Random(18);
        List<Object[]> rows = new ArrayList<>(ROWS);
        for (int i = 0; i < ROWS; i++) {
            long order = random.nextInt(6_000_000);
            long customer = random.nextInt(150_000);
            rows.add(new Object[] {customer, String.format("Customer#%09d", customer), order,
                LocalDate.ofEpochDay(8036 + random.nextInt(2400)), BigDecimal.valueOf(90_000 + random.nextInt(50_000_000), 2),
                BigDecimal.valueOf(1 + random.nextInt(50), 2)});
        }
        return rows;
    }

    private static List<Object[]> lineitems() {
        Random random = new Random(1);
        String[] flags = {"A", "N", "R"};
        String[] modes = {"AIR", "FOB", "MAIL", "RAIL", "REG AIR", "SHIP", "TRUCK"};
        List<Object[]> rows = new ArrayList<>(ROWS);
        for (int i = 0; i < ROWS; i++) {
            long day = 8036 + random.nextInt(2400);
            rows.add(new Object[] {(long) random.nextInt(6_000_000), (long) random.nextInt(200_000),
                (long) random.nextInt(10_000), (long) (1 + i % 7), BigDecimal.valueOf(100 + random.nextInt(4900), 2),
                BigDecimal.valueOf(90_000 + random.nextInt(10_000_000), 2), BigDecimal.valueOf(random.nextInt(11), 2),
                BigDecimal.valueOf(random.nextInt(9), 2), flags[random.nextInt(3)], flags[1 + random.nextInt(2)],
                LocalDate.ofEpochDay(day), LocalDate.ofEpochDay(day + 30), LocalDate.ofEpochDay(day + 10),
                modes[random.nextInt(7)], "carefully final deposits " + random.nextInt(1000)});
        }
        return rows;
    }
}
