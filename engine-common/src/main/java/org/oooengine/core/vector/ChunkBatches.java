package org.oooengine.core.vector;

import org.oooengine.core.sql.SqlType;
import org.oooengine.core.wire.ColumnarRows;

/**
 * A chunk of rows as it arrived ({@link ColumnarRows.Chunk}) as a batch: a column read as a type
 * the wire held it as (integers, dates, decimals of the type's scale, doubles, strings) becomes its
 * vector without a value boxed; a column not read is carried as objects.
 */
public final class ChunkBatches {
    private ChunkBatches() {
    }

    /**
     * The chunk as a batch whose column c holds values of {@code types[c]} (null, or past the end:
     * carried as objects), or null when it came as rows or a value is not of its column's type:
     * the caller then takes its rows.
     */
    public static Batch of(ColumnarRows.Chunk chunk, SqlType[] types) {
        ColumnarRows.Column[] columns = chunk.columns();
        if (columns == null) {
            return null;
        }
        int n = chunk.size();
        Vector[] vectors = new Vector[columns.length];
        for (int c = 0; c < columns.length; c++) {
            vectors[c] = vector(columns[c], c < types.length ? types[c] : null, n);
            if (vectors[c] == null) {
                return null;
            }
        }
        return Batch.of(vectors, n);
    }

    /**
     * The first {@code n} values of {@code column} as a vector of {@code type} (null: objects), or null
     * when a value is not of that type.
     */
    public static Vector vector(ColumnarRows.Column column, SqlType type, int n) {
        if (type == null) {
            return new ObjectVector(column.objects() != null && column.held() != ColumnarRows.Held.BOOLEANS
                    ? column.objects() : boxed(column, n));
        }
        Vector.Representation r = Vector.representation(type);
        if (r == Vector.Representation.LONG && column.held() == ColumnarRows.Held.LONGS
                && heldAs(column.longKind(), column.scale(), type)) {
            return new LongVector(column.longs(), column.nulls());
        } else if (r == Vector.Representation.DOUBLE && column.held() == ColumnarRows.Held.DOUBLES) {
            return new DoubleVector(column.doubles(), column.nulls());
        } else if (r == Vector.Representation.OBJECT && column.held() == ColumnarRows.Held.STRINGS) {
            return new ObjectVector(column.objects());
        }
        // value by value: booleans, decimals of another scale or of several; anything else (a double
        // in an integer column) would not come back as it was sent
        boolean byValue = r == Vector.Representation.BOOL ? column.held() == ColumnarRows.Held.BOOLEANS
                : type.kind() == SqlType.Kind.DECIMAL && r == Vector.Representation.LONG
                && (column.held() == ColumnarRows.Held.LONGS || column.held() == ColumnarRows.Held.VALUES);
        return byValue ? valueByValue(column, type, n) : null;
    }

    /** The {@code n} values of {@code column} in a vector of {@code type}, set one by one; null where one is not of it. */
    public static Vector valueByValue(ColumnarRows.Column column, SqlType type, int n) {
        Vector v = Vector.allocate(type, n);
        try {
            for (int i = 0; i < n; i++) {
                v.setBoxed(i, column.value(i), type);
            }
        } catch (ArithmeticException | ClassCastException notOfTheType) {
            return null;
        }
        return v;
    }

    /** Whether longs of {@code kind} (decimals unscaled at {@code scale}) are how a vector holds {@code type}. */
    private static boolean heldAs(ColumnarRows.LongKind kind, int scale, SqlType type) {
        return switch (type.kind()) {
            case TINYINT, SMALLINT, INT, BIGINT -> kind == ColumnarRows.LongKind.INT || kind == ColumnarRows.LongKind.LONG;
            case DATE -> kind == ColumnarRows.LongKind.DATE;
            case TIMESTAMP -> kind == ColumnarRows.LongKind.TIMESTAMP;
            case DECIMAL -> kind == ColumnarRows.LongKind.DECIMAL && scale == type.scale();
            default -> false;
        };
    }

    private static Object[] boxed(ColumnarRows.Column column, int n) {
        Object[] values = new Object[n];
        for (int i = 0; i < n; i++) {
            values[i] = column.value(i);
        }
        return values;
    }
}
