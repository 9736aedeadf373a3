package org.oooengine.core.vector;

/** The null flags of a vector of primitive values: none until a position is set null. */
abstract class NullFlags {
    private final int capacity;
    private boolean[] nulls;

    NullFlags(int capacity, boolean[] nulls) {
        this.capacity = capacity;
        this.nulls = nulls;
    }

    /** The null flags, or null when no position is null. */
    public boolean[] nulls() {
        return nulls;
    }

    public void setNull(int i) {
        if (nulls == null) {
            nulls = new boolean[capacity];
        }
        nulls[i] = true;
    }

    public boolean isNull(int i) {
        return nulls != null && nulls[i];
    }
}
