package org.oooengine.core.vector;

import org.oooengine.core.sql.SqlType;

/** SQL's three-valued booleans: {@link #FALSE}, {@link #TRUE} or {@link #NULL} per position. */
public final class BoolVector implements Vector {
    public static final byte FALSE = 0;
    public static final byte TRUE = 1;
    public static final byte NULL = 2;

    public final byte[] values;

    public BoolVector(byte[] values) {
        this.values = values;
    }

    @Override
    public boolean isNull(int i) {
        return values[i] == NULL;
    }

    @Override
    public Object box(int i, SqlType type) {
        return values[i] == NULL ? null : values[i] == TRUE;
    }

    @Override
    public void setBoxed(int i, Object value, SqlType type) {
        values[i] = value == null ? NULL : (Boolean) value ? TRUE : FALSE;
    }
}
