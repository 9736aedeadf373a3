package org.oooengine.core.units;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.Test;

class UnitsTest {
    @Test
    void sizesTakeBinaryUnitsAndCountAPlainNumberInTheGivenUnit() {
        assertEquals(512L << 20, Sizes.parse("512m", Sizes.BYTE));
        assertEquals(1L << 30, Sizes.parse("1g", Sizes.MIB));
        assertEquals(1L << 30, Sizes.parse("1GiB", Sizes.MIB));
        assertEquals(1L << 30, Sizes.parse("1 GB", Sizes.MIB));
        assertEquals(3L << 29, Sizes.parse("1.5g", Sizes.MIB));
        assertEquals(8192, Sizes.parse("8k", Sizes.BYTE));
        assertEquals(8192, Sizes.parse("8192", Sizes.BYTE));
        assertEquals(64L << 20, Sizes.parse("64", Sizes.MIB));
        assertEquals(100, Sizes.parse("100b", Sizes.MIB));
        assertEquals(0, Sizes.parse("0", Sizes.MIB));
    }

    @Test
    void badSizesAreRefusedNamingThePlainUnit() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Sizes.parse("lots", Sizes.MIB));
        assertTrue(e.getMessage().contains("'lots' is not a size") && e.getMessage().contains("a plain number is MiB"),
                e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Sizes.parse("-1m", Sizes.MIB));
        assertThrows(IllegalArgumentException.class, () -> Sizes.parse("1x", Sizes.MIB));
        assertThrows(IllegalArgumentException.class, () -> Sizes.parse("99999999999t", Sizes.MIB));
    }

    @Test
    void readableSizesTakeTheLargestUnitReachedToOneDecimal() {
        assertEquals("0 B", Sizes.readable(0));
        assertEquals("1023 B", Sizes.readable(1023));
        assertEquals("1.5 KiB", Sizes.readable(1536));
        assertEquals("12.3 MiB", Sizes.readable(12_897_485));
        assertEquals("2.0 GiB", Sizes.readable(2L << 30));
        assertEquals("1.0 TiB", Sizes.readable(1L << 40));
    }

    @Test
    void sizesFormatInTheLargestExactUnitAndParseBack() {
        for (long bytes : new long[] {0, 100, 8192, 64L << 20, 1L << 30, (1L << 30) + 1}) {
            assertEquals(bytes, Sizes.parse(Sizes.format(bytes), Sizes.MIB), Sizes.format(bytes));
        }
        assertEquals("1g", Sizes.format(1L << 30));
        assertEquals("64m", Sizes.format(64L << 20));
        assertEquals("100b", Sizes.format(100));
    }

    @Test
    void durationsTakeUnitsAndCountAPlainNumberInTheGivenUnit() {
        assertEquals(Duration.ofSeconds(30), Durations.parse("30s", ChronoUnit.MILLIS));
        assertEquals(Duration.ofMillis(500), Durations.parse("500ms", ChronoUnit.SECONDS));
        assertEquals(Duration.ofMinutes(5), Durations.parse("5m", ChronoUnit.SECONDS));
        assertEquals(Duration.ofMinutes(5), Durations.parse("5min", ChronoUnit.SECONDS));
        assertEquals(Duration.ofHours(1), Durations.parse("1h", ChronoUnit.SECONDS));
        assertEquals(Duration.ofMillis(1500), Durations.parse("1.5s", ChronoUnit.SECONDS));
        assertEquals(Duration.ofNanos(250_000), Durations.parse("250us", ChronoUnit.SECONDS));
        assertEquals(Duration.ofSeconds(30), Durations.parse("30", ChronoUnit.SECONDS));
        assertEquals(Duration.ofMillis(10_000), Durations.parse("10000", ChronoUnit.MILLIS));
        assertEquals(Duration.ofNanos(50_000), Durations.parse("50", ChronoUnit.MICROS));
    }

    @Test
    void badDurationsAreRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Durations.parse("soon", ChronoUnit.SECONDS));
        assertTrue(e.getMessage().contains("'soon' is not a duration") && e.getMessage().contains("a plain number is seconds"),
                e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Durations.parse("10", null), "a unit is demanded");
        assertEquals(Duration.ZERO, Durations.parse("0", null));
        assertThrows(IllegalArgumentException.class, () -> Durations.parse("-5s", ChronoUnit.SECONDS));
        assertThrows(IllegalArgumentException.class, () -> Durations.parse("5 parsecs", ChronoUnit.SECONDS));
    }

    @Test
    void durationsFormatInTheLargestExactUnitAndParseBack() {
        assertEquals("500ms", Durations.format(Duration.ofMillis(500)));
        assertEquals("10s", Durations.format(Duration.ofSeconds(10)));
        assertEquals("5m", Durations.format(Duration.ofMinutes(5)));
        assertEquals("250us", Durations.format(Duration.ofNanos(250_000)));
        for (Duration d : new Duration[] {Duration.ZERO, Duration.ofMillis(1500), Duration.ofHours(2), Duration.ofNanos(7)}) {
            assertEquals(d, Durations.parse(Durations.format(d), null), Durations.format(d));
        }
    }
}
