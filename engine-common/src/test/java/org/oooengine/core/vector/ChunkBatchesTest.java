package org.oooengine.core.vector;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.wire.ColumnarRows;
import org.oooengine.core.wire.PayloadReader;
import org.oooengine.core.wire.PayloadWriter;

/** Chunks as they arrive become batches whose rows are the chunk's, the wire's arrays used as they are. */
class ChunkBatchesTest {
    private static final SqlType[] TYPES = {SqlType.BIGINT, SqlType.INT, SqlType.DATE, SqlType.decimal(12, 2),
        SqlType.TIMESTAMP, SqlType.DOUBLE, SqlType.BOOLEAN, SqlType.STRING, SqlType.STRING, null};

    @Test
    void everyKindReadAsTheWireHeldItIsTheChunksRows() {
        List<Object[]> rows = rows(500);
        ColumnarRows.Chunk chunk = chunk(rows);
        Batch batch = ChunkBatches.of(chunk, TYPES);
        List<Object[]> read = batch.toRows(TYPES);
        assertEquals(rows.size(), read.size());
        for (int i = 0; i < rows.size(); i++) {
            assertArrayEquals(rows.get(i), read.get(i), "row " + i);
        }
        // integers, dates and decimals of the type's scale are the wire's longs, not copies
        assertSame(chunk.columns()[0].longs(), ((LongVector) batch.column(0)).values);
        assertSame(chunk.columns()[3].longs(), ((LongVector) batch.column(3)).values);
        assertSame(chunk.columns()[5].doubles(), ((DoubleVector) batch.column(5)).values);
    }

    @Test
    void aDecimalOfAnotherScaleIsRescaledValueByValue() {
        List<Object[]> rows = List.of(new Object[] {new BigDecimal("1.25")}, new Object[] {null},
                new Object[] {new BigDecimal("-7.50")});
        SqlType[] types = {SqlType.decimal(15, 4)};
        List<Object[]> read = ChunkBatches.of(chunk(rows), types).toRows(types);
        assertEquals(new BigDecimal("1.2500"), read.get(0)[0]);
        assertNull(read.get(1)[0]);
        assertEquals(new BigDecimal("-7.5000"), read.get(2)[0]);
    }

    @Test
    void aValueNotOfItsColumnsTypeOrAChunkOfRowsLeavesItToRows() {
        List<Object[]> doubles = List.of(new Object[] {1.5}, new Object[] {2.5});
        assertNull(ChunkBatches.of(chunk(doubles), new SqlType[] {SqlType.BIGINT}));
        assertNull(ChunkBatches.of(ColumnarRows.Chunk.ofRows(doubles), new SqlType[] {SqlType.DOUBLE}));
    }

    private static ColumnarRows.Chunk chunk(List<Object[]> rows) {
        PayloadWriter w = new PayloadWriter();
        ColumnarRows.write(w, rows);
        PayloadReader r = new PayloadReader(w.toByteArray());
        ColumnarRows.Chunk chunk = ColumnarRows.readChunk(r);
        assertEquals(0, r.remaining());
        return chunk;
    }

    /** Rows of every kind the wire holds apart, nulls in some, and a column not read (a list). */
    private static List<Object[]> rows(int n) {
        List<Object[]> rows = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            rows.add(new Object[] {
                6_000_000L * 4 + i,
                i % 4 == 0 ? null : -i,
                LocalDate.ofEpochDay(9000 + i % 2400),
                BigDecimal.valueOf(i % 5 == 0 ? -i * 101L : i * 99L, 2),
                LocalDateTime.of(2024, 1, 2, 3, 4, 5, (i % 1000) * 1000),
                i % 7 == 0 ? null : i * 0.25,
                i % 3 == 0 ? null : i % 2 == 0,
                "ARF".substring(i % 3, i % 3 + 1),
                "customer#" + i,
                List.of(i)});
        }
        return rows;
    }
}
