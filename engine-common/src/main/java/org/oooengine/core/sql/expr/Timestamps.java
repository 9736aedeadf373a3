package org.oooengine.core.sql.expr;

import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.oooengine.core.types.LocalTimestamps;

/**
 * Timestamps written as text, the way Hive's date functions read them: {@code 'yyyy-MM-dd'},
 * optionally followed by a space (or T) and {@code HH:mm[:ss[.fffffffff]]}
 * ({@link LocalTimestamps#parse}). Anything else, or a day or time that does not exist, is null.
 */
final class Timestamps {
    private static final Pattern TIME = Pattern.compile("\\s*(\\d{1,2}):(\\d{1,2}):(\\d{1,2})(?:\\.(\\d{1,9}))?\\s*");

    private Timestamps() {
    }

    /** A date or a date and time; null when {@code text} is neither. */
    static LocalDateTime parse(String text) {
        return LocalTimestamps.parse(text);
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

    private static java.time.LocalTime time(String hour, String minute, String second, String fraction) {
        return LocalTimestamps.time(hour, minute, second, fraction);
    }
}
