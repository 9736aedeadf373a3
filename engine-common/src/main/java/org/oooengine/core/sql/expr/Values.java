package org.oooengine.core.sql.expr;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.oooengine.core.sql.SqlException;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.types.LocalTimestamps;

/** Comparing and converting the Java values SQL types travel as (see {@link SqlType}). */
public final class Values {
    /** The text Hive's CAST reads as FALSE (any case); any other text is TRUE. */
    private static final Set<String> FALSE_TEXT = Set.of("", "0", "false", "no", "off");
    /** What Hive's CAST reads as an integer: digits with a sign, and a fraction it drops. */
    private static final Pattern WHOLE = Pattern.compile("([+-]?)([0-9]*)(?:\\.([0-9]*))?");

    private Values() {
    }

    /**
     * Total order within comparable types; numbers compare across kinds exactly; arrays element by
     * element (NULL first, then the shorter first), as Hive orders them.
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    public static int compare(Object a, Object b) {
        // strings and dates first, by their final classes (one pointer compare each): on JDK 17 an
        // instanceof of an interface a class does not implement (List, for every string) scans the
        // class's interfaces each time, about 40 ns a value
        if (a instanceof String x && b instanceof String y) {
            return x.compareTo(y);
        }
        if (a instanceof LocalDate x && b instanceof LocalDate y) {
            return x.compareTo(y);
        }
        if (a instanceof java.util.List<?> x && b instanceof java.util.List<?> y) {
            for (int i = 0; i < Math.min(x.size(), y.size()); i++) {
                Object p = x.get(i);
                Object q = y.get(i);
                int c = p == null ? (q == null ? 0 : -1) : q == null ? 1 : compare(p, q);
                if (c != 0) {
                    return c;
                }
            }
            return Integer.compare(x.size(), y.size());
        }
        if (a instanceof Number x && b instanceof Number y) {
            if (isIntegral(x) && isIntegral(y)) {
                return Long.compare(x.longValue(), y.longValue());
            }
            if (x instanceof Double || y instanceof Double) {
                return Double.compare(x.doubleValue(), y.doubleValue());
            }
            return decimal(x).compareTo(decimal(y));
        }
        return ((Comparable) a).compareTo(b);
    }

    /** Equality as GROUP BY and joins see it: 1 equals 1.0, decimals ignore trailing zeros. */
    public static Object groupKey(Object v) {
        if (v instanceof String || v instanceof Long || v instanceof LocalDate || v instanceof LocalDateTime) {
            return v; // its own key, told by a final class before any interface is tried (see compare)
        }
        if (v instanceof BigDecimal d) {
            BigDecimal s = d.stripTrailingZeros();
            if (s.scale() <= 0 && s.precision() - s.scale() <= 18) {
                return s.longValueExact(); // a whole decimal equals the integer of its value
            }
            return s;
        }
        if (v instanceof Integer i) {
            return (long) i;
        }
        if (v instanceof java.util.List<?> list) {
            java.util.List<Object> keys = new java.util.ArrayList<>(list.size());
            list.forEach(e -> keys.add(e == null ? null : groupKey(e)));
            return keys;
        }
        if (v instanceof java.util.Map<?, ?> map) {
            java.util.Map<Object, Object> keys = new java.util.LinkedHashMap<>();
            map.forEach((k, e) -> keys.put(k == null ? null : groupKey(k), e == null ? null : groupKey(e)));
            return keys;
        }
        return v;
    }

    /** An array or a map as Hive writes it in a result set: JSON text ({@code ["a","b"]}, {@code {"k":1}}). */
    public static String json(Object v) {
        return CollectionFunctions.json(v);
    }

    static boolean isIntegral(Number n) {
        return n instanceof Integer || n instanceof Long;
    }

    public static BigDecimal decimal(Number n) {
        if (n instanceof BigDecimal d) {
            return d;
        }
        if (isIntegral(n)) {
            return BigDecimal.valueOf(n.longValue());
        }
        return BigDecimal.valueOf(n.doubleValue());
    }

    /**
     * {@code v}, a value of {@code from}, as a value of {@code to}: as {@link #cast(Object, SqlType)},
     * except that a FLOAT reads as text as Hive writes a float ({@code 0.1}, not the double nearest it)
     * and a CHAR as anything but a CHAR drops its trailing spaces.
     */
    public static Object cast(Object v, SqlType from, SqlType to) {
        if (v != null && from.kind() == SqlType.Kind.FLOAT && to.isString()) {
            return cast(Float.toString(((Number) v).floatValue()), to);
        }
        if (v != null && from.kind() == SqlType.Kind.CHAR && to.kind() != SqlType.Kind.CHAR) {
            return cast(stripPad((String) v), to); // Hive: a CHAR read as other text loses its trailing pad
        }
        return cast(v, to);
    }

    /** A CHAR's value without the spaces that pad it (Hive's stripped value). */
    public static String stripPad(String s) {
        int end = s.length();
        while (end > 0 && s.charAt(end - 1) == ' ') {
            end--;
        }
        return s.substring(0, end);
    }

    /** {@code v} as a value of {@code to}; a value that does not fit is an error, as in a CAST that fails. */
    public static Object cast(Object v, SqlType to) {
        if (v == null) {
            return null;
        }
        if (v instanceof Boolean b && to.isNumeric()) {
            v = b ? 1 : 0; // Hive: TRUE is 1
        }
        if (v instanceof LocalDateTime t && to.isNumeric()) {
            // Hive: a timestamp as a number is its seconds since 1970 (at UTC), whole ones counted down
            v = to.isIntegral() ? (Object) t.toEpochSecond(ZoneOffset.UTC) : epochSeconds(t);
        }
        try {
            return switch (to.kind()) {
                case BOOLEAN -> truth(v);
                // a number narrows as Java's casts do (Hive's too): CAST(300 AS TINYINT) is 44
                case TINYINT, SMALLINT, INT -> v instanceof Number n ? to.wrapIntegral(n.intValue()) : inRange(whole(v.toString()), to);
                case BIGINT -> v instanceof Number n ? (Object) n.longValue() : (Object) whole(v.toString());
                case DOUBLE -> v instanceof Number n ? (Object) n.doubleValue() : Double.valueOf(v.toString().trim());
                case FLOAT -> (double) (v instanceof Number n ? n.floatValue() : Float.parseFloat(v.toString().trim()));
                case DECIMAL -> withinPrecision((v instanceof Number n ? decimal(n) : new BigDecimal(v.toString().trim()))
                        .setScale(to.scale(), RoundingMode.HALF_UP), to);
                case DATE -> v instanceof LocalDate ? v : v instanceof LocalDateTime t ? t.toLocalDate()
                        : LocalDate.parse(v.toString().trim());
                case TIMESTAMP -> timestamp(v);
                case STRING -> text(v);
                case VARCHAR -> truncate(text(v), to.precision());
                case CHAR -> pad(truncate(text(v), to.precision()), to.precision());
                case INTERVAL, VOID, ARRAY, MAP -> castCollection(v, to);
            };
        } catch (NumberFormatException | ArithmeticException | java.time.DateTimeException e) {
            // Hive's CAST yields NULL for text that is not a value of the type
            return null;
        }
    }

    /** An array or map brought to another array or map type element by element (the analyzer allows nothing else). */
    private static Object castCollection(Object v, SqlType to) {
        if (to.kind() == SqlType.Kind.ARRAY && v instanceof java.util.List<?> list) {
            java.util.List<Object> out = new java.util.ArrayList<>(list.size());
            list.forEach(e -> out.add(cast(e, to.elementType())));
            return out;
        }
        if (to.kind() == SqlType.Kind.MAP && v instanceof java.util.Map<?, ?> map) {
            java.util.Map<Object, Object> out = new java.util.LinkedHashMap<>();
            map.forEach((k, e) -> out.put(cast(k, to.keyType()), cast(e, to.valueType())));
            return out;
        }
        throw new SqlException(SqlException.GENERAL, "cannot cast to " + to);
    }

    /**
     * Hive's rule for a decimal that does not fit its type once rounded to the type's scale: it is
     * NULL (HiveDecimal.enforcePrecisionScale), whether cast, inserted or computed.
     */
    private static BigDecimal withinPrecision(BigDecimal d, SqlType to) {
        return d.precision() > to.precision() ? null : d;
    }

    /** Text read as a TINYINT, SMALLINT or INT: out of the type's range it is no value of it (NULL in Hive). */
    private static Object inRange(long v, SqlType to) {
        if (((Number) to.wrapIntegral(v)).longValue() != v) {
            throw new ArithmeticException(v + " is out of range for " + to);
        }
        return (int) v;
    }

    /** Hive's CAST to TIMESTAMP: a date at midnight, a number as seconds since 1970 at UTC, text as Hive reads it. */
    private static LocalDateTime timestamp(Object v) {
        if (v instanceof LocalDateTime t) {
            return LocalTimestamps.truncated(t);
        }
        if (v instanceof LocalDate d) {
            return d.atStartOfDay();
        }
        if (v instanceof Number n) {
            BigDecimal micros = decimal(n).movePointRight(6).setScale(0, RoundingMode.FLOOR);
            return LocalTimestamps.ofMicros(micros.longValueExact());
        }
        if (v instanceof String s) {
            LocalDateTime t = LocalTimestamps.parse(s);
            return t == null ? null : LocalTimestamps.truncated(t);
        }
        return null;
    }

    /** The seconds since 1970-01-01 00:00:00 of a timestamp read at UTC, with its fraction. */
    public static BigDecimal epochSeconds(LocalDateTime t) {
        return BigDecimal.valueOf(LocalTimestamps.toMicros(t), 6).stripTrailingZeros();
    }

    /** Hive's CAST to BOOLEAN: a number is true when not zero; text is false only as '', '0', 'false', 'no' or 'off'. */
    private static Boolean truth(Object v) {
        if (v instanceof Boolean b) {
            return b;
        }
        if (v instanceof BigDecimal d) {
            return d.signum() != 0;
        }
        if (v instanceof Number n) {
            return n.doubleValue() != 0; // NaN too, as in Hive
        }
        if (v instanceof String s) {
            return !FALSE_TEXT.contains(s.toLowerCase(Locale.ROOT));
        }
        return null; // Hive: a date has no truth value
    }

    /** Hive's integer of text: blanks around it ignored, a fraction truncated toward zero ('1.9' is 1, '.5' is 0). */
    private static long whole(String text) {
        Matcher m = WHOLE.matcher(text.strip());
        if (!m.matches() || m.group(2).isEmpty() && (m.group(3) == null || m.group(3).isEmpty())) {
            throw new NumberFormatException(text);
        }
        return m.group(2).isEmpty() ? 0 : Long.parseLong(m.group(1) + m.group(2));
    }

    /** How a value reads as text: decimals in plain notation, dates as ISO dates, booleans as Hive writes them (TRUE). */
    public static String text(Object v) {
        if (v instanceof BigDecimal d) {
            return d.toPlainString();
        }
        if (v instanceof Boolean b) {
            return b ? "TRUE" : "FALSE";
        }
        if (v instanceof LocalDateTime t) {
            return LocalTimestamps.format(t);
        }
        return v.toString();
    }

    private static String truncate(String s, int length) {
        return length > 0 && s.length() > length ? s.substring(0, length) : s;
    }

    private static String pad(String s, int length) {
        return s.length() >= length ? s : s + " ".repeat(length - s.length());
    }
}
