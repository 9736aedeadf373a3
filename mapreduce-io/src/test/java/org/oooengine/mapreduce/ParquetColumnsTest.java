package org.oooengine.mapreduce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.oooengine.core.types.DataType;
import org.oooengine.core.vector.StoredVectors;

/**
 * Parquet files as Parquet's own writer makes them — both page versions, dictionary pages that
 * give way to plain ones, the delta encodings of version 2, nulls — read back column by column
 * into the engine's stored values, exactly as written.
 */
class ParquetColumnsTest {
    private static final int ROWS = 5_000;
    private static final MessageType SCHEMA = MessageTypeParser.parseMessageType("""
            message t {
              required int32 id;
              optional int64 big;
              optional double d;
              optional float f;
              optional boolean b;
              optional binary s (STRING);
              optional int32 day (DATE);
              optional int64 price (DECIMAL(12,2));
              optional fixed_len_byte_array(16) wide (DECIMAL(30,4));
              optional int32 small (DECIMAL(7,2));
              optional int64 ts (TIMESTAMP(MICROS,false));
              optional int96 t96;
              optional binary unique (STRING);
            }""");
    static final List<String> NAMES = List.of("id", "big", "d", "f", "b", "s", "day", "price", "wide", "small",
            "ts", "t96", "unique", "absent");
    static final List<DataType> TYPES = List.of(DataType.INT, DataType.BIGINT, DataType.DOUBLE, DataType.DOUBLE,
            DataType.BOOLEAN, DataType.varchar(0), DataType.DATE, DataType.decimal(12, 2), DataType.decimal(30, 4),
            DataType.decimal(7, 3), DataType.TIMESTAMP, DataType.TIMESTAMP, DataType.varchar(0), DataType.BIGINT);

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(ParquetProperties.WriterVersion.class)
    void readsWhatParquetsWriterWrote(ParquetProperties.WriterVersion version) throws Exception {
        org.apache.hadoop.fs.Path file = write(version);
        List<Object[]> rows = read(file, all());
        assertEquals(ROWS, rows.size());
        for (int i = 0; i < ROWS; i++) {
            assertEquals(Arrays.asList(expected(i)), Arrays.asList(rows.get(i)), "row " + i + " (" + version + ")");
        }
    }

    /** Pages of each codec a writer may choose decode alike (Snappy, the default, in the test above). */
    @ParameterizedTest
    @MethodSource("versionsAndCodecs")
    void readsPagesOfEveryCodec(ParquetProperties.WriterVersion version, CompressionCodecName codec) throws Exception {
        org.apache.hadoop.fs.Path file = write(version, codec);
        List<Object[]> rows = read(file, all());
        assertEquals(ROWS, rows.size());
        for (int i = 0; i < ROWS; i++) {
            assertEquals(Arrays.asList(expected(i)), Arrays.asList(rows.get(i)), "row " + i + " (" + version + ", " + codec + ")");
        }
    }

    static Stream<Arguments> versionsAndCodecs() {
        return Stream.of(ParquetProperties.WriterVersion.values()).flatMap(v -> Stream.of(
                CompressionCodecName.UNCOMPRESSED, CompressionCodecName.GZIP, CompressionCodecName.ZSTD,
                CompressionCodecName.LZ4_RAW).map(c -> Arguments.of(v, c)));
    }

    @ParameterizedTest
    @EnumSource(ParquetProperties.WriterVersion.class)
    void decodesOnlyTheColumnsWanted(ParquetProperties.WriterVersion version) throws Exception {
        org.apache.hadoop.fs.Path file = write(version);
        boolean[] wanted = new boolean[NAMES.size()];
        wanted[5] = true;
        wanted[7] = true;
        List<Object[]> rows = read(file, wanted);
        for (int i = 0; i < ROWS; i += 97) {
            Object[] want = new Object[NAMES.size()];
            want[5] = expected(i)[5];
            want[7] = expected(i)[7];
            assertEquals(Arrays.asList(want), Arrays.asList(rows.get(i)), "row " + i);
        }
    }

    @ParameterizedTest
    @EnumSource(ParquetProperties.WriterVersion.class)
    void skipsTheRowGroupsTheirStatisticsExclude(ParquetProperties.WriterVersion version) throws Exception {
        org.apache.hadoop.fs.Path file = write(version);
        List<Object[]> rows = new ArrayList<>();
        int[] groupsAsked = {0};
        new ParquetColumns(file, NAMES, TYPES, all()).read(new Configuration(), 0, Long.MAX_VALUE / 2, ranges -> {
            groupsAsked[0]++;
            assertTrue(ranges.has(0) && ranges.has(7) && !ranges.has(5) && !ranges.has(13), "ids and prices have ranges");
            return ranges.max(0) < 2_500; // as a filter id >= 2500 excludes them
        }, batch -> {
            rows.addAll(StoredVectors.rows(batch, TYPES, NAMES.size()));
            return true;
        });
        assertTrue(groupsAsked[0] > 2, "row groups: " + groupsAsked[0]);
        assertTrue(rows.size() < ROWS && rows.size() >= ROWS - 2_500, rows.size() + " rows read");
        int first = (Integer) rows.get(0)[0];
        assertTrue(first <= 2_500, "first id read: " + first);
        for (int k = 0; k < rows.size(); k++) {
            assertEquals(Arrays.asList(expected(first + k)), Arrays.asList(rows.get(k)), "row " + (first + k));
        }
    }

    /**
     * Splits that tile the file, however they cut it, read every row group once between them; the
     * file's footer is read once and kept for the splits after the first.
     */
    @ParameterizedTest
    @EnumSource(ParquetProperties.WriterVersion.class)
    void splitsReadEachRowGroupOnceFromOneFooter(ParquetProperties.WriterVersion version) throws Exception {
        org.apache.hadoop.fs.Path file = write(version);
        Configuration conf = new Configuration();
        org.apache.hadoop.fs.FileStatus status = file.getFileSystem(conf).getFileStatus(file);
        org.apache.parquet.ParquetReadOptions options = org.apache.parquet.HadoopReadOptions.builder(conf, file).build();
        var footer = ParquetFooters.of(status, conf, options);
        assertTrue(footer.getBlocks().size() > 3, "row groups: " + footer.getBlocks().size());
        for (long splitBytes : new long[] {1_000, 7_919, status.getLen() / 3, status.getLen()}) {
            List<Object[]> rows = new ArrayList<>();
            for (long start = 0; start < status.getLen(); start += splitBytes) {
                new ParquetColumns(file, NAMES, TYPES, all()).read(conf, start, Math.min(splitBytes, status.getLen() - start),
                        ranges -> false, batch -> {
                            rows.addAll(StoredVectors.rows(batch, TYPES, NAMES.size()));
                            return true;
                        });
            }
            assertEquals(ROWS, rows.size(), "splits of " + splitBytes + " bytes");
            for (int i = 0; i < ROWS; i += 101) {
                assertEquals(Arrays.asList(expected(i)), Arrays.asList(rows.get(i)), "row " + i);
            }
        }
        assertTrue(footer == ParquetFooters.of(status, conf, options), "the footer kept");
    }

    @ParameterizedTest
    @EnumSource(ParquetProperties.WriterVersion.class)
    void refusesATypeTheTableCannotHold(ParquetProperties.WriterVersion version) throws Exception {
        org.apache.hadoop.fs.Path file = write(version);
        List<DataType> types = new ArrayList<>(TYPES);
        types.set(5, DataType.BIGINT); // a string column read as a number
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> new ParquetColumns(file, NAMES, types,
                all()).read(new Configuration(), 0, Long.MAX_VALUE / 2, ranges -> false, batch -> true));
        assertTrue(e.getMessage().contains("column s is Parquet") && e.getMessage().contains(file.toString()), e.getMessage());
    }

    @ParameterizedTest
    @EnumSource(ParquetProperties.WriterVersion.class)
    void aCorruptPageFailsNamingTheFile(ParquetProperties.WriterVersion version) throws Exception {
        org.apache.hadoop.fs.Path file = write(version);
        Path local = Path.of(file.toUri());
        byte[] bytes = Files.readAllBytes(local);
        Arrays.fill(bytes, bytes.length / 3, bytes.length / 3 + 64, (byte) 0x7F);
        Files.write(local, bytes);
        Files.deleteIfExists(local.resolveSibling("." + local.getFileName() + ".crc")); // Hadoop's own checksum
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> read(file, all()));
        assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
    }

    /**
     * Keys scattered over every row group, so that each group's range spans nearly all of them:
     * only the bloom filters tell the one group that holds a key (an integer, or its string), and
     * that none holds a missing one.
     */
    @org.junit.jupiter.api.Test
    void skipsTheRowGroupsWhoseBloomFiltersLackTheValue() throws Exception {
        MessageType schema = MessageTypeParser.parseMessageType(
                "message t { required int64 k; required int32 n; required binary s (STRING); }");
        org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path(dir.resolve("bloom.parquet").toUri());
        SimpleGroupFactory groups = new SimpleGroupFactory(schema);
        try (ParquetWriter<Group> writer = ExampleParquetWriter.builder(file).withType(schema).withConf(new Configuration())
                .withRowGroupSize(16 * 1024L).withPageSize(4 * 1024).withDictionaryEncoding(false)
                .withBloomFilterEnabled("k", true).withBloomFilterEnabled("s", true).build()) {
            for (int i = 0; i < 20_000; i++) {
                long k = (i * 7_919L) % 20_011;
                writer.write(groups.newGroup().append("k", k).append("n", i).append("s", "key-" + k));
            }
        }
        List<String> names = List.of("k", "n", "s");
        List<DataType> types = List.of(DataType.BIGINT, DataType.INT, DataType.varchar(0));
        long present = (12_345 * 7_919L) % 20_011;
        int[] asked = {0};
        List<Object[]> rows = new ArrayList<>();
        new ParquetColumns(file, names, types, new boolean[] {true, true, true}).read(new Configuration(), 0, Long.MAX_VALUE / 2,
                ranges -> {
                    asked[0]++;
                    assertTrue(ranges.mayHold(1, 12_345L), "n has no bloom filter");
                    assertEquals(ranges.mayHold(0, present), ranges.mayHold(2, "key-" + present), "k and s agree");
                    return !ranges.mayHold(0, present);
                }, batch -> {
                    rows.addAll(StoredVectors.rows(batch, types, 3));
                    return true;
                });
        assertTrue(asked[0] > 4, "row groups: " + asked[0]);
        assertTrue(rows.size() < 20_000 / 4, rows.size() + " rows read of 20,000");
        assertTrue(rows.stream().anyMatch(r -> (Long) r[0] == present && (Integer) r[1] == 12_345
                && ("key-" + present).equals(r[2])));
        int[] read = {0};
        new ParquetColumns(file, names, types, new boolean[] {true, true, true}).read(new Configuration(), 0, Long.MAX_VALUE / 2,
                ranges -> !ranges.mayHold(0, 30_001L) && !ranges.mayHold(2, "key-40003"), batch -> {
                    read[0] += batch.size();
                    return true;
                });
        assertEquals(0, read[0], "rows of groups whose filters hold neither of two missing keys");
    }

    @org.junit.jupiter.api.Test
    void aRunCutShortFailsRatherThanReadingPastItsBytes() {
        // a bit-packed group of 8 values at 3 bits needs 3 bytes; 2 are there
        byte[] data = {3, 1, 2};
        RleBitPackedHybrid rle = new RleBitPackedHybrid(data, 0, data.length, 3);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> rle.read(new int[8], 0, 8));
        assertTrue(e.getMessage().contains("ends at byte 3"), e.getMessage());
    }

    static boolean[] all() {
        boolean[] wanted = new boolean[NAMES.size()];
        Arrays.fill(wanted, true);
        return wanted;
    }

    private static List<Object[]> read(org.apache.hadoop.fs.Path file, boolean[] wanted) throws Exception {
        List<Object[]> rows = new ArrayList<>();
        new ParquetColumns(file, NAMES, TYPES, wanted).read(new Configuration(), 0, Long.MAX_VALUE / 2, ranges -> false, batch -> {
            rows.addAll(StoredVectors.rows(batch, TYPES, NAMES.size()));
            return true;
        });
        return rows;
    }

    /** Row {@code i} as stored values of {@link #TYPES}; every column but id null now and then. */
    static Object[] expected(int i) {
        boolean none = i % 7 == 3;
        long micros = 1_600_000_000_000_000L + i * 1_000_001L;
        return new Object[] {
            i,
            none ? null : (long) i * 1_000_003L,
            none ? null : i / 4.0,
            none ? null : (double) (float) (i / 8.0f),
            none ? null : i % 3 == 0,
            none ? null : "name-" + (i % 11),
            none ? null : 18_000 + i % 400,
            none ? null : (long) i * 7 - 9_000,
            none ? null : new BigInteger("123456789012345678901234").add(BigInteger.valueOf(i)),
            none ? null : (long) (i % 50) * 10 * (i % 2 == 0 ? 1 : -1), // scale 2 in the file, 3 in the table
            none ? null : micros,
            none ? null : micros - micros % 1_000,
            none ? null : "unique-" + i + "-" + "x".repeat(i % 40),
            null,
        };
    }

    private org.apache.hadoop.fs.Path write(ParquetProperties.WriterVersion version) throws Exception {
        return write(version, CompressionCodecName.SNAPPY);
    }

    private org.apache.hadoop.fs.Path write(ParquetProperties.WriterVersion version, CompressionCodecName codec)
            throws Exception {
        return write(dir.resolve(version + "-" + codec + ".parquet"), version, codec, ROWS);
    }

    /** Rows {@code [0, rows)} of {@link #expected} written into {@code out}, in small row groups and pages. */
    static org.apache.hadoop.fs.Path write(Path out, ParquetProperties.WriterVersion version, CompressionCodecName codec,
                                          int rows) throws Exception {
        Files.deleteIfExists(out);
        org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path(out.toUri());
        SimpleGroupFactory groups = new SimpleGroupFactory(SCHEMA);
        try (ParquetWriter<Group> writer = ExampleParquetWriter.builder(file).withType(SCHEMA).withConf(new Configuration())
                .withWriterVersion(version).withCompressionCodec(codec)
                .withDictionaryPageSize(4 * 1024) // dictionaries outgrow it and give way to plain pages
                .withPageSize(8 * 1024).withRowGroupSize(64 * 1024L).withPageWriteChecksumEnabled(true).build()) {
            for (int i = 0; i < rows; i++) {
                Object[] row = expected(i);
                Group g = groups.newGroup().append("id", i);
                if (row[1] != null) {
                    g.append("big", (Long) row[1]).append("d", (Double) row[2]).append("f", i / 8.0f)
                            .append("b", (Boolean) row[4]).append("s", (String) row[5]).append("day", (Integer) row[6])
                            .append("price", (Long) row[7])
                            .append("wide", Binary.fromConstantByteArray(fixed16((BigInteger) row[8])))
                            .append("small", (int) ((long) row[9] / 10)).append("ts", (Long) row[10])
                            .append("t96", int96((Long) row[11])).append("unique", (String) row[12]);
                }
                writer.write(g);
            }
        }
        return file;
    }

    private static byte[] fixed16(BigInteger unscaled) {
        byte[] v = unscaled.toByteArray();
        byte[] out = new byte[16];
        Arrays.fill(out, 0, 16 - v.length, (byte) (unscaled.signum() < 0 ? -1 : 0));
        System.arraycopy(v, 0, out, 16 - v.length, v.length);
        return out;
    }

    /** Hive's INT96: nanoseconds of the day, then the Julian day, little-endian. */
    private static Binary int96(long micros) {
        long day = Math.floorDiv(micros, 86_400_000_000L);
        long nanos = Math.floorMod(micros, 86_400_000_000L) * 1_000;
        ByteBuffer b = ByteBuffer.allocate(12).order(ByteOrder.LITTLE_ENDIAN).putLong(nanos).putInt((int) (day + 2_440_588));
        return Binary.fromConstantByteArray(b.array());
    }

    @org.junit.jupiter.api.Test
    void rleAndBitPackedRunsDecode() {
        // a run of 5 threes (header 5 << 1), then a bit-packed group of 8 values 0..7 at 3 bits (header 1 << 1 | 1)
        byte[] data = {10, 3, 3, (byte) 0b10001000, (byte) 0b11000110, (byte) 0b11111010};
        RleBitPackedHybrid rle = new RleBitPackedHybrid(data, 0, data.length, 3);
        int[] out = new int[13];
        rle.read(out, 0, 4);
        rle.read(out, 4, 9);
        assertEquals(List.of(3, 3, 3, 3, 3, 0, 1, 2, 3, 4, 5, 6, 7), Arrays.stream(out).boxed().toList());
        assertThrows(IllegalStateException.class, () -> rle.read(out, 0, 1), "past the runs");
    }
}
