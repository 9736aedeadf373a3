package org.oooengine.core.types;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A column type. Values travel as plain Java objects:
 * BOOLEAN → Boolean, INT → Integer, BIGINT → Long, DOUBLE → Double,
 * DECIMAL(p,s) → Long holding the unscaled value (scaled long), DATE → Integer days since 1970-01-01,
 * TIMESTAMP → Long microseconds since 1970-01-01 00:00:00 ({@link LocalTimestamps}), CHAR/VARCHAR → String.
 */
public record DataType(TypeKind kind, int precision, int scale) {
    public static final DataType BOOLEAN = new DataType(TypeKind.BOOLEAN, 0, 0);
    public static final DataType INT = new DataType(TypeKind.INT, 0, 0);
    public static final DataType BIGINT = new DataType(TypeKind.BIGINT, 0, 0);
    public static final DataType DOUBLE = new DataType(TypeKind.DOUBLE, 0, 0);
    public static final DataType DATE = new DataType(TypeKind.DATE, 0, 0);
    public static final DataType TIMESTAMP = new DataType(TypeKind.TIMESTAMP, 0, 0);

    private static final Pattern SYNTAX = Pattern.compile("([A-Z]+)\\s*(?:\\(\\s*(\\d+)\\s*(?:,\\s*(\\d+)\\s*)?\\))?");

    public DataType {
        if (kind == TypeKind.DECIMAL && (precision < 1 || precision > 18 || scale < 0 || scale > precision)) {
            throw new IllegalArgumentException("DECIMAL(" + precision + "," + scale + ") does not fit a scaled long (precision 1..18)");
        }
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

    /** Parses the SQL spelling used in catalogs, e.g. {@code DECIMAL(15,2)} or {@code VARCHAR(25)}. */
    public static DataType parse(String text) {
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

    public boolean isString() {
        return kind == TypeKind.CHAR || kind == TypeKind.VARCHAR;
    }

    /** Renders a value for people: decimals with their scale, dates as ISO dates. */
    public String format(Object value) {
        if (value == null) {
            return "NULL";
        }
        return switch (kind) {
            case DECIMAL -> BigDecimal.valueOf((Long) value, scale).toPlainString();
            case DATE -> LocalDate.ofEpochDay((Integer) value).toString();
            case TIMESTAMP -> LocalTimestamps.format(LocalTimestamps.ofMicros((Long) value));
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
                case DECIMAL -> new BigDecimal(text).setScale(scale).unscaledValue().longValueExact();
                case DATE -> (int) LocalDate.parse(text).toEpochDay();
                case TIMESTAMP -> {
                    LocalDateTime t = LocalTimestamps.parse(text);
                    if (t == null) {
                        throw new IllegalArgumentException("not yyyy-MM-dd HH:mm:ss[.fffffffff]");
                    }
                    yield LocalTimestamps.toMicros(t);
                }
                case CHAR, VARCHAR -> text;
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
            default -> kind.toString();
        };
    }
}
