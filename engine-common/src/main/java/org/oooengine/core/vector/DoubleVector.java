package org.oooengine.core.vector;

import org.oooengine.core.sql.SqlType;

/** Doubles; {@code nulls} is null when none is. */
public final class DoubleVector extends NullFlags implements Vector {
    public final double[] values;

    public DoubleVector(double[] values, boolean[] nulls) {
        super(values.length, nulls);
        this.values = values;
    }

    @Override
    public Object box(int i, SqlType type) {
        return isNull(i) ? null : values[i];
    }

    @Override
    public void setBoxed(int i, Object value, SqlType type) {
        if (value == null) {
            setNull(i);
        } else {
            values[i] = ((Number) value).doubleValue();
        }
    }
}
