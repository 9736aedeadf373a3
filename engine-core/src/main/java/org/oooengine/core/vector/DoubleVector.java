package org.oooengine.core.vector;

import org.oooengine.core.sql.SqlType;

/** Doubles; {@code nulls} is null when none is. */
public final class DoubleVector implements Vector {
    public final double[] values;
    private boolean[] nulls;

    public DoubleVector(double[] values, boolean[] nulls) {
        this.values = values;
        this.nulls = nulls;
    }

    public boolean[] nulls() {
        return nulls;
    }

    public void setNull(int i) {
        if (nulls == null) {
            nulls = new boolean[values.length];
        }
        nulls[i] = true;
    }

    @Override
    public boolean isNull(int i) {
        return nulls != null && nulls[i];
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
