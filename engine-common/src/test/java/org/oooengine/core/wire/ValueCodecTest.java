package org.oooengine.core.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.Period;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Every kind of value a plan or a row carries comes back as it was sent. */
class ValueCodecTest {
    @Test
    void everyKindOfValueRoundTrips() {
        Object[] row = {null, true, 7, 8L, 1.5, "text", new BigDecimal("-12.340"), LocalDate.of(2024, 2, 29),
            LocalDateTime.of(2024, 1, 2, 3, 4, 5, 123_456_000), Period.of(1, -2, 3),
            Duration.ofDays(1).plusHours(2).plusMinutes(3).plusSeconds(4).plusNanos(500_000_000),
            Duration.ofMillis(-250), new BigInteger("-123456789012345678901234567890"),
            Arrays.asList(1, null, 3), List.of(List.of("a", "b"), List.of()), mapOf("k", 1, "j", null),
            mapOf(2L, Arrays.asList("x", null), 1L, List.of())};
        PayloadWriter w = new PayloadWriter();
        ValueCodec.writeRow(w, row);
        Object[] read = ValueCodec.readRow(new PayloadReader(w.toByteArray()));
        assertArrayEquals(row, read);
        assertEquals(List.of("k", "j"), List.copyOf(((Map<?, ?>) read[15]).keySet()), "a map keeps its order");
    }

    @Test
    void aCollectionLongerThanItsFrameIsRefused() {
        PayloadWriter w = new PayloadWriter();
        ValueCodec.writeRow(w, new Object[] {List.of(1, 2, 3)});
        byte[] whole = w.toByteArray();
        byte[] cut = Arrays.copyOf(whole, whole.length - 5);
        assertThrows(RuntimeException.class, () -> ValueCodec.readRow(new PayloadReader(cut)));
    }

    private static Map<Object, Object> mapOf(Object... keysAndValues) {
        Map<Object, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            m.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        return m;
    }
}
