package org.oooengine.core.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.Period;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Chunks of rows sent column by column come back as they were sent, smaller, and refuse damage by name. */
class ColumnarRowsTest {
    @Test
    void everyKindOfColumnRoundTrips() {
        Random random = new Random(42);
        List<Object[]> rows = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            rows.add(new Object[] {
                (long) i * 7919,                                            // longs, no nulls
                i % 3 == 0 ? null : random.nextInt(),                        // ints with nulls
                i % 2 == 0 ? Long.MIN_VALUE : Long.MAX_VALUE,                // a range wider than a long
                LocalDate.ofEpochDay(8000 + random.nextInt(2500)),
                LocalDateTime.of(2024, 1, 2, 3, 4, 5, random.nextInt(1000) * 1000),
                BigDecimal.valueOf(random.nextLong() >> 20, 2),              // decimals of one scale
                i % 5 == 0 ? new BigDecimal("1.5") : new BigDecimal("2.25"), // two scales: tagged
                new BigDecimal(BigInteger.TEN.pow(30).add(BigInteger.valueOf(i)), 4), // wider than a long
                i % 7 == 0 ? Double.NaN : random.nextDouble() - 0.5,
                i % 4 == 0 ? null : i % 3 == 0,                              // booleans with nulls
                "ARF".substring(i % 3, i % 3 + 1),                           // repeats: a dictionary
                "customer#" + i,                                             // all different: plain
                null,                                                        // nulls only
                i % 2 == 0 ? (Object) "mixed" : (Object) 3L,                 // classes mixed: tagged
                i == 5 ? Period.ofDays(3) : null,                            // one tagged value among nulls
                List.of(i, i + 1)});
        }
        List<Object[]> read = roundTrip(rows);
        assertEquals(rows.size(), read.size());
        for (int i = 0; i < rows.size(); i++) {
            assertArrayEquals(rows.get(i), read.get(i), "row " + i);
        }
    }

    @Test
    void aSliceOfAChunkWrittenFromItsColumnsReadsAsItsRows() {
        Random random = new Random(3);
        List<Object[]> rows = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            rows.add(new Object[] {i % 4 == 0 ? null : random.nextInt(), LocalDate.ofEpochDay(9000 + i),
                i % 6 == 0 ? null : BigDecimal.valueOf(random.nextLong() >> 30, 2), i % 5 == 0 ? null : random.nextDouble(),
                i % 3 == 0 ? null : "ARF".substring(i % 3, i % 3 + 1), i % 7 == 0 ? null : i % 2 == 0,
                i % 2 == 0 ? (Object) "mixed" : (Object) 3L});
        }
        PayloadWriter w = new PayloadWriter();
        ColumnarRows.write(w, rows);
        List<Object[]> chunk = ColumnarRows.readKeepingColumns(new PayloadReader(w.toByteArray()));
        PayloadWriter again = new PayloadWriter();
        ColumnarRows.write(again, ColumnarRows.chunkOf(chunk.subList(123, 456)));
        List<Object[]> slice = ColumnarRows.readKeepingColumns(new PayloadReader(again.toByteArray()));
        assertTrue(ColumnarRows.chunkOf(slice) != null, "read back as columns");
        assertEquals(333, slice.size());
        for (int i = 0; i < slice.size(); i++) {
            assertArrayEquals(rows.get(123 + i), slice.get(i), "row " + (123 + i));
        }
    }

    @Test
    void chunksConcatenatedHoldTheirRowsInOrder() {
        List<Object[]> first = List.<Object[]>of(new Object[] {1L, "a", 7}, new Object[] {null, "b", 8});
        List<Object[]> second = List.<Object[]>of(new Object[] {3L, null, 9L}); // ints, then longs: values kept as they are
        ColumnarRows.Chunk all = ColumnarRows.Chunk.concat(List.of(chunk(first), chunk(second)));
        assertEquals(ColumnarRows.Held.LONGS, all.columns()[0].held());
        assertEquals(ColumnarRows.Held.VALUES, all.columns()[2].held());
        List<Object[]> expected = new ArrayList<>(first);
        expected.addAll(second);
        for (int i = 0; i < expected.size(); i++) {
            assertArrayEquals(expected.get(i), all.rows().get(i), "row " + i);
        }
        assertEquals(null, ColumnarRows.Chunk.concat(List.of(chunk(first), ColumnarRows.Chunk.ofRows(second))));
    }

    @Test
    void aChunkReadAsRowsKeepsItsColumnsForWhoTakesThem() {
        List<Object[]> rows = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            rows.add(new Object[] {(long) i, i % 9 == 0 ? null : BigDecimal.valueOf(i, 2), "s" + (i % 4)});
        }
        PayloadWriter w = new PayloadWriter();
        ColumnarRows.write(w, rows);
        List<Object[]> read = ColumnarRows.readKeepingColumns(new PayloadReader(w.toByteArray()));
        ColumnarRows.ChunkRows view = ColumnarRows.chunkOf(read);
        assertTrue(view != null, "a chunk of columns");
        List<Object[]> slice = read.subList(10, 40).subList(5, 20); // rows 15 to 29
        ColumnarRows.ChunkRows sliced = ColumnarRows.chunkOf(slice);
        assertEquals(15, sliced.from());
        assertEquals(15, slice.size());
        assertEquals(BigDecimal.valueOf(15, 2), sliced.chunk().columns()[1].value(sliced.from()));
        for (int i = 0; i < slice.size(); i++) {
            assertArrayEquals(rows.get(15 + i), slice.get(i), "row " + (15 + i));
        }
        assertThrows(IndexOutOfBoundsException.class, () -> slice.get(15));
        assertEquals(null, ColumnarRows.chunkOf(rows));
    }

    private static ColumnarRows.Chunk chunk(List<Object[]> rows) {
        PayloadWriter w = new PayloadWriter();
        ColumnarRows.write(w, rows);
        return ColumnarRows.readChunk(new PayloadReader(w.toByteArray()));
    }

    @Test
    void rowsOfSeveralWidthsOrNoneKeepTheRowLayout() {
        List<Object[]> ragged = List.of(new Object[] {1L, "a"}, new Object[] {2L}, new Object[] {});
        List<Object[]> read = roundTrip(ragged);
        for (int i = 0; i < ragged.size(); i++) {
            assertArrayEquals(ragged.get(i), read.get(i));
        }
        assertEquals(3, roundTrip(List.of(new Object[0], new Object[0], new Object[0])).size());
        assertEquals(0, roundTrip(List.of()).size());
    }

    @Test
    void aChunkOfPartialGroupsTakesUnderHalfTheBytesOfRows() {
        List<Object[]> groups = new ArrayList<>();
        for (int i = 0; i < 1024; i++) {
            groups.add(new Object[] {4_000_000L + i * 4L, "Customer#00000" + (1000 + i % 300),
                LocalDate.ofEpochDay(9000 + i % 2000), BigDecimal.valueOf(100_000 + i * 37L, 2), (long) (i % 7 + 1)});
        }
        PayloadWriter columns = new PayloadWriter();
        ColumnarRows.write(columns, groups);
        PayloadWriter rows = new PayloadWriter();
        groups.forEach(row -> ValueCodec.writeRow(rows, row));
        assertTrue(columns.size() * 2 < rows.size(), columns.size() + " bytes by column, " + rows.size() + " by row");
    }

    @Test
    void aCountOfRowsThePayloadCannotHoldIsRefusedBeforeRoomIsMade() {
        byte[] chunk = new PayloadWriter().put(1).putVarInt(1 << 30).putVarInt(1000).put(2).toByteArray();
        ProtocolException e = assertThrows(ProtocolException.class, () -> ColumnarRows.read(new PayloadReader(chunk)));
        assertTrue(e.getMessage().contains("1073741824 rows of 1000 columns"), e.getMessage());
    }

    @Test
    void aDictionaryEntryPastTheDictionaryIsRefused() {
        byte[] chunk = new PayloadWriter().put(1).putVarInt(2).putVarInt(1).put(9).put(0)
                .putVarInt(1).putString("A").put(0).put(1).toByteArray();
        ProtocolException e = assertThrows(ProtocolException.class, () -> ColumnarRows.read(new PayloadReader(chunk)));
        assertEquals("a string of entry 1 in a dictionary of 1", e.getMessage());
    }

    @Test
    void everyCutOrFlippedByteIsAProtocolErrorOrAChunk() {
        List<Object[]> rows = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            rows.add(new Object[] {(long) i, i % 3 == 0 ? null : "v" + i % 4, BigDecimal.valueOf(i, 2),
                LocalDate.ofEpochDay(i), i % 2 == 0, (double) i, i % 5 == 0 ? null : List.of(i)});
        }
        PayloadWriter w = new PayloadWriter();
        ColumnarRows.write(w, rows);
        byte[] whole = w.toByteArray();
        for (int cut = 0; cut < whole.length; cut++) {
            byte[] part = Arrays.copyOf(whole, cut);
            assertThrows(ProtocolException.class, () -> ColumnarRows.read(new PayloadReader(part)), "cut at " + cut);
        }
        Random random = new Random(7);
        for (int i = 0; i < 5000; i++) {
            byte[] damaged = whole.clone();
            damaged[random.nextInt(damaged.length)] ^= (byte) (1 << random.nextInt(8));
            try {
                ColumnarRows.read(new PayloadReader(damaged));
            } catch (ProtocolException expected) {
                // named damage; any other exception fails the test
            }
        }
    }

    private static List<Object[]> roundTrip(List<Object[]> rows) {
        PayloadWriter w = new PayloadWriter();
        ColumnarRows.write(w, rows);
        PayloadReader r = new PayloadReader(w.toByteArray());
        List<Object[]> read = ColumnarRows.read(r);
        assertEquals(0, r.remaining(), "the chunk is read to its end");
        return read;
    }
}
