package org.oooengine.core.vector;

import java.math.BigDecimal;
import java.math.BigInteger;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.types.DataType;
import org.oooengine.core.types.RowCodec;
import org.oooengine.core.types.Schema;

/**
 * Vectors filled row by row from encoded rows ({@link RowCodec#decodeInto}), held as
 * {@link StoredVectors} holds stored values, a batch at a time: the values of a B+tree's leaves
 * go into the vectors without a box for each.
 */
public final class StoredColumns implements RowCodec.ValueSink {
    private final Schema schema;
    private final boolean[] wanted;
    private final int capacity;
    private Vector[] columns;

    /** Vectors for up to {@code capacity} rows of the {@code wanted} columns of {@code schema} (all held by vectors). */
    public StoredColumns(Schema schema, boolean[] wanted, int capacity) {
        this.schema = schema;
        this.wanted = wanted.clone();
        this.capacity = capacity;
        this.columns = fresh();
    }

    public int capacity() {
        return capacity;
    }

    private Vector[] fresh() {
        Vector[] made = new Vector[schema.size()];
        for (int c = 0; c < made.length; c++) {
            if (!wanted[c]) {
                continue;
            }
            DataType type = schema.type(c);
            made[c] = StoredVectors.boxed(type) ? new ObjectVector(new Object[capacity])
                    : switch (Vector.representation(SqlType.of(type))) {
                        case LONG -> new LongVector(new long[capacity], null);
                        case DOUBLE -> new DoubleVector(new double[capacity], null);
                        case BOOL -> new BoolVector(new byte[capacity]);
                        case OBJECT -> new ObjectVector(new Object[capacity]);
                    };
        }
        return made;
    }

    @Override
    public void setNull(int column, int row) {
        Vector v = columns[column];
        if (v instanceof NullFlags primitive) {
            primitive.setNull(row);
        } else if (v instanceof BoolVector b) {
            b.values[row] = BoolVector.NULL;
        } else {
            ((ObjectVector) v).values[row] = null;
        }
    }

    @Override
    public void setLong(int column, int row, long value) {
        ((LongVector) columns[column]).values[row] = value;
    }

    @Override
    public void setDouble(int column, int row, double value) {
        ((DoubleVector) columns[column]).values[row] = value;
    }

    @Override
    public void setBoolean(int column, int row, boolean value) {
        ((BoolVector) columns[column]).values[row] = value ? BoolVector.TRUE : BoolVector.FALSE;
    }

    @Override
    public void setObject(int column, int row, Object value) {
        ((ObjectVector) columns[column]).values[row] = value instanceof BigInteger wide
                ? new BigDecimal(wide, schema.type(column).scale()) : value; // a wide decimal, held as its SQL value
    }

    /** The first {@code rows} rows set, as a batch that takes these vectors; the next rows go into new ones. */
    public Batch take(int rows) {
        Batch batch = Batch.of(columns, rows);
        columns = fresh();
        return batch;
    }
}
