package org.oooengine.mapreduce;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.sql.Timestamp;
import java.util.List;
import org.apache.hadoop.hive.common.type.HiveDecimal;
import org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DecimalColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DoubleColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.TimestampColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;
import org.apache.orc.TypeDescription;
import org.oooengine.core.sql.SqlException;
import org.oooengine.core.types.DataType;
import org.oooengine.core.types.LocalTimestamps;
import org.oooengine.core.vector.BoolVector;
import org.oooengine.core.vector.DoubleVector;
import org.oooengine.core.vector.LongVector;
import org.oooengine.core.vector.StoredVectors;
import org.oooengine.core.vector.Vector;

/**
 * Engine rows to and from ORC's column vectors. Types map as Hive maps them — BOOLEAN, INT,
 * BIGINT, DOUBLE, DECIMAL(p,s), DATE, TIMESTAMP, VARCHAR(n) — except CHAR, written as STRING so that a value
 * reads back exactly as it was (ORC pads CHAR).
 */
public final class OrcRows {
    private final List<DataType> types;

    public OrcRows(List<DataType> types) {
        this.types = List.copyOf(types);
    }

    /** The ORC schema of a table with these column names and types. */
    public static TypeDescription schema(List<String> names, List<DataType> types) {
        TypeDescription struct = TypeDescription.createStruct();
        for (int i = 0; i < names.size(); i++) {
            struct.addField(names.get(i), typeOf(types.get(i)));
        }
        return struct;
    }

    static TypeDescription typeOf(DataType type) {
        return switch (type.kind()) {
            case BOOLEAN -> TypeDescription.createBoolean();
            case INT -> TypeDescription.createInt();
            case BIGINT -> TypeDescription.createLong();
            case DOUBLE -> TypeDescription.createDouble();
            // scale first: ORC's default scale (10) is above a small precision
            case DECIMAL -> TypeDescription.createDecimal().withScale(type.scale()).withPrecision(type.precision());
            case DATE -> TypeDescription.createDate();
            case TIMESTAMP -> TypeDescription.createTimestamp();
            case VARCHAR -> type.precision() > 0 ? TypeDescription.createVarchar().withMaxLength(type.precision())
                    : TypeDescription.createString();
            case CHAR -> TypeDescription.createString();
            case ARRAY, MAP -> throw new SqlException(SqlException.NOT_SUPPORTED, "a column of type " + type
                    + " in MapReduce mode (its ORC files hold no arrays or maps yet)");
        };
    }

    /**
     * Why a file of schema {@code file} cannot be read as rows of {@code types}, or null when it
     * can: the same number of columns, each of the category this type maps to (string, char and
     * varchar alike; decimals of the same scale).
     */
    public static String mismatch(TypeDescription file, List<DataType> types) {
        List<TypeDescription> columns = file.getChildren();
        if (columns == null || columns.size() != types.size()) {
            return "it holds " + file + ", not " + types.size() + " columns";
        }
        for (int c = 0; c < types.size(); c++) {
            TypeDescription have = columns.get(c);
            TypeDescription want = typeOf(types.get(c));
            boolean text = isText(have) && isText(want);
            boolean same = widened(have.getCategory()) == want.getCategory()
                    && (want.getCategory() != TypeDescription.Category.DECIMAL || have.getScale() == want.getScale());
            if (!text && !same) {
                return "column " + (c + 1) + " is " + have + " in the file, " + types.get(c) + " in the table";
            }
        }
        return null;
    }

    /**
     * The category a file column is read as: Hive writes TINYINT, SMALLINT and FLOAT columns as
     * ORC's byte, short and float, which the engine holds as int and double (same vectors).
     */
    private static TypeDescription.Category widened(TypeDescription.Category category) {
        return switch (category) {
            case BYTE, SHORT -> TypeDescription.Category.INT;
            case FLOAT -> TypeDescription.Category.DOUBLE;
            default -> category;
        };
    }

    private static boolean isText(TypeDescription t) {
        return switch (t.getCategory()) {
            case STRING, CHAR, VARCHAR -> true;
            default -> false;
        };
    }

    /** Writes {@code row} at position {@code r} of {@code batch}. */
    public void write(VectorizedRowBatch batch, int r, Object[] row) {
        for (int c = 0; c < row.length; c++) {
            ColumnVector v = batch.cols[c];
            Object value = row[c];
            if (value == null) {
                v.noNulls = false;
                v.isNull[r] = true;
                continue;
            }
            v.isNull[r] = false;
            switch (types.get(c).kind()) {
                case BOOLEAN -> ((LongColumnVector) v).vector[r] = (Boolean) value ? 1 : 0;
                case INT, DATE -> ((LongColumnVector) v).vector[r] = (Integer) value;
                case BIGINT -> ((LongColumnVector) v).vector[r] = (Long) value;
                case DOUBLE -> ((DoubleColumnVector) v).vector[r] = (Double) value;
                case DECIMAL -> {
                    if (value instanceof BigInteger wide) {
                        ((DecimalColumnVector) v).vector[r].set(HiveDecimal.create(wide, types.get(c).scale()));
                    } else {
                        ((DecimalColumnVector) v).vector[r].setFromLongAndScale((Long) value, types.get(c).scale());
                    }
                }
                case CHAR, VARCHAR -> ((BytesColumnVector) v).setVal(r, ((String) value).getBytes(StandardCharsets.UTF_8));
                // ORC keeps a timestamp as the JVM's zone reads it, as Hive writes its local date-times
                case TIMESTAMP -> ((TimestampColumnVector) v).set(r, Timestamp.valueOf(LocalTimestamps.ofMicros((Long) value)));
                case ARRAY, MAP -> throw new IllegalStateException("refused by typeOf");
            }
        }
    }

    /** The row at position {@code r} of {@code batch}. */
    public Object[] read(VectorizedRowBatch batch, int r) {
        return read(batch, r, null, types.size());
    }

    /**
     * The row at position {@code r} of {@code batch}, in an array {@code width} long: the columns
     * {@code wanted} (all: null) read, the others and those past the batch's left null.
     */
    public Object[] read(VectorizedRowBatch batch, int r, boolean[] wanted, int width) {
        Object[] row = new Object[width];
        for (int c = 0; c < types.size(); c++) {
            if (wanted != null && !wanted[c]) {
                continue;
            }
            ColumnVector v = batch.cols[c];
            int i = v.isRepeating ? 0 : r;
            if (!v.noNulls && v.isNull[i]) {
                continue;
            }
            row[c] = value(v, i, types.get(c));
        }
        return row;
    }

    /**
     * The first {@code n} values of ORC's vector {@code v} as a vector of the engine's
     * ({@link StoredVectors}), of a column of {@code type}: copied, since ORC reuses its batches.
     */
    public static Vector column(ColumnVector v, int n, DataType type) {
        boolean[] nulls = null;
        if (!v.noNulls) {
            nulls = new boolean[n];
            for (int i = 0; i < n; i++) {
                nulls[i] = v.isNull[v.isRepeating ? 0 : i];
            }
        }
        switch (type.kind()) {
            case BOOLEAN -> {
                long[] in = ((LongColumnVector) v).vector;
                byte[] out = new byte[n];
                for (int i = 0; i < n; i++) {
                    out[i] = nulls != null && nulls[i] ? BoolVector.NULL
                            : in[v.isRepeating ? 0 : i] != 0 ? BoolVector.TRUE : BoolVector.FALSE;
                }
                return new BoolVector(out);
            }
            case INT, BIGINT, DATE -> {
                long[] in = ((LongColumnVector) v).vector;
                long[] out = v.isRepeating ? filled(n, in[0]) : java.util.Arrays.copyOf(in, n);
                return new LongVector(out, nulls);
            }
            case DOUBLE -> {
                double[] in = ((DoubleColumnVector) v).vector;
                double[] out = new double[n];
                for (int i = 0; i < n; i++) {
                    out[i] = in[v.isRepeating ? 0 : i];
                }
                return new DoubleVector(out, nulls);
            }
            default -> {
                // decimals, timestamps and strings a value at a time, as rows read them
                Object[] stored = new Object[n];
                for (int i = 0; i < n; i++) {
                    if (nulls == null || !nulls[i]) {
                        stored[i] = value(v, v.isRepeating ? 0 : i, type);
                    }
                }
                return StoredVectors.of(stored, type);
            }
        }
    }

    private static long[] filled(int n, long value) {
        long[] out = new long[n];
        java.util.Arrays.fill(out, value);
        return out;
    }

    /** The stored value at position {@code i} (not null) of ORC's vector {@code v}, of a column of {@code type}. */
    private static Object value(ColumnVector v, int i, DataType type) {
        return switch (type.kind()) {
            case BOOLEAN -> ((LongColumnVector) v).vector[i] != 0;
            case INT, DATE -> (int) ((LongColumnVector) v).vector[i];
            case BIGINT -> ((LongColumnVector) v).vector[i];
            case DOUBLE -> ((DoubleColumnVector) v).vector[i];
            case DECIMAL -> unscaled(((DecimalColumnVector) v).vector[i].getHiveDecimal(), type);
            case TIMESTAMP -> LocalTimestamps.toMicros(LocalTimestamps.truncated(
                    ((TimestampColumnVector) v).asScratchTimestamp(i).toLocalDateTime()));
            case CHAR, VARCHAR -> {
                BytesColumnVector b = (BytesColumnVector) v;
                yield new String(b.vector[i], b.start[i], b.length[i], StandardCharsets.UTF_8);
            }
            case ARRAY, MAP -> throw new IllegalStateException("refused by typeOf");
        };
    }

    /** The stored form of a decimal: a long, or a BigInteger for a wide decimal type. */
    private static Object unscaled(HiveDecimal d, DataType type) {
        BigInteger unscaled = d.bigDecimalValue().setScale(type.scale()).unscaledValue();
        return type.isWideDecimal() ? unscaled : (Object) unscaled.longValueExact();
    }
}
