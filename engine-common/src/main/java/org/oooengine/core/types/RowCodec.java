package org.oooengine.core.types;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;

/**
 * Compact row encoding: a null bitmap, then each value (fixed-width numbers big-endian, strings as
 * varint length + UTF-8, arrays and maps as varint length + {@link NestedValues}). A null string takes no bytes; a null number takes its width all the same
 * (zeros), as in SQL Server's rows: setting it later — TPC-C's Delivery sets each order's carrier —
 * then changes the row in place without growing it, and a full page does not split for it.
 */
public final class RowCodec {
    private final DataType[] types;
    private final int bitmapBytes;
    /**
     * The largest row encoded so far, the next row's starting capacity: rows of a table are about
     * the same size, and a buffer grown in steps copied itself three or four times per row. Racy
     * on purpose (a hint: any value read is a valid capacity).
     */
    private int sizeHint = 64;

    public RowCodec(Schema schema) {
        types = new DataType[schema.size()];
        for (int i = 0; i < types.length; i++) {
            types[i] = schema.type(i);
        }
        bitmapBytes = (types.length + 7) / 8;
    }

    public byte[] encode(Object[] row) {
        ByteWriter w = new ByteWriter(sizeHint);
        encode(row, w);
        if (w.length() > sizeHint) {
            sizeHint = Math.min(w.length(), 1 << 16);
        }
        return w.toByteArray();
    }

    public void encode(Object[] row, ByteWriter w) {
        if (row.length != types.length) {
            throw new IllegalArgumentException("row has " + row.length + " values, schema has " + types.length);
        }
        for (int b = 0; b < bitmapBytes; b++) {
            int bits = 0;
            for (int i = b * 8; i < Math.min(types.length, b * 8 + 8); i++) {
                if (row[i] == null) {
                    bits |= 1 << (i - b * 8);
                }
            }
            w.put(bits);
        }
        for (int i = 0; i < types.length; i++) {
            Object v = row[i];
            if (v == null) {
                for (int b = fixedWidth(types[i]); b > 0; b--) {
                    w.put(0);
                }
                continue;
            }
            putValue(types[i], v, w);
        }
    }

    /** A value that is not null, in its type's form: fixed-width numbers, varint length + bytes otherwise. */
    static void putValue(DataType type, Object v, ByteWriter w) {
        switch (type.kind()) {
            case BOOLEAN -> w.put((Boolean) v ? 1 : 0);
            case INT, DATE -> w.putInt(((Number) v).intValue());
            case BIGINT, TIMESTAMP -> w.putLong(((Number) v).longValue());
            case DECIMAL -> {
                if (type.isWideDecimal()) {
                    Int128.put(w, (BigInteger) v, false);
                } else {
                    w.putLong(((Number) v).longValue());
                }
            }
            case DOUBLE -> w.putLong(Double.doubleToLongBits((Double) v));
            case CHAR, VARCHAR -> {
                byte[] s = ((String) v).getBytes(StandardCharsets.UTF_8);
                w.putVarInt(s.length);
                w.put(s);
            }
            case ARRAY, MAP -> {
                byte[] nested = NestedValues.encode(type, v);
                w.putVarInt(nested.length);
                w.put(nested);
            }
        }
    }

    /** Bytes a value of {@code type} takes whatever it is, null too; 0 for strings, whose length varies. */
    private static int fixedWidth(DataType type) {
        return switch (type.kind()) {
            case BOOLEAN -> 1;
            case INT, DATE -> 4;
            case DECIMAL -> type.isWideDecimal() ? Int128.BYTES : 8;
            case BIGINT, DOUBLE, TIMESTAMP -> 8;
            case CHAR, VARCHAR, ARRAY, MAP -> 0;
        };
    }

    public Object[] decode(byte[] b) {
        return decode(b, 0);
    }

    public Object[] decode(byte[] b, int offset) {
        return decode(b, offset, null);
    }

    /**
     * Decodes the columns marked in {@code wanted} (null: all); the others stay null and cost no
     * allocation, which is what keeps full scans that need a few columns cheap.
     */
    public Object[] decode(byte[] b, int offset, boolean[] wanted) {
        Object[] row = new Object[types.length];
        int[] pos = {offset + bitmapBytes};
        for (int i = 0; i < types.length; i++) {
            if ((b[offset + (i >> 3)] & (1 << (i & 7))) != 0) {
                pos[0] += fixedWidth(types[i]);
                continue;
            }
            row[i] = getValue(types[i], b, pos, wanted == null || wanted[i]);
        }
        return row;
    }

    /** Where {@link #decodeInto} puts the values of row {@code row}: each of its wanted columns set once. */
    public interface ValueSink {
        void setNull(int column, int row);

        /** An INT, DATE, BIGINT, TIMESTAMP or decimal of up to 18 digits (unscaled). */
        void setLong(int column, int row, long value);

        void setDouble(int column, int row, double value);

        void setBoolean(int column, int row, boolean value);

        /** A string, a wide decimal (its unscaled BigInteger), an array or a map, as stored. */
        void setObject(int column, int row, Object value);
    }

    /**
     * Decodes the columns marked in {@code wanted} of the row encoded at {@code offset} into
     * {@code into} as row {@code row}: numbers without boxing them, which a scan into column
     * vectors would only undo.
     */
    public void decodeInto(byte[] b, int offset, boolean[] wanted, ValueSink into, int row) {
        int[] pos = {offset + bitmapBytes};
        for (int i = 0; i < types.length; i++) {
            DataType type = types[i];
            if ((b[offset + (i >> 3)] & (1 << (i & 7))) != 0) {
                pos[0] += fixedWidth(type);
                if (wanted[i]) {
                    into.setNull(i, row);
                }
            } else if (!wanted[i] || fixedWidth(type) == 0 || type.isWideDecimal()) {
                Object v = getValue(type, b, pos, wanted[i]); // only moves past it when not wanted
                if (wanted[i]) {
                    into.setObject(i, row, v);
                }
            } else {
                int p = pos[0];
                pos[0] = p + fixedWidth(type);
                switch (type.kind()) {
                    case BOOLEAN -> into.setBoolean(i, row, b[p] != 0);
                    case INT, DATE -> into.setLong(i, row, Bytes.getInt(b, p));
                    case DOUBLE -> into.setDouble(i, row, Double.longBitsToDouble(Bytes.getLong(b, p)));
                    default -> into.setLong(i, row, Bytes.getLong(b, p)); // BIGINT, TIMESTAMP, a decimal
                }
            }
        }
    }

    /** The value at {@code pos[0]}, which moves past it; null without {@code keep}, which costs no allocation. */
    static Object getValue(DataType type, byte[] b, int[] pos, boolean keep) {
        int p = pos[0];
        switch (type.kind()) {
            case BOOLEAN -> {
                pos[0] = p + 1;
                return keep ? b[p] != 0 : null;
            }
            case INT, DATE -> {
                pos[0] = p + 4;
                return keep ? Bytes.getInt(b, p) : null;
            }
            case BIGINT, TIMESTAMP -> {
                pos[0] = p + 8;
                return keep ? Bytes.getLong(b, p) : null;
            }
            case DECIMAL -> {
                boolean wide = type.isWideDecimal();
                pos[0] = p + (wide ? Int128.BYTES : 8);
                return !keep ? null : wide ? Int128.get(b, p, false) : (Object) Bytes.getLong(b, p);
            }
            case DOUBLE -> {
                pos[0] = p + 8;
                return keep ? Double.longBitsToDouble(Bytes.getLong(b, p)) : null;
            }
            case CHAR, VARCHAR -> {
                int n = Bytes.getVarInt(b, pos);
                Object v = keep ? new String(b, pos[0], n, StandardCharsets.UTF_8) : null;
                pos[0] += n;
                return v;
            }
            case ARRAY, MAP -> {
                int n = Bytes.getVarInt(b, pos);
                Object v = keep ? NestedValues.decode(type, b, pos[0], n) : null;
                pos[0] += n;
                return v;
            }
            default -> throw new IllegalStateException("no row form for " + type);
        }
    }
}
