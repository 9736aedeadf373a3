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

    @Override
    public Object box(int i, SqlType type) {
        if (isNull(i)) {
            return null;
        }
        long v = values[i];
        return switch (type.kind()) {
            case INT -> (int) v;
            case DATE -> LocalDate.ofEpochDay(v);
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
            case DECIMAL -> ((BigDecimal) value).setScale(type.scale(), RoundingMode.HALF_UP).unscaledValue().longValueExact();
            default -> ((Number) value).longValue();
        };
    }
}
