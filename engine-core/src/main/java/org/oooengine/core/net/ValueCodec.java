package org.oooengine.core.net;

/**
 * Self-describing row encoding for result streams: a tag byte per value, so a receiver needs no
 * schema. Stored rows use the compact {@code RowCodec} instead; this is only for the wire.
 */
public final class ValueCodec {
    private static final byte NULL = 0;
    private static final byte FALSE = 1;
    private static final byte TRUE = 2;
    private static final byte INT = 3;
    private static final byte LONG = 4;
    private static final byte DOUBLE = 5;
    private static final byte STRING = 6;

    private ValueCodec() {
    }

    public static void writeRow(PayloadWriter w, Object[] row) {
        w.putVarInt(row.length);
        for (Object v : row) {
            if (v == null) {
                w.put(NULL);
            } else if (v instanceof Boolean b) {
                w.put(b ? TRUE : FALSE);
            } else if (v instanceof Integer i) {
                w.put(INT).putInt(i);
            } else if (v instanceof Long l) {
                w.put(LONG).putLong(l);
            } else if (v instanceof Double d) {
                w.put(DOUBLE).putLong(Double.doubleToLongBits(d));
            } else if (v instanceof String s) {
                w.put(STRING).putString(s);
            } else {
                throw new IllegalArgumentException("cannot send a value of " + v.getClass().getName());
            }
        }
    }

    public static Object[] readRow(PayloadReader r) {
        int n = r.getVarInt();
        if (n > r.remaining()) {
            throw new ProtocolException("row of " + n + " values in " + r.remaining() + " bytes");
        }
        Object[] row = new Object[n];
        for (int i = 0; i < n; i++) {
            byte tag = r.get();
            row[i] = switch (tag) {
                case NULL -> null;
                case FALSE -> Boolean.FALSE;
                case TRUE -> Boolean.TRUE;
                case INT -> r.getInt();
                case LONG -> r.getLong();
                case DOUBLE -> Double.longBitsToDouble(r.getLong());
                case STRING -> r.getString();
                default -> throw new ProtocolException("unknown value tag " + tag);
            };
        }
        return row;
    }
}
