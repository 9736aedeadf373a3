package org.oooengine.core.vector;

import org.oooengine.core.sql.SqlType;

/**
 * The values of one column for the rows of a {@link Batch}, by position. How a SQL type is held
 * is fixed by {@link #representation}: integers, dates (epoch days) and decimals (unscaled at the
 * type's scale) as longs, doubles as doubles, booleans as three-valued bytes, strings as objects.
 */
public sealed interface Vector permits LongVector, DoubleVector, BoolVector, ObjectVector {
    /** How vectors hold values of one SQL type. */
    enum Representation { LONG, DOUBLE, BOOL, OBJECT }

    boolean isNull(int i);

    /** The SQL value at {@code i} (see {@code SqlType}) of a column of {@code type}. */
    Object box(int i, SqlType type);

    /** Sets position {@code i} to the SQL value {@code value} of {@code type}; throws ArithmeticException when it does not fit. */
    void setBoxed(int i, Object value, SqlType type);

    /** How a value of {@code type} is held, or null when vectors do not hold it. */
    static Representation representation(SqlType type) {
        return switch (type.kind()) {
            case BOOLEAN -> Representation.BOOL;
            case TINYINT, SMALLINT, INT, BIGINT, DATE, TIMESTAMP -> Representation.LONG;
            case DECIMAL -> type.scale() <= 18 ? Representation.LONG : null;
            case FLOAT, DOUBLE -> Representation.DOUBLE;
            case STRING, VARCHAR, CHAR -> Representation.OBJECT;
            case INTERVAL, VOID, ARRAY, MAP -> null;
        };
    }

    /** A vector for {@code capacity} values of {@code type}. */
    static Vector allocate(SqlType type, int capacity) {
        Representation r = representation(type);
        if (r == null) {
            throw new IllegalArgumentException("vectors do not hold values of type " + type);
        }
        return switch (r) {
            case LONG -> new LongVector(new long[capacity], null);
            case DOUBLE -> new DoubleVector(new double[capacity], null);
            case BOOL -> new BoolVector(new byte[capacity]);
            case OBJECT -> new ObjectVector(new Object[capacity]);
        };
    }
}
