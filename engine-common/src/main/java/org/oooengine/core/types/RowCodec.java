package org.oooengine.core.types;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;

/**
 * Compact row encoding: a null bitmap, then each value (fixed-width numbers big-endian, strings as
 * varint length + UTF-8). A null string takes no bytes; a null number takes its width all the same
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
            switch (types[i].kind()) {
                case BOOLEAN -> w.put((Boolean) v ? 1 : 0);
                case INT, DATE -> w.putInt(((Number) v).intValue());
                case BIGINT, TIMESTAMP -> w.putLong(((Number) v).longValue());
                case DECIMAL -> {
                    if (types[i].isWideDecimal()) {
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
            case CHAR, VARCHAR -> 0;
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
            boolean keep = wanted == null || wanted[i];
            int p = pos[0];
            switch (types[i].kind()) {
                case BOOLEAN -> {
                    row[i] = keep ? b[p] != 0 : null;
                    pos[0] = p + 1;
                }
                case INT, DATE -> {
                    row[i] = keep ? Bytes.getInt(b, p) : null;
                    pos[0] = p + 4;
                }
                case BIGINT, TIMESTAMP -> {
                    row[i] = keep ? Bytes.getLong(b, p) : null;
                    pos[0] = p + 8;
                }
                case DECIMAL -> {
                    boolean wide = types[i].isWideDecimal();
                    row[i] = !keep ? null : wide ? Int128.get(b, p, false) : (Object) Bytes.getLong(b, p);
                    pos[0] = p + (wide ? Int128.BYTES : 8);
                }
                case DOUBLE -> {
                    row[i] = keep ? Double.longBitsToDouble(Bytes.getLong(b, p)) : null;
                    pos[0] = p + 8;
                }
                case CHAR, VARCHAR -> {
                    int n = Bytes.getVarInt(b, pos);
                    row[i] = keep ? new String(b, pos[0], n, StandardCharsets.UTF_8) : null;
                    pos[0] += n;
                }
            }
        }
        return row;
    }
}
