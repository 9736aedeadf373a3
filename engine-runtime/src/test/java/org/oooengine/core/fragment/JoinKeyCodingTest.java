package org.oooengine.core.fragment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import org.junit.jupiter.api.Test;
import org.oooengine.core.sql.SqlType;

/**
 * A build key no probe value can equal is left out (null), not an error: a decimal finer than the
 * probe's scale or with more digits than a long holds at it, a timestamp finer than a
 * microsecond, a fraction against integers; one compared otherwise than as longs is refused.
 */
class JoinKeyCodingTest {
    @Test
    void buildKeysNoProbeValueEqualsAreLeftOut() {
        JoinKeyCoding money = JoinKeyCoding.of(SqlType.decimal(12, 2));
        assertEquals(550L, money.buildKey(new BigDecimal("5.5")));
        assertEquals(500L, money.buildKey(5));
        assertNull(money.buildKey(new BigDecimal("5.555")));
        assertNull(money.buildKey(new BigDecimal("1000000000000000000000000000000")));
        // as equality sees it, an integer of 19 digits never equals a decimal (a whole one of 19 digits stays a decimal)
        assertNull(JoinKeyCoding.of(SqlType.decimal(20, 0)).buildKey(1_000_000_000_000_000_000L));
        assertEquals(999_999_999_999_999_999L, JoinKeyCoding.of(SqlType.decimal(20, 0)).buildKey(999_999_999_999_999_999L));
        JoinKeyCoding times = JoinKeyCoding.of(SqlType.TIMESTAMP);
        assertNull(times.buildKey(LocalDateTime.of(2026, 1, 1, 0, 0, 0, 1)));
        assertEquals(1L, times.buildKey(LocalDateTime.of(1970, 1, 1, 0, 0, 0, 1000)));
        JoinKeyCoding integers = JoinKeyCoding.of(SqlType.BIGINT);
        assertNull(integers.buildKey(new BigDecimal("7.5")));
        assertEquals(7L, integers.buildKey(new BigDecimal("7.00")));
        assertThrows(JoinKeyCoding.NotComparable.class, () -> integers.buildKey(LocalDate.of(2026, 1, 1)));
    }
}
