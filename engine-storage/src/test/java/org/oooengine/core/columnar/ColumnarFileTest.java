package org.oooengine.core.columnar;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.RandomAccessFile;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.oooengine.core.storage.DataCorruptedException;
import org.oooengine.core.storage.IoStats;
import org.oooengine.core.storage.StorageException;
import org.oooengine.core.types.Column;
import org.oooengine.core.types.DataType;
import org.oooengine.core.types.Schema;
import org.oooengine.core.vector.BoolVector;
import org.oooengine.core.vector.DoubleVector;
import org.oooengine.core.vector.LongVector;
import org.oooengine.core.vector.ObjectVector;

/**
 * A columnar copy written and read back from its mapping: every layout (a dictionary chunk's
 * vector with its entries and codes), nulls, groups, damage.
 */
class ColumnarFileTest {
    private static final Schema SCHEMA = new Schema(List.of(
            new Column("id", DataType.BIGINT), new Column("day", DataType.DATE), new Column("n", DataType.INT),
            new Column("price", DataType.decimal(12, 2)), new Column("ratio", DataType.DOUBLE),
            new Column("flag", DataType.BOOLEAN), new Column("mode", DataType.varchar(10)),
            new Column("comment", DataType.varchar(80))));
    private static final int ROWS = 2 * ColumnFormat.GROUP_ROWS + 300;

    @TempDir
    Path dir;

    private static Object[] row(int i) {
        return new Object[] {(long) i << 33, 19_000 + i % 400, i % 7 == 0 ? null : -i, 100L * i + 99,
                i / 4.0, i % 5 == 0 ? null : i % 2 == 0, i % 3 == 0 ? null : "m" + i % 4, "comment " + i + " é"};
    }

    private Path written() {
        Path p = dir.resolve("t.columns");
        try (ColumnarWriter w = new ColumnarWriter(p, SCHEMA)) {
            for (int i = 0; i < ROWS; i++) {
                w.add(row(i));
            }
            w.finish();
        }
        return p;
    }

    @Test
    void everyLayoutReadsBackAsWrittenAcrossGroups() {
        try (ColumnarFile f = ColumnarFile.open(written(), SCHEMA, new IoStats())) {
            assertEquals(3, f.groups());
            int i = 0;
            for (int g = 0; g < f.groups(); g++) {
                LongVector id = (LongVector) f.read(g, 0);
                LongVector day = (LongVector) f.read(g, 1);
                LongVector n = (LongVector) f.read(g, 2);
                LongVector price = (LongVector) f.read(g, 3);
                DoubleVector ratio = (DoubleVector) f.read(g, 4);
                BoolVector flag = (BoolVector) f.read(g, 5);
                ObjectVector mode = (ObjectVector) f.read(g, 6);
                ObjectVector comment = (ObjectVector) f.read(g, 7);
                assertTrue(mode.dictionary() != null && mode.dictionary().nullable(), "a few strings keep their dictionary");
                assertEquals(null, comment.dictionary(), "strings each of its own come plain");
                for (int k = 0; k < f.rows(g); k++, i++) {
                    Object[] want = row(i);
                    assertEquals(want[0], id.values[k]);
                    assertEquals(((Integer) want[1]).longValue(), day.values[k]);
                    assertEquals(want[2] == null, n.isNull(k));
                    if (want[2] != null) {
                        assertEquals(((Integer) want[2]).longValue(), n.values[k]);
                    }
                    assertEquals(want[3], price.values[k]);
                    assertEquals(want[4], ratio.values[k]);
                    assertEquals(want[5] == null, flag.isNull(k));
                    if (want[5] != null) {
                        assertEquals((Boolean) want[5] ? 1 : 0, flag.values[k]);
                    }
                    assertEquals(want[6], mode.values[k]);
                    if (want[6] != null) {
                        assertEquals(want[6], mode.dictionary().entries()[mode.dictionary().codes()[k] & 0xFF]);
                    }
                    assertEquals(want[7], comment.values[k]);
                }
            }
            assertEquals(ROWS, i);
            assertArrayEquals(new long[] {19_000, 19_399}, new long[] {f.min(0, 1), f.max(0, 1)});
        }
    }

    @Test
    void aDamagedChunkIsRefusedNamingTheFileAndOffset() throws Exception {
        Path p = written();
        try (ColumnarFile f = ColumnarFile.open(p, SCHEMA, new IoStats())) {
            f.read(1, 0);
            // the mapping sees a byte flipped in the file after it was opened
            try (RandomAccessFile raf = new RandomAccessFile(p.toFile(), "rw")) {
                long at = ColumnFormat.HEADER_BYTES + 10;
                raf.seek(at);
                int b = raf.read();
                raf.seek(at);
                raf.write(b ^ 0xff);
            }
            DataCorruptedException e = assertThrows(DataCorruptedException.class, () -> f.read(0, 0));
            assertTrue(e.getMessage().contains(p + " at offset " + ColumnFormat.HEADER_BYTES)
                    && e.getMessage().contains("checksum mismatch in the chunk of column 0, group 0"), e.getMessage());
            assertEquals(row(ColumnFormat.GROUP_ROWS)[0], ((LongVector) f.read(1, 0)).values[0], "other chunks still read");
        }
    }

    @Test
    void openersShareOneMappingThatGoesWithTheLastOfThem() {
        Path p = written();
        ColumnarFile first = ColumnarFile.open(p, SCHEMA, new IoStats());
        try (ColumnarFile second = ColumnarFile.open(p, SCHEMA, new IoStats())) {
            first.close();
            assertEquals(row(5)[0], ((LongVector) second.read(0, 0)).values[5], "the other opener still reads");
        }
        // every opener closed: the mapping is gone, and a read is refused rather than touching it
        StorageException e = assertThrows(StorageException.class, () -> first.read(0, 0));
        assertTrue(e.getMessage().contains("closed"), e.getMessage());
    }

    @Test
    void regionsNeverCutAChunk() {
        long[] offsets = {8, 108, 208, 308, 408};
        int[] lengths = {100, 100, 100, 100, 250};
        int[] regionOf = new int[offsets.length];
        List<long[]> spans = ColumnarFile.regions(offsets, lengths, regionOf, 250);
        assertEquals(3, spans.size());
        assertArrayEquals(new long[] {8, 208}, spans.get(0));
        assertArrayEquals(new long[] {208, 408}, spans.get(1));
        assertArrayEquals(new long[] {408, 658}, spans.get(2));
        assertArrayEquals(new int[] {0, 0, 1, 1, 2}, regionOf);
    }
}
