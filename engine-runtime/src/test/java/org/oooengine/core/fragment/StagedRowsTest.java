package org.oooengine.core.fragment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class StagedRowsTest {
    @Test
    void chunksAddUpAndLeaveWhenRemoved() {
        StagedRows staged = new StagedRows("n1", 1000);
        staged.add("a", List.<Object[]>of(new Object[] {1L}, new Object[] {2L}), 300);
        staged.add("a", List.<Object[]>of(new Object[] {3L}), 200);
        assertEquals(3, staged.rows("a").size());
        assertEquals(500, staged.bytes());
        staged.remove("a");
        assertEquals(0, staged.bytes());
        IllegalStateException gone = assertThrows(IllegalStateException.class, () -> staged.rows("a"));
        assertTrue(gone.getMessage().contains("node n1 has no broadcast rows a"), gone.getMessage());
    }

    @Test
    void aSenderCannotStageMoreThanTheLimit() {
        StagedRows staged = new StagedRows("n2", 1000);
        staged.add("a", List.<Object[]>of(new Object[] {1L}), 800);
        MemoryLimitExceededException full = assertThrows(MemoryLimitExceededException.class,
                () -> staged.add("b", List.<Object[]>of(new Object[] {2L}), 300));
        assertTrue(full.getMessage().startsWith("node n2 already holds") && full.getMessage().contains("broadcast rows"), full.getMessage());
        assertEquals(800, staged.bytes(), "the refused chunk is not counted");
        staged.add("b", List.<Object[]>of(new Object[] {2L}), 200);
        assertEquals(1000, staged.bytes());
    }
}
