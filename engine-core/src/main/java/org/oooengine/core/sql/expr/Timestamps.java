package org.oooengine.core.sql.expr;

import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Timestamps written as text, the way Hive's date functions read them while the engine has no
 * TIMESTAMP type: {@code 'yyyy-MM-dd'}, optionally followed by a space (or T) and
 * {@code HH:mm[:ss[.fffffffff]]}. Anything else, or a day or time that does not exist, is null.
 */
final class Timestamps {
    private static final Pattern TIMESTAMP = Pattern.compile(
            "\\s*(\\d{4})-(\\d{1,2})-(\\d{1,2})(?:[ T](\\d{1,2}):(\\d{1,2})(?::(\\d{1,2})(?:\\.(\\d{1,9}))?)?)?\\s*");
    private static final Pattern TIME = Pattern.compile("\\s*(\\d{1,2}):(\\d{1,2}):(\\d{1,2})(?:\\.(\\d{1,9}))?\\s*");

    private Timestamps() {
    }

    /** A date or a date and time; null when {@code text} is neither. */
    static LocalDateTime parse(String text) {
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

    /** As {@link #parse}, and also a time of day alone ({@code 'HH:mm:ss'}), which Hive's hour, minute and second read. */
    static LocalDateTime parseWithTime(String text) {
        LocalDateTime t = parse(text);
        if (t != null) {
            return t;
        }
        Matcher m = TIME.matcher(text);
        if (!m.matches()) {
            return null;
        }
        try {
            return LocalDate.EPOCH.atTime(time(m.group(1), m.group(2), m.group(3), m.group(4)));
        } catch (DateTimeException e) {
            return null;
        }
    }

    private static LocalTime time(String hour, String minute, String second, String fraction) {
        int nanos = fraction == null ? 0 : Integer.parseInt((fraction + "00000000").substring(0, 9));
        return LocalTime.of(Integer.parseInt(hour), Integer.parseInt(minute), second == null ? 0 : Integer.parseInt(second), nanos);
    }
}
