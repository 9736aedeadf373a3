package org.oooengine.core.sql.expr;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.temporal.TemporalAmount;
import java.util.Locale;
import org.oooengine.core.sql.SqlType;

/**
 * The scalar operators and functions. Argument types were checked and coerced by the analyzer;
 * {@code call.type()} is the result type. Most return null when any argument is null
 * ({@link #nullIntolerant}); COALESCE does not.
 */
public enum ScalarFunction {
    ADD, SUBTRACT, MULTIPLY, DIVIDE, MOD, NEGATE,
    EQ, NE, LT, LE, GT, GE,
    CAST, DATE_PLUS_INTERVAL, DATE_MINUS_INTERVAL,
    SUBSTR, UPPER, LOWER, LENGTH, TRIM, CONCAT,
    YEAR, MONTH, DAY, ABS, ROUND, FLOOR, CEIL,
    COALESCE,
    // Hive's built-in functions, in BuiltinFunctions; ordinals travel on the wire, so new ones go last
    TRUNC_NUMBER, TRUNC_DATE, NULLIF, PMOD, GREATEST, LEAST, SIGN, SQRT, LN, LOG10, LOG2, LOG, EXP, POWER,
    DATE_FORMAT, LAST_DAY, QUARTER, ADD_MONTHS, HOUR, MINUTE, SECOND, DATE_ADD, DATE_SUB, DATEDIFF,
    LPAD, RPAD, REPEAT, REPLACE, INSTR, LOCATE, LTRIM, RTRIM, REVERSE, CONCAT_WS,
    TO_DATE, UNIX_TIMESTAMP, FROM_UNIXTIME,
    // arrays and maps, in CollectionFunctions; SUBSCRIPT is a[i] and m[key]
    ARRAY, MAP, SPLIT, SIZE, ARRAY_CONTAINS, SORT_ARRAY, MAP_KEYS, MAP_VALUES, SUBSCRIPT,
    // more of Hive's built-in functions
    ASCII;

    public boolean nullIntolerant() {
        return this != COALESCE && !BuiltinFunctions.takesNulls(this) && !CollectionFunctions.takesNulls(this);
    }

    /** The SQL name for messages and plans. */
    public String sqlName() {
        return switch (this) {
            case ADD -> "+";
            case SUBTRACT, NEGATE -> "-";
            case MULTIPLY -> "*";
            case DIVIDE -> "/";
            case MOD -> "%";
            case EQ -> "=";
            case NE -> "<>";
            case LT -> "<";
            case LE -> "<=";
            case GT -> ">";
            case GE -> ">=";
            case DATE_PLUS_INTERVAL -> "+ interval";
            case DATE_MINUS_INTERVAL -> "- interval";
            case TRUNC_NUMBER, TRUNC_DATE -> "trunc";
            case SUBSCRIPT -> "[]";
            default -> name().toLowerCase(Locale.ROOT);
        };
    }

    Object apply(Object[] v, Expr.Call call) {
        SqlType type = call.type();
        return switch (this) {
            case ADD, SUBTRACT, MULTIPLY, DIVIDE, MOD -> arithmetic((Number) v[0], (Number) v[1], type);
            case NEGATE -> type.isIntegral() ? type.wrapIntegral(-((Number) v[0]).longValue()) : negate((Number) v[0]);
            case EQ -> Values.compare(v[0], v[1]) == 0;
            case NE -> Values.compare(v[0], v[1]) != 0;
            case LT -> Values.compare(v[0], v[1]) < 0;
            case LE -> Values.compare(v[0], v[1]) <= 0;
            case GT -> Values.compare(v[0], v[1]) > 0;
            case GE -> Values.compare(v[0], v[1]) >= 0;
            case CAST -> Values.cast(v[0], call.args().get(0).type(), type);
            case DATE_PLUS_INTERVAL -> shifted(v[0], (TemporalAmount) v[1], true);
            case DATE_MINUS_INTERVAL -> shifted(v[0], (TemporalAmount) v[1], false);
            case SUBSTR -> substr((String) v[0], ((Number) v[1]).intValue(),
                    v.length > 2 ? ((Number) v[2]).intValue() : Integer.MAX_VALUE);
            case UPPER -> ((String) v[0]).toUpperCase(Locale.ROOT);
            case LOWER -> ((String) v[0]).toLowerCase(Locale.ROOT);
            case LENGTH -> ((String) v[0]).length();
            case TRIM -> BuiltinFunctions.trimSpaces((String) v[0], true, true);
            case CONCAT -> concat(v);
            case YEAR -> ((LocalDate) v[0]).getYear();
            case MONTH -> ((LocalDate) v[0]).getMonthValue();
            case DAY -> ((LocalDate) v[0]).getDayOfMonth();
            case ABS -> abs((Number) v[0]);
            case ROUND -> round((Number) v[0], v.length > 1 ? ((Number) v[1]).intValue() : 0, type);
            case FLOOR -> Values.cast(Values.decimal((Number) v[0]).setScale(0, RoundingMode.FLOOR), type);
            case CEIL -> Values.cast(Values.decimal((Number) v[0]).setScale(0, RoundingMode.CEILING), type);
            case COALESCE -> coalesce(v, type);
            default -> CollectionFunctions.isCollectionFunction(this) ? CollectionFunctions.apply(this, v, call)
                    : BuiltinFunctions.apply(this, v, type);
        };
    }

    private Object arithmetic(Number a, Number b, SqlType type) {
        switch (type.kind()) {
            case TINYINT, SMALLINT, INT, BIGINT -> {
                long x = a.longValue();
                long y = b.longValue();
                if ((this == DIVIDE || this == MOD) && y == 0) {
                    return null;
                }
                long r = switch (this) {
                    case ADD -> x + y;
                    case SUBTRACT -> x - y;
                    case MULTIPLY -> x * y;
                    case DIVIDE -> x / y;
                    default -> x % y;
                };
                return type.wrapIntegral(r); // Hive's integer arithmetic wraps around in the result type
            }
            case FLOAT, DOUBLE -> {
                double x = a.doubleValue();
                double y = b.doubleValue();
                if ((this == DIVIDE || this == MOD) && y == 0) {
                    return null; // Hive: division by zero is NULL
                }
                double r = switch (this) {
                    case ADD -> x + y;
                    case SUBTRACT -> x - y;
                    case MULTIPLY -> x * y;
                    case DIVIDE -> x / y;
                    default -> x % y;
                };
                return type.kind() == SqlType.Kind.FLOAT ? (double) (float) r : r;
            }
            default -> {
                BigDecimal x = Values.decimal(a);
                BigDecimal y = Values.decimal(b);
                if ((this == DIVIDE || this == MOD) && y.signum() == 0) {
                    return null;
                }
                BigDecimal r = switch (this) {
                    case ADD -> x.add(y);
                    case SUBTRACT -> x.subtract(y);
                    case MULTIPLY -> x.multiply(y);
                    case DIVIDE -> x.divide(y, type.scale() + 1, RoundingMode.HALF_UP);
                    default -> x.remainder(y, MathContext.DECIMAL128);
                };
                return r.setScale(type.scale(), RoundingMode.HALF_UP);
            }
        }
    }

    private static Object negate(Number n) {
        if (n instanceof Integer i) {
            return -i;
        }
        if (n instanceof Long l) {
            return -l;
        }
        return n instanceof Double d ? (Object) (-d) : ((BigDecimal) n).negate();
    }

    private static Object abs(Number n) {
        if (n instanceof Integer i) {
            return Math.abs(i);
        }
        if (n instanceof Long l) {
            return Math.abs(l);
        }
        return n instanceof Double d ? (Object) Math.abs(d) : ((BigDecimal) n).abs();
    }

    private static Object round(Number n, int digits, SqlType type) {
        if (n instanceof Double d) {
            if (d.isNaN() || d.isInfinite()) {
                return d; // as Hive's round returns them
            }
            double r = BigDecimal.valueOf(d).setScale(digits, RoundingMode.HALF_UP).doubleValue();
            return type.kind() == SqlType.Kind.FLOAT ? (double) (float) r : r;
        }
        return Values.cast(Values.decimal(n).setScale(digits, RoundingMode.HALF_UP), type);
    }

    /** Hive's substr: 1-based; a negative start counts from the end. */
    private static String substr(String s, int start, int length) {
        int from = start > 0 ? start - 1 : start < 0 ? s.length() + start : 0;
        if (from < 0 || from >= s.length() || length <= 0) {
            return "";
        }
        return s.substring(from, (int) Math.min(s.length(), (long) from + length));
    }

    private static String concat(Object[] v) {
        StringBuilder b = new StringBuilder();
        for (Object o : v) {
            b.append(Values.text(o));
        }
        return b.toString();
    }

    private static Object coalesce(Object[] v, SqlType type) {
        for (Object o : v) {
            if (o != null) {
                return Values.cast(o, type);
            }
        }
        return null;
    }

    /**
     * A date or timestamp moved by an interval: a {@code Period} (years, months, days: the day of
     * month clamped to the month's last, as Hive does) or a {@code Duration} (a timestamp only).
     */
    private static Object shifted(Object time, TemporalAmount interval, boolean plus) {
        if (time instanceof LocalDate d) {
            return plus ? d.plus(interval) : d.minus(interval);
        }
        LocalDateTime t = (LocalDateTime) time;
        return org.oooengine.core.types.LocalTimestamps.truncated(plus ? t.plus(interval) : t.minus(interval));
    }
}
