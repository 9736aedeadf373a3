package org.oooengine.core.vector;

import org.oooengine.core.sql.SqlType;

/** SQL values as objects (strings); null is null. */
public final class ObjectVector implements Vector {
    public final Object[] values;

    public ObjectVector(Object[] values) {
        this.values = values;
    }

    @Override
    public boolean isNull(int i) {
        return values[i] == null;
    }

    @Override
    public Object box(int i, SqlType type) {
        return values[i];
    }

    @Override
    public void setBoxed(int i, Object value, SqlType type) {
        values[i] = value;
    }
}
