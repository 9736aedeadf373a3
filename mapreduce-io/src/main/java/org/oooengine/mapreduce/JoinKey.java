package org.oooengine.mapreduce;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Arrays;
import org.apache.hadoop.io.WritableComparable;
import org.apache.hadoop.io.WritableComparator;
import org.apache.hadoop.io.WritableUtils;
import org.apache.hadoop.mapreduce.Partitioner;
import org.oooengine.core.wire.PayloadWriter;
import org.oooengine.core.wire.ValueCodec;

/**
 * The map output key of a reduce-side join: the join value, encoded, then the side it came from.
 * Keys sort by their bytes, so equal join values are adjacent and, within them, side 0 (the
 * outer input) comes before side 1: a reducer buffers the outer rows of a value and streams the
 * inner ones past them. Reducers are chosen and groups formed on the join value alone.
 */
public final class JoinKey implements WritableComparable<JoinKey> {
    private byte[] value = new byte[0];
    private byte side;

    public JoinKey() {
    }

    /** A key for {@code joinValue}; integral values are widened to long so INT and BIGINT columns meet. */
    public void set(Object joinValue, int side) {
        Object v = joinValue instanceof Integer || joinValue instanceof Short || joinValue instanceof Byte
                ? ((Number) joinValue).longValue() : joinValue;
        PayloadWriter w = new PayloadWriter(16);
        ValueCodec.writeRow(w, new Object[] {v});
        this.value = w.toByteArray();
        this.side = (byte) side;
    }

    public int side() {
        return side;
    }

    @Override
    public void write(DataOutput out) throws IOException {
        WritableUtils.writeVInt(out, value.length);
        out.write(value);
        out.writeByte(side);
    }

    @Override
    public void readFields(DataInput in) throws IOException {
        value = new byte[WritableUtils.readVInt(in)];
        in.readFully(value);
        side = in.readByte();
    }

    @Override
    public int compareTo(JoinKey o) {
        int c = Arrays.compareUnsigned(value, o.value);
        return c != 0 ? c : Byte.compare(side, o.side);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof JoinKey k && side == k.side && Arrays.equals(value, k.value);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(value);
    }

    /** Length of the serialized join value (without the side byte) at {@code start}. */
    private static int valueBytes(byte[] b, int start) throws IOException {
        int n = WritableComparator.readVInt(b, start);
        return WritableUtils.decodeVIntSize(b[start]) + n;
    }

    /** Sorts serialized keys without deserializing them: value bytes, then side. */
    public static final class SortComparator extends WritableComparator {
        public SortComparator() {
            super(JoinKey.class);
        }

        @Override
        public int compare(byte[] b1, int s1, int l1, byte[] b2, int s2, int l2) {
            return compareBytes(b1, s1, l1, b2, s2, l2);
        }
    }

    /** Groups serialized keys by join value alone, so both sides of a value reach one reduce call. */
    public static final class GroupComparator extends WritableComparator {
        public GroupComparator() {
            super(JoinKey.class);
        }

        @Override
        public int compare(byte[] b1, int s1, int l1, byte[] b2, int s2, int l2) {
            try {
                return compareBytes(b1, s1, valueBytes(b1, s1), b2, s2, valueBytes(b2, s2));
            } catch (IOException e) {
                throw new IllegalStateException("corrupt join key", e);
            }
        }

        @Override
        @SuppressWarnings("rawtypes")
        public int compare(WritableComparable a, WritableComparable b) {
            return Arrays.compareUnsigned(((JoinKey) a).value, ((JoinKey) b).value);
        }
    }

    /** Sends every key of a join value to the same reducer, whatever its side. */
    public static final class ValuePartitioner<V> extends Partitioner<JoinKey, V> {
        @Override
        public int getPartition(JoinKey key, V v, int reducers) {
            return (key.hashCode() & Integer.MAX_VALUE) % reducers;
        }
    }
}
