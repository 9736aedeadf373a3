package org.oooengine.hive.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.hive.service.rpc.thrift.TRowSet;
import org.apache.hive.service.rpc.thrift.TTypeId;
import org.junit.jupiter.api.Test;
import org.oooengine.core.wire.ColumnarRows;
import org.oooengine.core.wire.PayloadReader;
import org.oooengine.core.wire.PayloadWriter;

/**
 * A row set written from the columns of gathered chunks is the one written from their rows, value
 * for value, for every column type, with nulls, over pieces that start and end inside chunks.
 */
class RowSetWriterTest {
    private static final List<WireColumn> COLUMNS = List.of(
            new WireColumn("i", TTypeId.INT_TYPE, 0, 0, null),
            new WireColumn("l", TTypeId.BIGINT_TYPE, 0, 0, null),
            new WireColumn("s", TTypeId.SMALLINT_TYPE, 0, 0, null),
            new WireColumn("price", TTypeId.DECIMAL_TYPE, 15, 2, null),
            new WireColumn("rate", TTypeId.DECIMAL_TYPE, 12, 4, null), // values of scale 2: written at 4
            new WireColumn("rounded", TTypeId.DECIMAL_TYPE, 12, 1, null), // values of scale 2: rounded half up
            new WireColumn("day", TTypeId.DATE_TYPE, 0, 0, null),
            new WireColumn("at", TTypeId.TIMESTAMP_TYPE, 0, 0, null),
            new WireColumn("x", TTypeId.DOUBLE_TYPE, 0, 0, null),
            new WireColumn("flag", TTypeId.BOOLEAN_TYPE, 0, 0, null),
            new WireColumn("name", TTypeId.STRING_TYPE, 0, 0, null),
            new WireColumn("code", TTypeId.STRING_TYPE, 0, 0, null));

    @Test
    void chunksWriteAsTheirRowsDo() {
        Random random = new Random(7);
        List<List<Object[]>> chunks = new ArrayList<>();
        List<Object[]> plain = new ArrayList<>();
        for (int c = 0; c < 3; c++) {
            List<Object[]> rows = new ArrayList<>();
            for (int i = 0; i < 700; i++) {
                rows.add(row(random, i));
            }
            chunks.add(readBack(rows));
            plain.add(row(random, c));
        }
        List<List<Object[]>> pieces = List.of(chunks.get(0).subList(13, 700), plain.subList(0, 2),
                chunks.get(1), chunks.get(2).subList(0, 301), plain.subList(2, 3));
        List<List<Object[]>> asRows = pieces.stream().map(p -> (List<Object[]>) new ArrayList<>(p)).toList();
        assertEquals(RowSetWriter.write(COLUMNS, asRows, 42), RowSetWriter.write(COLUMNS, pieces, 42));
        TRowSet set = RowSetWriter.write(COLUMNS, pieces, 42);
        assertEquals(687 + 2 + 700 + 301 + 1, set.getColumns().get(0).getI32Val().getValues().size());
    }

    @Test
    void datesAndDecimalsReadAsJavaWritesThem() {
        Random random = new Random(11);
        for (long day = -800_000; day < 3_000_000; day += 997) {
            LocalDate date = LocalDate.ofEpochDay(day);
            assertEquals(date.toString(), ValueText.date(day));
        }
        long[] edges = {0, 1, -1, 9, -9, 10, 99, -100, Long.MAX_VALUE, Long.MIN_VALUE, Long.MIN_VALUE + 1};
        for (int i = 0; i < 20_000; i++) {
            long unscaled = i < edges.length ? edges[i] : random.nextLong() >> random.nextInt(64);
            int scale = random.nextInt(12);
            int toScale = random.nextInt(20);
            String expected = BigDecimal.valueOf(unscaled, scale).setScale(toScale, RoundingMode.HALF_UP).toPlainString();
            assertEquals(expected, ValueText.decimal(unscaled, scale, toScale), unscaled + " at " + scale + " to " + toScale);
        }
    }

    private static Object[] row(Random random, int i) {
        boolean none = i % 11 == 0;
        return new Object[] {
            none ? null : random.nextInt(),
            random.nextLong() >> 3,
            i % 13 == 0 ? null : random.nextInt(1000),
            none ? null : BigDecimal.valueOf(random.nextLong() >> 20, 2),
            BigDecimal.valueOf(random.nextInt(100_000) - 50_000, 2),
            BigDecimal.valueOf(random.nextInt(100_000) - 50_000, 2),
            i % 7 == 0 ? null : LocalDate.ofEpochDay(random.nextInt(20_000) - 5_000),
            LocalDateTime.of(1990 + random.nextInt(40), 1 + random.nextInt(12), 1 + random.nextInt(28),
                    random.nextInt(24), random.nextInt(60), random.nextInt(60), random.nextInt(1000) * 1000),
            none ? null : random.nextDouble() * 1e6,
            i % 5 == 0 ? null : random.nextBoolean(),
            "customer#" + random.nextInt(1_000_000),
            i % 3 == 0 ? null : "ARF".substring(i % 3, i % 3 + 1)};
    }

    /** The rows as the coordinator gets them from a node: a chunk of columns read as rows. */
    private static List<Object[]> readBack(List<Object[]> rows) {
        PayloadWriter w = new PayloadWriter();
        ColumnarRows.write(w, rows);
        List<Object[]> read = ColumnarRows.readKeepingColumns(new PayloadReader(w.toByteArray()));
        assertEquals(true, ColumnarRows.chunkOf(read) != null);
        return read;
    }
}
