package org.oooengine.mapreduce;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Arrays;
import java.util.StringJoiner;
import org.apache.hadoop.io.Writable;
import org.oooengine.core.wire.PayloadReader;
import org.oooengine.core.wire.PayloadWriter;
import org.oooengine.core.wire.ValueCodec;

/**
 * One row of engine values (Long, Integer, BigDecimal, LocalDate, String, ... or null) as a Hadoop
 * value: a length-prefixed row in the engine's tagged value encoding, so it needs no schema to be
 * read back. The column names of a job's rows are in its configuration (see the InputFormats).
 */
public final class RowWritable implements Writable {
    private Object[] values;

    public RowWritable() {
        this(new Object[0]);
    }

    public RowWritable(Object[] values) {
        this.values = values;
    }

    public Object[] values() {
        return values;
    }

    public Object get(int column) {
        return values[column];
    }

    public int size() {
        return values.length;
    }

    public void set(Object[] values) {
        this.values = values;
    }

    @Override
    public void write(DataOutput out) throws IOException {
        PayloadWriter w = new PayloadWriter(16 + values.length * 12);
        ValueCodec.writeRow(w, values);
        byte[] bytes = w.toByteArray();
        out.writeInt(bytes.length);
        out.write(bytes);
    }

    @Override
    public void readFields(DataInput in) throws IOException {
        byte[] bytes = new byte[in.readInt()];
        in.readFully(bytes);
        values = ValueCodec.readRow(new PayloadReader(bytes));
    }

    /** Tab-separated values, {@code \N} for null: what Hive's text format expects. */
    @Override
    public String toString() {
        StringJoiner j = new StringJoiner("\t");
        for (Object v : values) {
            j.add(v == null ? "\\N" : v.toString());
        }
        return j.toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RowWritable r && Arrays.equals(values, r.values);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(values);
    }
}
