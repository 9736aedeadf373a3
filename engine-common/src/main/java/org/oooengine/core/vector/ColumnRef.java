package org.oooengine.core.vector;

/** An input column: its vector as it is. */
record ColumnRef(int index) implements VectorExpr {
    @Override
    public Vector eval(Batch batch) {
        return batch.column(index);
    }
}
