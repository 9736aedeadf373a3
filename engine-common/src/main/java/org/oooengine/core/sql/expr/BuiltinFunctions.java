package org.oooengine.core.sql.expr;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.text.SimpleDateFormat;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.time.temporal.TemporalAdjusters;
import java.util.Date;
import java.util.Locale;
import java.util.TimeZone;
import org.oooengine.core.sql.SqlException;
import org.oooengine.core.sql.SqlType;

/**
 * Hive's built-in scalar functions (the {@link ScalarFunction}s after COALESCE), with Hive's
 * answers where they are not the obvious ones: NULL, not an error, for a logarithm of zero, the
 * square root of a negative number, a text that is no date, or an unknown format. Arguments were
 * typed by the analyzer; a date argument may still be text (Hive reads {@code 'yyyy-MM-dd'} with
 * or without a time), which is read here so that a bad one is NULL as in Hive.
 */
final class BuiltinFunctions {
    /** The longest text {@code repeat} and the pads make: past it a query fails rather than the node's memory. */
    static final int MAX_TEXT = 64 << 20;

    private BuiltinFunctions() {
    }

    /** Functions that see NULL arguments rather than returning NULL for them. */
    static boolean takesNulls(ScalarFunction f) {
        return f == ScalarFunction.NULLIF || f == ScalarFunction.CONCAT_WS;
    }

    static Object apply(ScalarFunction f, Object[] v, SqlType type) {
        return switch (f) {
            case TRUNC_NUMBER -> truncNumber((Number) v[0], v.length > 1 ? ((Number) v[1]).intValue() : 0, type);
            case TRUNC_DATE -> truncDate(v[0], (String) v[1]);
            case NULLIF -> v[0] == null || v[1] != null && Values.compare(v[0], v[1]) == 0 ? null : v[0];
            case PMOD -> pmod((Number) v[0], (Number) v[1], type);
            case GREATEST -> extreme(v, 1);
            case LEAST -> extreme(v, -1);
            case SIGN -> sign((Number) v[0], type);
            case SQRT -> real(v[0]) < 0 ? null : (Object) Math.sqrt(real(v[0]));
            case LN -> real(v[0]) <= 0 ? null : (Object) Math.log(real(v[0]));
            case LOG10 -> real(v[0]) <= 0 ? null : (Object) Math.log10(real(v[0]));
            case LOG2 -> real(v[0]) <= 0 ? null : (Object) (Math.log(real(v[0])) / Math.log(2));
            // Hive: a base of at most 1 has no logarithm
            case LOG -> real(v[0]) <= 1 || real(v[1]) <= 0 ? null : (Object) (Math.log(real(v[1])) / Math.log(real(v[0])));
            case EXP -> Math.exp(real(v[0]));
            case POWER -> Math.pow(real(v[0]), real(v[1]));
            case DATE_FORMAT -> dateFormat(v[0], (String) v[1]);
            case LAST_DAY -> text(date(v[0]) == null ? null : date(v[0]).with(TemporalAdjusters.lastDayOfMonth()));
            case QUARTER -> date(v[0]) == null ? null : (Object) ((date(v[0]).getMonthValue() + 2) / 3);
            case ADD_MONTHS -> addMonths(date(v[0]), ((Number) v[1]).intValue());
            case HOUR -> timeField(v[0], ChronoUnit.HOURS);
            case MINUTE -> timeField(v[0], ChronoUnit.MINUTES);
            case SECOND -> timeField(v[0], ChronoUnit.SECONDS);
            case DATE_ADD -> date(v[0]) == null ? null : date(v[0]).plusDays(((Number) v[1]).longValue());
            case DATE_SUB -> date(v[0]) == null ? null : date(v[0]).minusDays(((Number) v[1]).longValue());
            case DATEDIFF -> date(v[0]) == null || date(v[1]) == null ? null
                    : (Object) (int) ChronoUnit.DAYS.between(date(v[1]), date(v[0]));
            case LPAD -> pad((String) v[0], ((Number) v[1]).intValue(), (String) v[2], true);
            case RPAD -> pad((String) v[0], ((Number) v[1]).intValue(), (String) v[2], false);
            case REPEAT -> repeat((String) v[0], ((Number) v[1]).intValue());
            case REPLACE -> ((String) v[1]).isEmpty() ? v[0] : ((String) v[0]).replace((String) v[1], (String) v[2]);
            case INSTR -> ((String) v[0]).indexOf((String) v[1]) + 1;
            case LOCATE -> locate((String) v[0], (String) v[1], v.length > 2 ? ((Number) v[2]).intValue() : 1);
            case LTRIM -> trimSpaces((String) v[0], true, false);
            case RTRIM -> trimSpaces((String) v[0], false, true);
            case REVERSE -> new StringBuilder((String) v[0]).reverse().toString();
            case ASCII -> ascii((String) v[0]);
            case CONCAT_WS -> concatWs(v);
            case TO_DATE -> date(v[0]);
            case UNIX_TIMESTAMP -> unixTimestamp(v[0], v.length > 1 ? (String) v[1] : null);
            case FROM_UNIXTIME -> fromUnixtime(((Number) v[0]).longValue(), v.length > 1 ? (String) v[1] : DEFAULT_PATTERN);
            default -> throw new IllegalArgumentException(f + " is not a built-in function");
        };
    }

    private static double real(Object n) {
        return ((Number) n).doubleValue();
    }

    private static String text(LocalDate d) {
        return d == null ? null : d.toString();
    }

    /** Hive's trunc of a number: toward zero, to {@code digits} places (negative: left of the point). */
    private static Object truncNumber(Number n, int digits, SqlType type) {
        return switch (type.kind()) {
            case TINYINT, SMALLINT, INT -> digits >= 0 ? n : (Object) Values.decimal(n).setScale(digits, RoundingMode.DOWN).intValue();
            case BIGINT -> digits >= 0 ? n : (Object) Values.decimal(n).setScale(digits, RoundingMode.DOWN).longValue();
            // the double's exact binary value, as Hive's: trunc(0.3, 1) is 0.2
            case DOUBLE -> new BigDecimal(n.doubleValue()).setScale(digits, RoundingMode.DOWN).doubleValue();
            case FLOAT -> (double) new BigDecimal(n.doubleValue()).setScale(digits, RoundingMode.DOWN).floatValue();
            default -> Values.decimal(n).setScale(digits, RoundingMode.DOWN).setScale(type.scale(), RoundingMode.DOWN);
        };
    }

    /** Hive's trunc of a date to its month, quarter or year; the format as Hive spells it (upper case), else NULL. */
    private static String truncDate(Object value, String format) {
        LocalDate d = date(value);
        if (d == null) {
            return null;
        }
        return switch (format) {
            case "MONTH", "MON", "MM" -> d.withDayOfMonth(1).toString();
            case "QUARTER", "Q" -> LocalDate.of(d.getYear(), (d.getMonthValue() - 1) / 3 * 3 + 1, 1).toString();
            case "YEAR", "YYYY", "YY" -> LocalDate.of(d.getYear(), 1, 1).toString();
            default -> null;
        };
    }

    /** The positive remainder: {@code ((a % b) + b) % b}; NULL for a zero divisor, as Hive's %. */
    private static Object pmod(Number a, Number b, SqlType type) {
        switch (type.kind()) {
            case TINYINT, SMALLINT, INT, BIGINT -> {
                long x = a.longValue();
                long y = b.longValue();
                if (y == 0) {
                    return null;
                }
                return type.wrapIntegral(((x % y) + y) % y);
            }
            case FLOAT, DOUBLE -> {
                double x = a.doubleValue();
                double y = b.doubleValue();
                double r = ((x % y) + y) % y;
                return y == 0 ? null : (Object) (type.kind() == SqlType.Kind.FLOAT ? (double) (float) r : r);
            }
            default -> {
                BigDecimal x = Values.decimal(a);
                BigDecimal y = Values.decimal(b);
                if (y.signum() == 0) {
                    return null;
                }
                return x.remainder(y).add(y).remainder(y).setScale(type.scale(), RoundingMode.HALF_UP);
            }
        }
    }

    /** greatest ({@code order} 1) or least (-1) of values already of one type. */
    private static Object extreme(Object[] v, int order) {
        Object best = v[0];
        for (int i = 1; i < v.length; i++) {
            if (Values.compare(v[i], best) * order > 0) {
                best = v[i];
            }
        }
        return best;
    }

    /** Hive's sign: a DOUBLE of -1, 0 or 1; an INT for a decimal. */
    private static Object sign(Number n, SqlType type) {
        int s = n instanceof BigDecimal d ? d.signum() : n instanceof Double x ? (int) Math.signum(x) : Long.signum(n.longValue());
        return type.kind() == SqlType.Kind.INT ? (Object) s : (Object) (double) s;
    }

    /** Hive's add_months: the day kept where the month has it, else its last; the last day of a month stays the last. */
    private static String addMonths(LocalDate d, int months) {
        if (d == null) {
            return null;
        }
        LocalDate r = d.plusMonths(months);
        if (d.getDayOfMonth() == d.lengthOfMonth()) {
            r = r.with(TemporalAdjusters.lastDayOfMonth());
        }
        return r.toString();
    }

    /** Hive formats with java.text.SimpleDateFormat in UTC; a pattern it cannot read gives NULL. */
    private static String dateFormat(Object value, String pattern) {
        LocalDateTime t = timestamp(value);
        if (t == null) {
            return null;
        }
        SimpleDateFormat format = format(pattern);
        return format == null ? null : format.format(Date.from(t.toInstant(ZoneOffset.UTC)));
    }

    /** The text unix_timestamp and from_unixtime read and write without a pattern. */
    static final String DEFAULT_PATTERN = "yyyy-MM-dd HH:mm:ss";

    /** A SimpleDateFormat of {@code pattern} at UTC, the engine's time zone; null for a pattern it cannot read. */
    private static SimpleDateFormat format(String pattern) {
        try {
            SimpleDateFormat format = new SimpleDateFormat(pattern, Locale.US);
            format.setTimeZone(TimeZone.getTimeZone("UTC"));
            return format;
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /**
     * Hive's unix_timestamp of a timestamp or date (its seconds since 1970 at UTC), or of text
     * read with {@code pattern} (NULL when it does not parse).
     */
    private static Object unixTimestamp(Object value, String pattern) {
        if (pattern == null) {
            LocalDateTime t = timestamp(value);
            return t == null ? null : (Object) t.toEpochSecond(ZoneOffset.UTC);
        }
        SimpleDateFormat format = format(pattern);
        if (format == null) {
            return null;
        }
        try {
            return format.parse((String) value).getTime() / 1000;
        } catch (java.text.ParseException e) {
            return null;
        }
    }

    /** Hive's from_unixtime: the seconds since 1970 written with {@code pattern} at UTC. */
    private static String fromUnixtime(long seconds, String pattern) {
        SimpleDateFormat format = format(pattern);
        return format == null ? null : format.format(new Date(seconds * 1000));
    }

    /** A timestamp argument: a TIMESTAMP, a DATE at midnight, or text Hive reads as one; NULL when it is not. */
    static LocalDateTime timestamp(Object value) {
        if (value instanceof LocalDateTime t) {
            return t;
        }
        return value instanceof LocalDate d ? d.atStartOfDay() : Timestamps.parse((String) value);
    }

    /** hour, minute or second of a timestamp's text ({@code 'yyyy-MM-dd HH:mm:ss'}, a date, or {@code 'HH:mm:ss'}). */
    private static Object timeField(Object value, ChronoUnit unit) {
        LocalDateTime t = value instanceof LocalDateTime ts ? ts
                : value instanceof LocalDate d ? d.atStartOfDay() : Timestamps.parseWithTime((String) value);
        if (t == null) {
            return null;
        }
        return switch (unit) {
            case HOURS -> t.getHour();
            case MINUTES -> t.getMinute();
            default -> t.getSecond();
        };
    }

    /** A date argument: a DATE, or text Hive reads as one; NULL when it is not. */
    static LocalDate date(Object value) {
        if (value instanceof LocalDate d) {
            return d;
        }
        if (value instanceof LocalDateTime t) {
            return t.toLocalDate();
        }
        LocalDateTime t = Timestamps.parse((String) value);
        return t == null ? null : t.toLocalDate();
    }

    /**
     * Hive's lpad/rpad: {@code s} padded with repeats of {@code pad} to {@code length} characters,
     * or cut to them when longer; NULL for a negative length or an empty pad that has to pad.
     */
    private static String pad(String s, int length, String pad, boolean left) {
        if (length < 0 || length > MAX_TEXT) {
            return tooLong(length);
        }
        if (length <= s.length()) {
            return s.substring(0, length);
        }
        if (pad.isEmpty()) {
            return null;
        }
        StringBuilder fill = new StringBuilder(length - s.length());
        while (fill.length() < length - s.length()) {
            fill.append(pad, 0, Math.min(pad.length(), length - s.length() - fill.length()));
        }
        return left ? fill + s : s + fill;
    }

    private static String tooLong(int length) {
        if (length < 0) {
            return null;
        }
        throw new SqlException(SqlException.DATA, "a text of " + length + " characters: the most is " + MAX_TEXT);
    }

    private static String repeat(String s, int times) {
        if (times <= 0 || s.isEmpty()) {
            return "";
        }
        if ((long) s.length() * times > MAX_TEXT) {
            tooLong((int) Math.min(Integer.MAX_VALUE, (long) s.length() * times));
        }
        return s.repeat(times);
    }

    /** Hive's locate: the 1-based position of {@code sub} in {@code s} from position {@code from}, 0 when absent. */
    private static int locate(String sub, String s, int from) {
        if (from < 1 || from > s.length() + 1) {
            return 0;
        }
        return s.indexOf(sub, from - 1) + 1;
    }

    /** Hive's trims remove spaces only, not other white space. */
    static String trimSpaces(String s, boolean leading, boolean trailing) {
        int start = 0;
        int end = s.length();
        while (leading && start < end && s.charAt(start) == ' ') {
            start++;
        }
        while (trailing && end > start && s.charAt(end - 1) == ' ') {
            end--;
        }
        return s.substring(start, end);
    }

    /** concat_ws: NULL for a NULL separator; NULL strings are left out. */
    /**
     * Hive's ascii(): the first byte of the string's UTF-8 encoding as a signed byte — a character's
     * code for ASCII, negative for the lead byte of any other ('é' gives -61) — and 0 for ''.
     */
    private static int ascii(String s) {
        if (s.isEmpty()) {
            return 0;
        }
        char c = s.charAt(0);
        return c < 0x80 ? c : s.substring(0, Character.charCount(s.codePointAt(0)))
                .getBytes(java.nio.charset.StandardCharsets.UTF_8)[0];
    }

    private static String concatWs(Object[] v) {
        if (v[0] == null) {
            return null;
        }
        StringBuilder b = new StringBuilder();
        boolean first = true;
        for (int i = 1; i < v.length; i++) {
            if (v[i] != null) {
                if (!first) {
                    b.append((String) v[0]);
                }
                b.append(Values.text(v[i]));
                first = false;
            }
        }
        return b.toString();
    }
}
