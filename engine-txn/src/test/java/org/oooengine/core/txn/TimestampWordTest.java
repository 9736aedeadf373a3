package org.oooengine.core.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class TimestampWordTest {
    @Test
    void packsWtsDeltaAndLock() {
        long w = TimestampWord.of(123_456_789L, 123_456_789L + 77);
        assertEquals(123_456_789L, TimestampWord.wts(w));
        assertEquals(123_456_789L + 77, TimestampWord.rts(w));
        assertFalse(TimestampWord.locked(w));
        long l = TimestampWord.lock(w);
        assertTrue(TimestampWord.locked(l));
        assertEquals(123_456_789L, TimestampWord.wts(l));
        assertEquals(123_456_789L + 77, TimestampWord.rts(l));
        assertEquals(w, TimestampWord.unlock(l));
        long max = TimestampWord.of(TimestampWord.MAX_WTS, TimestampWord.MAX_WTS);
        assertEquals(TimestampWord.MAX_WTS, TimestampWord.wts(max));
        assertThrows(IllegalArgumentException.class, () -> TimestampWord.of(10, 9));
        assertThrows(IllegalArgumentException.class, () -> TimestampWord.of(0, TimestampWord.MAX_DELTA + 1));
    }

    @Test
    void extendingKeepsTheLockAndRaisesWtsOnDeltaOverflow() {
        long w = TimestampWord.lock(TimestampWord.of(100, 110));
        long e = TimestampWord.extend(w, 500);
        assertEquals(100, TimestampWord.wts(e));
        assertEquals(500, TimestampWord.rts(e));
        assertTrue(TimestampWord.locked(e));
        assertEquals(w, TimestampWord.extend(w, 105), "never shortens");

        long far = 100 + TimestampWord.MAX_DELTA + 1000;
        long o = TimestampWord.extend(TimestampWord.of(100, 100), far);
        assertEquals(far, TimestampWord.rts(o));
        assertEquals(far - TimestampWord.MAX_DELTA, TimestampWord.wts(o));
    }
}
