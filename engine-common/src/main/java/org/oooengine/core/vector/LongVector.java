package org.oooengine.core.vector;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.LocalDate;
import org.oooengine.core.sql.Decimals;
import org.oooengine.core.sql.SqlType;

/** Integers, dates as epoch days and decimals unscaled at their type's scale; {@code nulls} is null when none is. */
public final class LongVector extends NullFlags implements Vector {
    public final long[] values;

    public LongVector(long[] values, boolean[] nulls) {
        super(values.length, nulls);
        this.values = values;
    }

    /**
     * The SQL value {@code value} as a column of {@code type} stores it in a long (an epoch day, an
     * unscaled decimal), or null when it is null, not of a type held in longs, or not exactly a
     * value of {@code type} (0.055 for a decimal of scale 2): a bound or constant drawn from it
     * would then be wrong, so callers use none.
     */
    public static Long exactly(Object value, SqlType type) {
        if (value == null || Vector.representation(type) != Vector.Representation.LONG) {
            return null;
        }
        try {
            LongVector holder = new LongVector(new long[1], null);
            holder.setBoxed(0, value, type);
            return org.oooengine.core.sql.expr.Values.compare(holder.box(0, type), value) == 0 ? holder.values[0] : null;
        } catch (RuntimeException notOfTheType) {
            return null;
        }
    }

    @Override
    public Object box(int i, SqlType type) {
        if (isNull(i)) {
            return null;
        }
        long v = values[i];
        return switch (type.kind()) {
            case TINYINT, SMALLINT, INT -> (int) v;
            case DATE -> LocalDate.ofEpochDay(v);
            case TIMESTAMP -> org.oooengine.core.types.LocalTimestamps.ofMicros(v);
            case DECIMAL -> Decimals.of(v, type.scale());
            default -> v;
        };
    }

    @Override
    public void setBoxed(int i, Object value, SqlType type) {
        if (value == null) {
            setNull(i);
            return;
        }
        values[i] = switch (type.kind()) {
            case DATE -> ((LocalDate) value).toEpochDay();
            case TIMESTAMP -> org.oooengine.core.types.LocalTimestamps.toMicros((java.time.LocalDateTime) value);
            // moved to scale 0, a decimal of up to 18 digits is its unscaled long (no BigInteger made)
            case DECIMAL -> ((BigDecimal) value).setScale(type.scale(), RoundingMode.HALF_UP).scaleByPowerOfTen(type.scale())
                    .longValueExact();
            default -> ((Number) value).longValue();
        };
    }
}
