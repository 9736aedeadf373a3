package org.oooengine.mapreduce;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import org.apache.hadoop.io.Writable;

/** A map output value of a reduce-side join: the side (0 outer, 1 inner) and that side's output columns. */
public final class JoinRecord implements Writable {
    private byte side;
    private final RowWritable row = new RowWritable();

    public void set(int side, Object[] values) {
        this.side = (byte) side;
        row.set(values);
    }

    public int side() {
        return side;
    }

    public Object[] values() {
        return row.values();
    }

    @Override
    public void write(DataOutput out) throws IOException {
        out.writeByte(side);
        row.write(out);
    }

    @Override
    public void readFields(DataInput in) throws IOException {
        side = in.readByte();
        row.readFields(in);
    }
}
