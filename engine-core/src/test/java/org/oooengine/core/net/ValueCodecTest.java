package org.oooengine.core.net;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.Period;
import org.junit.jupiter.api.Test;

/** Every kind of value a plan or a row carries comes back as it was sent. */
class ValueCodecTest {
    @Test
    void everyKindOfValueRoundTrips() {
        Object[] row = {null, true, 7, 8L, 1.5, "text", new BigDecimal("-12.340"), LocalDate.of(2024, 2, 29),
            LocalDateTime.of(2024, 1, 2, 3, 4, 5, 123_456_000), Period.of(1, -2, 3),
            Duration.ofDays(1).plusHours(2).plusMinutes(3).plusSeconds(4).plusNanos(500_000_000),
            Duration.ofMillis(-250)};
        PayloadWriter w = new PayloadWriter();
        ValueCodec.writeRow(w, row);
        assertArrayEquals(row, ValueCodec.readRow(new PayloadReader(w.toByteArray())));
    }
}
