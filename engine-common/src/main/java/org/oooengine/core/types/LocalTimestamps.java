package org.oooengine.core.types;

import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Hive's TIMESTAMP: a date and a time of day with no time zone (java.time.LocalDateTime). Stored
 * as microseconds since 1970-01-01 00:00:00, read as if at UTC, so that the stored longs order as
 * the timestamps do; finer fractions are cut to the microsecond. Text is Hive's:
 * {@code yyyy-MM-dd HH:mm:ss}, with the fraction of a second only when there is one, without
 * trailing zeros ({@code 2024-01-02 03:04:05.12}).
 */
public final class LocalTimestamps {
    private static final Pattern TIMESTAMP = Pattern.compile(
            "\\s*(\\d{4})-(\\d{1,2})-(\\d{1,2})(?:[ T](\\d{1,2}):(\\d{1,2})(?::(\\d{1,2})(?:\\.(\\d{1,9}))?)?)?\\s*");

    private LocalTimestamps() {
    }

    public static long toMicros(LocalDateTime t) {
        long seconds = t.toEpochSecond(ZoneOffset.UTC);
        return Math.addExact(Math.multiplyExact(seconds, 1_000_000L), t.getNano() / 1_000);
    }

    public static LocalDateTime ofMicros(long micros) {
        return LocalDateTime.ofEpochSecond(Math.floorDiv(micros, 1_000_000L),
                (int) Math.floorMod(micros, 1_000_000L) * 1_000, ZoneOffset.UTC);
    }

    /** {@code t} as the engine keeps timestamps: to the microsecond. */
    public static LocalDateTime truncated(LocalDateTime t) {
        return t.truncatedTo(ChronoUnit.MICROS);
    }

    /** Hive's text of a timestamp. */
    public static String format(LocalDateTime t) {
        StringBuilder b = new StringBuilder(29);
        b.append(t.toLocalDate()).append(' ');
        two(b, t.getHour()).append(':');
        two(b, t.getMinute()).append(':');
        two(b, t.getSecond());
        if (t.getNano() != 0) {
            String fraction = Integer.toString(1_000_000_000 + t.getNano()).substring(1);
            int end = fraction.length();
            while (fraction.charAt(end - 1) == '0') {
                end--;
            }
            b.append('.').append(fraction, 0, end);
        }
        return b.toString();
    }

    private static StringBuilder two(StringBuilder b, int v) {
        return b.append(v < 10 ? "0" : "").append(v);
    }

    /**
     * A timestamp written as Hive reads one: {@code yyyy-MM-dd}, optionally followed by a space
     * (or T) and {@code HH:mm[:ss[.fffffffff]]}; null for anything else or a day or time that does
     * not exist.
     */
    public static LocalDateTime parse(String text) {
        Matcher m = TIMESTAMP.matcher(text);
        if (!m.matches()) {
            return null;
        }
        try {
            LocalDate day = LocalDate.of(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)));
            if (m.group(4) == null) {
                return day.atStartOfDay();
            }
            return day.atTime(time(m.group(4), m.group(5), m.group(6), m.group(7)));
        } catch (DateTimeException e) {
            return null;
        }
    }

    /** A time of day from its fields as text; the fraction has up to nine digits. */
    public static LocalTime time(String hour, String minute, String second, String fraction) {
        int nanos = fraction == null ? 0 : Integer.parseInt((fraction + "00000000").substring(0, 9));
        return LocalTime.of(Integer.parseInt(hour), Integer.parseInt(minute), second == null ? 0 : Integer.parseInt(second), nanos);
    }
}
