package org.oooengine.core.types;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A column type. Values travel as plain Java objects:
 * BOOLEAN → Boolean, INT → Integer, BIGINT → Long, DOUBLE → Double,
 * DECIMAL(p,s) → Long holding the unscaled value (scaled long) up to precision 18, BigInteger holding it
 * above ({@link #isWideDecimal}), DATE → Integer days since 1970-01-01,
 * TIMESTAMP → Long microseconds since 1970-01-01 00:00:00 ({@link LocalTimestamps}), CHAR/VARCHAR → String,
 * ARRAY → java.util.List of its elements' values (which may be null), MAP → java.util.Map (a
 * LinkedHashMap, in the order its entries were made) of its keys' and values' values.
 *
 * @param elements an ARRAY's element type, or a MAP's key and value types; empty for other kinds
 */
public record DataType(TypeKind kind, int precision, int scale, List<DataType> elements) {
    public static final DataType BOOLEAN = new DataType(TypeKind.BOOLEAN, 0, 0);
    public static final DataType INT = new DataType(TypeKind.INT, 0, 0);
    public static final DataType BIGINT = new DataType(TypeKind.BIGINT, 0, 0);
    public static final DataType DOUBLE = new DataType(TypeKind.DOUBLE, 0, 0);
    public static final DataType DATE = new DataType(TypeKind.DATE, 0, 0);
    public static final DataType TIMESTAMP = new DataType(TypeKind.TIMESTAMP, 0, 0);

    private static final Pattern SYNTAX = Pattern.compile("([A-Z]+)\\s*(?:\\(\\s*(\\d+)\\s*(?:,\\s*(\\d+)\\s*)?\\))?");

    /** The widest DECIMAL held as a scaled long; wider ones (up to {@link #MAX_DECIMAL_PRECISION}) hold a BigInteger. */
    public static final int MAX_LONG_DECIMAL_PRECISION = 18;
    /** Hive's limit for DECIMAL precision: the unscaled value fits 128 bits. */
    public static final int MAX_DECIMAL_PRECISION = 38;

    public DataType {
        elements = List.copyOf(elements);
        int expected = kind == TypeKind.ARRAY ? 1 : kind == TypeKind.MAP ? 2 : 0;
        if (elements.size() != expected) {
            throw new IllegalArgumentException("a " + kind + " type has " + expected + " element types, not " + elements.size());
        }
        if (kind == TypeKind.DECIMAL && (precision < 1 || precision > MAX_DECIMAL_PRECISION || scale < 0 || scale > precision)) {
            throw new IllegalArgumentException("DECIMAL(" + precision + "," + scale + ") is no decimal type (precision 1.."
                    + MAX_DECIMAL_PRECISION + ", scale 0..precision)");
        }
    }

    public DataType(TypeKind kind, int precision, int scale) {
        this(kind, precision, scale, List.of());
    }

    /** ARRAY&lt;element&gt;. */
    public static DataType array(DataType element) {
        return new DataType(TypeKind.ARRAY, 0, 0, List.of(element));
    }

    /** MAP&lt;key,value&gt;. */
    public static DataType map(DataType key, DataType value) {
        return new DataType(TypeKind.MAP, 0, 0, List.of(key, value));
    }

    /** ARRAY or MAP: values that hold values of other types, which no key or statistic orders. */
    public boolean isComplex() {
        return kind == TypeKind.ARRAY || kind == TypeKind.MAP;
    }

    public static DataType decimal(int precision, int scale) {
        return new DataType(TypeKind.DECIMAL, precision, scale);
    }

    public static DataType varchar(int length) {
        return new DataType(TypeKind.VARCHAR, length, 0);
    }

    public static DataType fixedChar(int length) {
        return new DataType(TypeKind.CHAR, length, 0);
    }

    /**
     * Parses the SQL spelling used in catalogs, e.g. {@code DECIMAL(15,2)}, {@code VARCHAR(25)} or
     * {@code MAP<VARCHAR,ARRAY<INT>>}.
     */
    public static DataType parse(String text) {
        String t = text.strip();
        String upper = t.toUpperCase(Locale.ROOT);
        if (upper.startsWith("ARRAY<") && upper.endsWith(">")) {
            return array(parse(t.substring(6, t.length() - 1)));
        }
        if (upper.startsWith("MAP<") && upper.endsWith(">")) {
            String inner = t.substring(4, t.length() - 1);
            int comma = topLevelComma(inner);
            if (comma < 0) {
                throw new IllegalArgumentException("not a type: '" + text + "'");
            }
            return map(parse(inner.substring(0, comma)), parse(inner.substring(comma + 1)));
        }
        Matcher m = SYNTAX.matcher(text.trim().toUpperCase(Locale.ROOT));
        if (!m.matches()) {
            throw new IllegalArgumentException("not a type: '" + text + "'");
        }
        TypeKind kind;
        try {
            kind = TypeKind.valueOf(m.group(1));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown type '" + m.group(1) + "' in '" + text + "'");
        }
        int p = m.group(2) == null ? 0 : Integer.parseInt(m.group(2));
        int s = m.group(3) == null ? 0 : Integer.parseInt(m.group(3));
        return new DataType(kind, p, s);
    }

    /** The first comma outside angle brackets and parentheses, or -1. */
    public static int topLevelComma(String s) {
        int depth = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '<' || c == '(') {
                depth++;
            } else if (c == '>' || c == ')') {
                depth--;
            } else if (c == ',' && depth == 0) {
                return i;
            }
        }
        return -1;
    }

    /** A DECIMAL too wide for a scaled long: its values are unscaled BigIntegers. */
    public boolean isWideDecimal() {
        return kind == TypeKind.DECIMAL && precision > MAX_LONG_DECIMAL_PRECISION;
    }

    public boolean isString() {
        return kind == TypeKind.CHAR || kind == TypeKind.VARCHAR;
    }

    /** Renders a value for people: decimals with their scale, dates as ISO dates. */
    public String format(Object value) {
        if (value == null) {
            return "NULL";
        }
        return switch (kind) {
            case DECIMAL -> (value instanceof BigInteger wide ? new BigDecimal(wide, scale)
                    : BigDecimal.valueOf((Long) value, scale)).toPlainString();
            case DATE -> LocalDate.ofEpochDay((Integer) value).toString();
            case TIMESTAMP -> LocalTimestamps.format(LocalTimestamps.ofMicros((Long) value));
            case ARRAY -> ((List<?>) value).stream().map(elements.get(0)::format).collect(Collectors.joining(", ", "[", "]"));
            case MAP -> ((Map<?, ?>) value).entrySet().stream()
                    .map(e -> elements.get(0).format(e.getKey()) + ": " + elements.get(1).format(e.getValue()))
                    .collect(Collectors.joining(", ", "{", "}"));
            default -> value.toString();
        };
    }

    /**
     * The value {@link #format} rendered as {@code text} (not NULL): a decimal with more digits
     * after the point than this type's scale is refused rather than rounded.
     */
    public Object parseValue(String text) {
        try {
            return switch (kind) {
                case BOOLEAN -> Boolean.parseBoolean(text);
                case INT -> Integer.parseInt(text);
                case BIGINT -> Long.parseLong(text);
                case DOUBLE -> Double.parseDouble(text);
                case DECIMAL -> {
                    BigInteger unscaled = new BigDecimal(text).setScale(scale).unscaledValue();
                    if (unscaled.abs().compareTo(BigInteger.TEN.pow(precision)) >= 0) {
                        throw new ArithmeticException("more than " + precision + " digits");
                    }
                    yield isWideDecimal() ? unscaled : (Object) unscaled.longValueExact();
                }
                case DATE -> (int) LocalDate.parse(text).toEpochDay();
                case TIMESTAMP -> {
                    LocalDateTime t = LocalTimestamps.parse(text);
                    if (t == null) {
                        throw new IllegalArgumentException("not yyyy-MM-dd HH:mm:ss[.fffffffff]");
                    }
                    yield LocalTimestamps.toMicros(t);
                }
                case CHAR, VARCHAR -> text;
                case ARRAY, MAP -> throw new IllegalArgumentException("values of " + this + " are not read from text");
            };
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("'" + text + "' is not a " + this + " value", e);
        }
    }

    @Override
    public String toString() {
        return switch (kind) {
            case DECIMAL -> "DECIMAL(" + precision + "," + scale + ")";
            case CHAR, VARCHAR -> precision > 0 ? kind + "(" + precision + ")" : kind.toString();
            case ARRAY -> "ARRAY<" + elements.get(0) + ">";
            case MAP -> "MAP<" + elements.get(0) + "," + elements.get(1) + ">";
            default -> kind.toString();
        };
    }
}
