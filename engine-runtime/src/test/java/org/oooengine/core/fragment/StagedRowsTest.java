package org.oooengine.core.fragment;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.oooengine.core.wire.ColumnarRows;
import org.oooengine.core.wire.PayloadReader;
import org.oooengine.core.wire.PayloadWriter;

class StagedRowsTest {
    @Test
    void chunksAddUpAndLeaveWhenRemoved() {
        StagedRows staged = new StagedRows("n1", 1000);
        staged.add("a", chunk(new Object[] {1L}, new Object[] {2L}), 300);
        staged.add("a", chunk(new Object[] {3L}), 200);
        assertEquals(List.of(1L, 2L, 3L), read(staged, "a").stream().flatMap(c -> c.rows().stream()).map(r -> r[0]).toList());
        assertEquals(500, staged.bytes());
        staged.remove("a");
        assertEquals(0, staged.bytes());
        IllegalStateException gone = assertThrows(IllegalStateException.class, () -> read(staged, "a"));
        assertTrue(gone.getMessage().contains("node n1 has no broadcast rows a"), gone.getMessage());
    }

    @Test
    void aSenderCannotStageMoreThanTheLimit() {
        StagedRows staged = new StagedRows("n2", 1000);
        staged.add("a", chunk(new Object[] {1L}), 800);
        MemoryLimitExceededException full = assertThrows(MemoryLimitExceededException.class,
                () -> staged.add("b", chunk(new Object[] {2L}), 300));
        assertTrue(full.getMessage().startsWith("node n2 already holds") && full.getMessage().contains("broadcast rows"), full.getMessage());
        assertEquals(800, staged.bytes(), "the refused chunk is not counted");
        staged.add("b", chunk(new Object[] {2L}), 200);
        assertEquals(1000, staged.bytes());
    }

    @Test
    void chunksThatCameAsColumnsStayColumns() {
        PayloadWriter w = new PayloadWriter(64);
        ColumnarRows.write(w, List.of(new Object[] {7L, "a"}, new Object[] {8L, null}));
        ColumnarRows.Chunk sent = ColumnarRows.readChunk(new PayloadReader(w.toByteArray()));
        StagedRows staged = new StagedRows("n3", 1000);
        staged.add("c", sent, w.size());
        ColumnarRows.Chunk held = read(staged, "c").get(0);
        assertNotNull(held.columns(), "held as the wire carried it");
        assertArrayEquals(new long[] {7L, 8L}, java.util.Arrays.copyOf(held.columns()[0].longs(), 2));
        assertEquals(null, held.value(1, 1));
    }

    private static ColumnarRows.Chunk chunk(Object[]... rows) {
        return ColumnarRows.Chunk.ofRows(List.of(rows));
    }

    private static List<ColumnarRows.Chunk> read(StagedRows staged, String id) {
        List<ColumnarRows.Chunk> chunks = new ArrayList<>();
        staged.read(id, chunks::add);
        return chunks;
    }
}
