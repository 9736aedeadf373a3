package org.oooengine.core.types;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.LocalDateTime;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Hive's timestamp text, the stored microseconds and their order in rows and keys. */
class LocalTimestampsTest {
    @Test
    void textIsHivesAndReadsBack() {
        assertEquals("2024-01-02 03:04:05", LocalTimestamps.format(LocalDateTime.of(2024, 1, 2, 3, 4, 5)));
        assertEquals("2024-01-02 03:04:05.12", LocalTimestamps.format(LocalDateTime.of(2024, 1, 2, 3, 4, 5, 120_000_000)));
        assertEquals("1969-07-20 20:17:40.000001", LocalTimestamps.format(LocalDateTime.of(1969, 7, 20, 20, 17, 40, 1_000)));
        assertEquals(LocalDateTime.of(2024, 3, 1, 0, 0), LocalTimestamps.parse("2024-03-01"));
        assertEquals(LocalDateTime.of(2024, 3, 1, 10, 5), LocalTimestamps.parse(" 2024-03-01 10:05 "));
        assertEquals(LocalDateTime.of(2024, 3, 1, 10, 5, 7, 123_456_789), LocalTimestamps.parse("2024-03-01T10:05:07.123456789"));
        assertNull(LocalTimestamps.parse("2024-02-30 00:00:00"));
        assertNull(LocalTimestamps.parse("yesterday"));
    }

    @Test
    void storedMicrosecondsKeepTheOrderInRowsAndKeys() {
        List<LocalDateTime> ordered = List.of(LocalDateTime.of(1, 1, 1, 0, 0), LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_999_000),
                LocalDateTime.of(1970, 1, 1, 0, 0), LocalDateTime.of(2024, 1, 2, 3, 4, 5, 123_000), LocalDateTime.of(9999, 12, 31, 23, 59));
        Schema schema = new Schema(List.of(new Column("t", DataType.TIMESTAMP)));
        RowCodec rows = new RowCodec(schema);
        KeyCodec keys = new KeyCodec(new DataType[] {DataType.TIMESTAMP});
        byte[] previous = null;
        for (LocalDateTime t : ordered) {
            long micros = LocalTimestamps.toMicros(t);
            assertEquals(t, LocalTimestamps.ofMicros(micros));
            assertEquals(micros, rows.decode(rows.encode(new Object[] {micros}))[0]);
            assertEquals(micros, DataType.TIMESTAMP.parseValue(DataType.TIMESTAMP.format(micros)));
            byte[] key = keys.encode(micros);
            if (previous != null) {
                assertTrue(java.util.Arrays.compareUnsigned(previous, key) < 0, t.toString());
            }
            previous = key;
        }
        assertThrows(IllegalArgumentException.class, () -> DataType.TIMESTAMP.parseValue("noon"));
        assertEquals(DataType.TIMESTAMP, DataType.parse("timestamp"));
    }
}
