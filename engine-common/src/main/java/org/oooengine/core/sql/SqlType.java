package org.oooengine.core.sql;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.oooengine.core.types.DataType;
import org.oooengine.core.types.LocalTimestamps;

/**
 * A type as SQL sees it. Values travel as plain Java objects: BOOLEAN → Boolean, TINYINT, SMALLINT
 * and INT → Integer (within the type's range), BIGINT → Long, DOUBLE → Double, FLOAT → Double
 * holding a float's value, TIMESTAMP → LocalDateTime (to the microsecond), DECIMAL → BigDecimal (at the type's scale), DATE → LocalDate,
 * STRING/VARCHAR/CHAR → String, ARRAY → java.util.List of its elements (which may be null), MAP →
 * java.util.Map (a LinkedHashMap: its entries in the order they were made, as Hive keeps them); NULL
 * is null. VOID is the type of an untyped NULL literal.
 *
 * @param elements an ARRAY's element type, or a MAP's key and value types; empty for other kinds
 */
public record SqlType(Kind kind, int precision, int scale, List<SqlType> elements) {
    /** Ordinals travel on the wire (plans sent to the nodes): new kinds go last. */
    public enum Kind { BOOLEAN, INT, BIGINT, DOUBLE, DECIMAL, DATE, STRING, VARCHAR, CHAR, INTERVAL, VOID, TINYINT, SMALLINT, FLOAT, TIMESTAMP,
        ARRAY, MAP }

    public SqlType {
        elements = List.copyOf(elements);
        int expected = kind == Kind.ARRAY ? 1 : kind == Kind.MAP ? 2 : 0;
        if (elements.size() != expected) {
            throw new IllegalArgumentException("a " + kind + " type has " + expected + " element types, not " + elements.size());
        }
    }

    public SqlType(Kind kind, int precision, int scale) {
        this(kind, precision, scale, List.of());
    }

    public static final SqlType BOOLEAN = new SqlType(Kind.BOOLEAN, 0, 0);
    public static final SqlType INT = new SqlType(Kind.INT, 0, 0);
    public static final SqlType BIGINT = new SqlType(Kind.BIGINT, 0, 0);
    public static final SqlType TINYINT = new SqlType(Kind.TINYINT, 0, 0);
    public static final SqlType SMALLINT = new SqlType(Kind.SMALLINT, 0, 0);
    public static final SqlType FLOAT = new SqlType(Kind.FLOAT, 0, 0);
    public static final SqlType DOUBLE = new SqlType(Kind.DOUBLE, 0, 0);
    public static final SqlType DATE = new SqlType(Kind.DATE, 0, 0);
    /** A date and time of day without a time zone, as Hive's TIMESTAMP. */
    public static final SqlType TIMESTAMP = new SqlType(Kind.TIMESTAMP, 0, 0);
    public static final SqlType STRING = new SqlType(Kind.STRING, 0, 0);
    public static final SqlType VOID = new SqlType(Kind.VOID, 0, 0);
    /** A year-month or day-time interval (java.time.Period); only as an operand of date arithmetic. */
    public static final SqlType INTERVAL = new SqlType(Kind.INTERVAL, 0, 0);
    /** Hive's limit for DECIMAL precision. */
    public static final int MAX_PRECISION = 38;

    public static SqlType decimal(int precision, int scale) {
        return new SqlType(Kind.DECIMAL, Math.min(precision, MAX_PRECISION), scale);
    }

    /** ARRAY&lt;element&gt;. */
    public static SqlType array(SqlType element) {
        return new SqlType(Kind.ARRAY, 0, 0, List.of(element));
    }

    /** MAP&lt;key,value&gt;. */
    public static SqlType map(SqlType key, SqlType value) {
        return new SqlType(Kind.MAP, 0, 0, List.of(key, value));
    }

    /** ARRAY or MAP. */
    public boolean isComplex() {
        return kind == Kind.ARRAY || kind == Kind.MAP;
    }

    /** An ARRAY's element type. */
    public SqlType elementType() {
        if (kind != Kind.ARRAY) {
            throw new IllegalStateException(this + " has no element type");
        }
        return elements.get(0);
    }

    /** A MAP's key type. */
    public SqlType keyType() {
        if (kind != Kind.MAP) {
            throw new IllegalStateException(this + " has no key type");
        }
        return elements.get(0);
    }

    /** A MAP's value type. */
    public SqlType valueType() {
        if (kind != Kind.MAP) {
            throw new IllegalStateException(this + " has no value type");
        }
        return elements.get(1);
    }

    public static SqlType varchar(int length) {
        return new SqlType(Kind.VARCHAR, length, 0);
    }

    public static SqlType fixedChar(int length) {
        return new SqlType(Kind.CHAR, length, 0);
    }

    /** The SQL type of a stored column. */
    public static SqlType of(DataType t) {
        return switch (t.kind()) {
            case BOOLEAN -> BOOLEAN;
            case INT -> INT;
            case BIGINT -> BIGINT;
            case DOUBLE -> DOUBLE;
            case DECIMAL -> decimal(t.precision(), t.scale());
            case DATE -> DATE;
            case TIMESTAMP -> TIMESTAMP;
            case VARCHAR -> t.precision() > 0 ? varchar(t.precision()) : STRING;
            case CHAR -> fixedChar(t.precision());
            case ARRAY -> array(of(t.elements().get(0)));
            case MAP -> map(of(t.elements().get(0)), of(t.elements().get(1)));
        };
    }

    /** A value as the engine stores it for a column of this type (scaled long, epoch day) as SQL sees it. */
    public Object fromStored(Object stored) {
        if (stored == null) {
            return null;
        }
        return switch (kind) {
            case DECIMAL -> stored instanceof BigInteger wide ? new BigDecimal(wide, scale) : Decimals.of((Long) stored, scale);
            case DATE -> LocalDate.ofEpochDay((Integer) stored);
            case TIMESTAMP -> LocalTimestamps.ofMicros((Long) stored);
            case ARRAY -> eachElement((List<?>) stored, elementType()::fromStored);
            case MAP -> eachEntry((Map<?, ?>) stored, keyType()::fromStored, valueType()::fromStored);
            default -> stored;
        };
    }

    /**
     * The stored form of a SQL value of this type: the inverse of {@link #fromStored}; null for a
     * decimal with more digits than the type's precision, as Hive writes it.
     */
    public Object toStored(Object value) {
        if (value == null) {
            return null;
        }
        return switch (kind) {
            case DECIMAL -> {
                BigDecimal d = ((BigDecimal) value).setScale(scale, RoundingMode.HALF_UP);
                if (d.precision() > precision) {
                    yield null; // Hive: a decimal too wide for its type is NULL (a sum that outgrew 38 digits)
                }
                BigInteger unscaled = d.unscaledValue();
                yield precision > DataType.MAX_LONG_DECIMAL_PRECISION ? unscaled : (Object) unscaled.longValueExact();
            }
            case DATE -> (int) ((LocalDate) value).toEpochDay();
            case TIMESTAMP -> LocalTimestamps.toMicros((LocalDateTime) value);
            case ARRAY -> eachElement((List<?>) value, elementType()::toStored);
            case MAP -> eachEntry((Map<?, ?>) value, keyType()::toStored, valueType()::toStored);
            default -> value;
        };
    }

    private static List<Object> eachElement(List<?> list, UnaryOperator<Object> convert) {
        List<Object> out = new ArrayList<>(list.size());
        for (Object element : list) {
            out.add(convert.apply(element));
        }
        return out;
    }

    private static Map<Object, Object> eachEntry(Map<?, ?> map, UnaryOperator<Object> key, UnaryOperator<Object> value) {
        Map<Object, Object> out = new LinkedHashMap<>();
        map.forEach((k, v) -> out.put(key.apply(k), value.apply(v)));
        return out;
    }

    /**
     * A stored value read from a file for a column of this type, made one of the type: a FLOAT is
     * rounded to a float; a TINYINT or SMALLINT out of range is refused (IllegalArgumentException),
     * as a field that is no value of its column's type is.
     */
    public Object fitStored(Object stored) {
        if (stored == null) {
            return null;
        }
        return switch (kind) {
            case FLOAT -> (double) ((Double) stored).floatValue();
            case TINYINT, SMALLINT -> {
                if (!wrapIntegral((Integer) stored).equals(stored)) {
                    throw new IllegalArgumentException("'" + stored + "' is not a " + this + " value (out of range)");
                }
                yield stored;
            }
            default -> stored;
        };
    }

    /**
     * How the nodes store a column of this type. TINYINT and SMALLINT are stored as INT and FLOAT as
     * DOUBLE: their values already travel as those; the catalog keeps the declared type.
     */
    public DataType storedType() {
        return switch (kind) {
            case BOOLEAN -> DataType.BOOLEAN;
            case TINYINT, SMALLINT, INT -> DataType.INT;
            case BIGINT -> DataType.BIGINT;
            case FLOAT, DOUBLE -> DataType.DOUBLE;
            case DECIMAL -> DataType.decimal(precision, scale);
            case DATE -> DataType.DATE;
            case TIMESTAMP -> DataType.TIMESTAMP;
            case STRING -> DataType.varchar(0);
            case VARCHAR -> DataType.varchar(precision);
            case CHAR -> DataType.fixedChar(precision);
            case INTERVAL, VOID -> throw new SqlException(SqlException.NOT_SUPPORTED, "a column cannot be of type " + this);
            case ARRAY -> DataType.array(elementType().storedType());
            case MAP -> DataType.map(keyType().storedType(), valueType().storedType());
        };
    }

    /** The type {@link #toString} spells, e.g. {@code decimal(15,2)}, {@code string}. */
    public static SqlType parse(String text) {
        String t = text.strip().toLowerCase(java.util.Locale.ROOT);
        if (t.startsWith("array<") && t.endsWith(">")) {
            return array(parse(t.substring(6, t.length() - 1)));
        }
        if (t.startsWith("map<") && t.endsWith(">")) {
            String inner = t.substring(4, t.length() - 1);
            int comma = DataType.topLevelComma(inner);
            if (comma < 0) {
                throw new IllegalArgumentException("not a type: '" + text + "'");
            }
            return map(parse(inner.substring(0, comma)), parse(inner.substring(comma + 1)));
        }
        switch (t) {
            case "string":
                return STRING;
            case "tinyint":
                return TINYINT;
            case "smallint":
                return SMALLINT;
            case "float":
                return FLOAT;
            default:
                break;
        }
        return of(DataType.parse(t));
    }

    public boolean isNumeric() {
        return isIntegral() || kind == Kind.DOUBLE || kind == Kind.FLOAT || kind == Kind.DECIMAL;
    }

    /** TINYINT, SMALLINT, INT or BIGINT. */
    public boolean isIntegral() {
        return kind == Kind.TINYINT || kind == Kind.SMALLINT || kind == Kind.INT || kind == Kind.BIGINT;
    }

    /** TINYINT, SMALLINT or INT: values travel as Integer. */
    public boolean isIntLike() {
        return kind == Kind.TINYINT || kind == Kind.SMALLINT || kind == Kind.INT;
    }

    /** FLOAT or DOUBLE: values travel as Double. */
    public boolean isApproximate() {
        return kind == Kind.FLOAT || kind == Kind.DOUBLE;
    }

    /**
     * A whole number as this integral type holds it: Hive narrows by dropping the high bits, so
     * 300 as a TINYINT is 44 (Java's casts do the same).
     */
    public Object wrapIntegral(long v) {
        return switch (kind) {
            case TINYINT -> (int) (byte) v;
            case SMALLINT -> (int) (short) v;
            case INT -> (int) v;
            default -> v;
        };
    }

    public boolean isString() {
        return kind == Kind.STRING || kind == Kind.VARCHAR || kind == Kind.CHAR;
    }

    /** Hive's spelling, e.g. {@code decimal(15,2)}, {@code varchar(25)}, {@code string}. */
    @Override
    public String toString() {
        return switch (kind) {
            case DECIMAL -> "decimal(" + precision + "," + scale + ")";
            case VARCHAR, CHAR -> kind.name().toLowerCase() + "(" + precision + ")";
            case ARRAY -> "array<" + elements.get(0) + ">";
            case MAP -> "map<" + elements.get(0) + "," + elements.get(1) + ">";
            default -> kind.name().toLowerCase();
        };
    }
}
