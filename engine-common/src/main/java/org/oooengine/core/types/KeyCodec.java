package org.oooengine.core.types;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Order-preserving key encoding: comparing two encoded keys as unsigned bytes gives the order of
 * the values column by column. That lets the B+tree compare composite keys with one
 * {@link Arrays#compareUnsigned} call and makes a key prefix a byte prefix.
 *
 * <p>Numbers are big-endian with the sign bit flipped; doubles additionally flip all bits when
 * negative; wide decimals are 128-bit integers the same way ({@link Int128}); strings escape 0x00 as 0x00 0x01 and end with 0x00 0x00, so no encoded column is a
 * prefix of a different value's encoding.
 */
public final class KeyCodec {
    private final DataType[] types;

    public KeyCodec(DataType[] types) {
        for (DataType type : types) {
            if (type.isComplex()) {
                // arrays and maps have no order to sort keys by (Hive does not compare them either)
                throw new IllegalArgumentException("a key column cannot be of type " + type);
            }
        }
        this.types = types.clone();
    }

    public int columns() {
        return types.length;
    }

    public byte[] encode(Object... values) {
        return encodePrefix(values, values.length);
    }

    /** Encodes the first {@code n} columns only: every full key with those values starts with the result. */
    public byte[] encodePrefix(Object[] values, int n) {
        ByteWriter w = new ByteWriter(16 * n);
        for (int i = 0; i < n; i++) {
            encodeColumn(w, types[i], values[i]);
        }
        return w.toByteArray();
    }

    static void encodeColumn(ByteWriter w, DataType type, Object v) {
        if (v == null) {
            throw new IllegalArgumentException("key columns cannot be NULL (" + type + ")");
        }
        switch (type.kind()) {
            case BOOLEAN -> w.put((Boolean) v ? 1 : 0);
            case INT, DATE -> w.putInt(((Number) v).intValue() ^ Integer.MIN_VALUE);
            case BIGINT, TIMESTAMP -> w.putLong(((Number) v).longValue() ^ Long.MIN_VALUE);
            case DECIMAL -> {
                if (type.isWideDecimal()) {
                    Int128.put(w, (BigInteger) v, true);
                } else {
                    w.putLong(((Number) v).longValue() ^ Long.MIN_VALUE);
                }
            }
            case DOUBLE -> {
                long bits = Double.doubleToLongBits((Double) v);
                w.putLong(bits < 0 ? ~bits : bits ^ Long.MIN_VALUE);
            }
            case CHAR, VARCHAR -> {
                byte[] s = ((String) v).getBytes(StandardCharsets.UTF_8);
                for (byte b : s) {
                    w.put(b);
                    if (b == 0) {
                        w.put(1);
                    }
                }
                w.put(0);
                w.put(0);
            }
            case ARRAY, MAP -> throw new IllegalStateException("refused by the constructor");
        }
    }

    /** Decodes all columns of a key. */
    public Object[] decode(byte[] key) {
        Object[] out = new Object[types.length];
        int[] pos = {0};
        for (int i = 0; i < types.length; i++) {
            out[i] = decodeColumn(key, pos, types[i]);
        }
        return out;
    }

    /** Decodes columns [from, types.length) of a key, skipping the first {@code from}. */
    public Object[] decodeSuffix(byte[] key, int from) {
        int[] pos = {0};
        for (int i = 0; i < from; i++) {
            decodeColumn(key, pos, types[i]);
        }
        Object[] out = new Object[types.length - from];
        for (int i = from; i < types.length; i++) {
            out[i - from] = decodeColumn(key, pos, types[i]);
        }
        return out;
    }

    private static Object decodeColumn(byte[] b, int[] pos, DataType type) {
        int p = pos[0];
        Object v;
        switch (type.kind()) {
            case BOOLEAN -> {
                v = b[p] != 0;
                p += 1;
            }
            case INT, DATE -> {
                v = Bytes.getInt(b, p) ^ Integer.MIN_VALUE;
                p += 4;
            }
            case BIGINT, TIMESTAMP -> {
                v = Bytes.getLong(b, p) ^ Long.MIN_VALUE;
                p += 8;
            }
            case DECIMAL -> {
                if (type.isWideDecimal()) {
                    v = Int128.get(b, p, true);
                    p += Int128.BYTES;
                } else {
                    v = Bytes.getLong(b, p) ^ Long.MIN_VALUE;
                    p += 8;
                }
            }
            case DOUBLE -> {
                long bits = Bytes.getLong(b, p);
                v = Double.longBitsToDouble(bits < 0 ? bits ^ Long.MIN_VALUE : ~bits);
                p += 8;
            }
            default -> {
                ByteWriter s = new ByteWriter(32);
                while (true) {
                    byte x = b[p++];
                    if (x == 0) {
                        byte next = b[p++];
                        if (next == 0) {
                            break;
                        }
                        s.put(0);
                    } else {
                        s.put(x);
                    }
                }
                v = new String(s.toByteArray(), StandardCharsets.UTF_8);
            }
        }
        pos[0] = p;
        return v;
    }

    /**
     * How many leading columns two keys of this codec have equal: 0 when their first columns
     * differ, {@link #columns()} when the keys are equal.
     */
    public int sharedColumns(byte[] a, byte[] b) {
        int pos = 0;
        for (int i = 0; i < types.length; i++) {
            int end = columnEnd(a, pos, types[i]);
            if (end > a.length || end > b.length || end != columnEnd(b, pos, types[i])
                    || !Arrays.equals(a, pos, end, b, pos, end)) {
                return i;
            }
            pos = end;
        }
        return types.length;
    }

    /** Where the column of {@code type} that starts at {@code pos} of an encoded key ends; past the key when it is cut. */
    private static int columnEnd(byte[] key, int pos, DataType type) {
        return switch (type.kind()) {
            case BOOLEAN -> pos + 1;
            case INT, DATE -> pos + 4;
            case DECIMAL -> pos + (type.isWideDecimal() ? Int128.BYTES : 8);
            case BIGINT, DOUBLE, TIMESTAMP -> pos + 8;
            default -> {
                int p = pos;
                while (p + 1 < key.length && !(key[p] == 0 && key[p + 1] == 0)) {
                    p += key[p] == 0 ? 2 : 1; // 0x00 0x01 is an escaped zero byte
                }
                yield Math.min(key.length, p + 2);
            }
        };
    }

    /**
     * The smallest byte string greater than every string that starts with {@code prefix}; null when
     * there is none (the prefix is all 0xFF). Makes "all keys with this prefix" the range
     * [prefix, successor(prefix)).
     */
    public static byte[] successor(byte[] prefix) {
        byte[] s = prefix.clone();
        for (int i = s.length - 1; i >= 0; i--) {
            if (s[i] != (byte) 0xFF) {
                s[i]++;
                return Arrays.copyOf(s, i + 1);
            }
        }
        return null;
    }
}
