package org.oooengine.core.vector;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.types.DataType;
import org.oooengine.core.types.Schema;

/**
 * Stored values (a table's rows as its files and pages hold them: an INT or DATE as an Integer,
 * a decimal unscaled, a timestamp in microseconds) to and from vectors, without going through SQL
 * values: a decimal column stays a long. A wide decimal (over 18 digits) is held as its SQL value,
 * a BigDecimal, in an object vector.
 */
public final class StoredVectors {
    private StoredVectors() {
    }

    /** Whether vectors hold values of {@code type}: every type but arrays and maps. */
    public static boolean holds(DataType type) {
        return Vector.representation(SqlType.of(type)) != null;
    }

    /** Whether {@code type}'s values are held as objects of SQL values rather than longs (a wide decimal). */
    public static boolean boxed(DataType type) {
        return type.isWideDecimal();
    }

    /** Column {@code c} of stored {@code rows}, of {@code type}, as a vector. */
    public static Vector column(List<Object[]> rows, int c, DataType type) {
        Object[] stored = new Object[rows.size()];
        for (int i = 0; i < stored.length; i++) {
            stored[i] = rows.get(i)[c];
        }
        return of(stored, type);
    }

    /**
     * Stored {@code rows} of {@code schema} as a batch: a vector per column of the schema, null for
     * those not {@code wanted}.
     */
    public static Batch batch(List<Object[]> rows, Schema schema, boolean[] wanted) {
        Vector[] columns = new Vector[schema.size()];
        for (int c = 0; c < columns.length; c++) {
            if (wanted[c]) {
                columns[c] = column(rows, c, schema.type(c));
            }
        }
        return Batch.of(columns, rows.size());
    }

    /** {@code n} copies of the stored value {@code stored} of {@code type} (a partition's value). */
    public static Vector constant(Object stored, DataType type, int n) {
        Object[] values = new Object[n];
        java.util.Arrays.fill(values, stored);
        return of(values, type);
    }

    /** The stored values {@code stored} of {@code type} as a vector. */
    public static Vector of(Object[] stored, DataType type) {
        int n = stored.length;
        if (boxed(type)) {
            Object[] v = new Object[n];
            for (int i = 0; i < n; i++) {
                v[i] = stored[i] == null ? null : new BigDecimal((BigInteger) stored[i], type.scale());
            }
            return new ObjectVector(v);
        }
        switch (Vector.representation(SqlType.of(type))) {
            case LONG -> {
                LongVector v = new LongVector(new long[n], null);
                for (int i = 0; i < n; i++) {
                    if (stored[i] == null) {
                        v.setNull(i);
                    } else {
                        v.values[i] = ((Number) stored[i]).longValue();
                    }
                }
                return v;
            }
            case DOUBLE -> {
                DoubleVector v = new DoubleVector(new double[n], null);
                for (int i = 0; i < n; i++) {
                    if (stored[i] == null) {
                        v.setNull(i);
                    } else {
                        v.values[i] = (Double) stored[i];
                    }
                }
                return v;
            }
            case BOOL -> {
                BoolVector v = new BoolVector(new byte[n]);
                for (int i = 0; i < n; i++) {
                    v.values[i] = stored[i] == null ? BoolVector.NULL : (Boolean) stored[i] ? BoolVector.TRUE : BoolVector.FALSE;
                }
                return v;
            }
            case OBJECT -> {
                return new ObjectVector(stored.clone());
            }
            default -> throw new IllegalArgumentException("vectors do not hold values of type " + type);
        }
    }

    /**
     * The rows of {@code batch} as stored values of {@code types} (columns without a vector, and
     * those past {@code types}, null), each row {@code width} long.
     */
    public static List<Object[]> rows(Batch batch, List<DataType> types, int width) {
        List<Object[]> rows = new ArrayList<>(batch.size());
        int[] positions = batch.positions();
        for (int k = 0; k < batch.size(); k++) {
            rows.add(new Object[width]);
        }
        for (int c = 0; c < Math.min(batch.width(), types.size()); c++) {
            Vector v = batch.column(c);
            if (v == null) {
                continue;
            }
            DataType type = types.get(c);
            SqlType sql = SqlType.of(type);
            for (int k = 0; k < batch.size(); k++) {
                int p = positions[k];
                if (v.isNull(p)) {
                    continue;
                }
                rows.get(k)[c] = switch (type.kind()) {
                    case INT, DATE -> (int) ((LongVector) v).values[p];
                    case BIGINT, TIMESTAMP -> ((LongVector) v).values[p];
                    case DECIMAL -> boxed(type) ? ((BigDecimal) ((ObjectVector) v).values[p]).unscaledValue()
                            : (Object) ((LongVector) v).values[p];
                    default -> v.box(p, sql);
                };
            }
        }
        return rows;
    }
}
