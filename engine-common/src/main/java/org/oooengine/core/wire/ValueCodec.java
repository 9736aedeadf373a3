package org.oooengine.core.wire;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.time.LocalDateTime;
import org.oooengine.core.types.LocalTimestamps;
import java.time.Duration;
import java.time.Period;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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
    /** A SQL decimal: scale, then the unscaled value's two's-complement bytes. */
    private static final byte DECIMAL = 7;
    /** A SQL date: days since 1970-01-01. */
    private static final byte DATE = 8;
    /** A SQL interval (the operand of date arithmetic): years, months, days. */
    private static final byte INTERVAL = 9;
    /** A SQL timestamp: microseconds since 1970-01-01 00:00:00. */
    private static final byte TIMESTAMP = 10;
    /** A SQL day-time interval (hours, minutes, seconds): seconds and nanoseconds. */
    private static final byte DURATION = 11;
    /** A stored wide decimal (precision above 18): its unscaled value's two's-complement bytes. */
    private static final byte UNSCALED = 12;
    /** A SQL array (java.util.List): the number of elements, then each element as a value of its own tag. */
    private static final byte ARRAY = 13;
    /** A SQL map (java.util.Map, read as a LinkedHashMap in the order sent): the number of entries, then key, value, ... */
    private static final byte MAP = 14;
    /** Deeper nesting of arrays and maps than any type makes: a guard against a frame that recurses forever. */
    private static final int MAX_DEPTH = 64;

    private ValueCodec() {
    }

    public static void writeRow(PayloadWriter w, Object[] row) {
        w.putVarInt(row.length);
        for (Object v : row) {
            writeValue(w, v);
        }
    }

    static void writeValue(PayloadWriter w, Object v) {
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
        } else if (v instanceof BigDecimal d) {
            w.put(DECIMAL).putVarInt(d.scale()).putBytes(d.unscaledValue().toByteArray());
        } else if (v instanceof LocalDate d) {
            w.put(DATE).putInt((int) d.toEpochDay());
        } else if (v instanceof LocalDateTime t) {
            w.put(TIMESTAMP).putLong(LocalTimestamps.toMicros(t));
        } else if (v instanceof BigInteger unscaled) {
            w.put(UNSCALED).putBytes(unscaled.toByteArray());
        } else if (v instanceof Period p) {
            w.put(INTERVAL).putInt(p.getYears()).putInt(p.getMonths()).putInt(p.getDays());
        } else if (v instanceof Duration d) {
            w.put(DURATION).putLong(d.getSeconds()).putInt(d.getNano());
        } else if (v instanceof List<?> list) {
            w.put(ARRAY).putVarInt(list.size());
            for (Object element : list) {
                writeValue(w, element);
            }
        } else if (v instanceof Map<?, ?> map) {
            w.put(MAP).putVarInt(map.size());
            for (Map.Entry<?, ?> e : map.entrySet()) {
                writeValue(w, e.getKey());
                writeValue(w, e.getValue());
            }
        } else {
            throw new IllegalArgumentException("cannot send a value of " + v.getClass().getName());
        }
    }

    public static Object[] readRow(PayloadReader r) {
        int n = r.getVarInt();
        if (n > r.remaining()) {
            throw new ProtocolException("row of " + n + " values in " + r.remaining() + " bytes");
        }
        Object[] row = new Object[n];
        for (int i = 0; i < n; i++) {
            row[i] = readValue(r, 0);
        }
        return row;
    }

    static Object readValue(PayloadReader r, int depth) {
        byte tag = r.get();
        return switch (tag) {
            case NULL -> null;
            case FALSE -> Boolean.FALSE;
            case TRUE -> Boolean.TRUE;
            case INT -> r.getInt();
            case LONG -> r.getLong();
            case DOUBLE -> Double.longBitsToDouble(r.getLong());
            case STRING -> r.getString();
            case DECIMAL -> {
                int scale = r.getVarInt();
                byte[] unscaled = r.getBytes();
                if (unscaled.length == 0) {
                    throw new ProtocolException("a decimal without digits");
                }
                yield new BigDecimal(new BigInteger(unscaled), scale);
            }
            case DATE -> LocalDate.ofEpochDay(r.getInt());
            case INTERVAL -> Period.of(r.getInt(), r.getInt(), r.getInt());
            case TIMESTAMP -> LocalTimestamps.ofMicros(r.getLong());
            case DURATION -> Duration.ofSeconds(r.getLong(), r.getInt());
            case UNSCALED -> {
                byte[] unscaled = r.getBytes();
                if (unscaled.length == 0) {
                    throw new ProtocolException("an unscaled decimal without digits");
                }
                yield new BigInteger(unscaled);
            }
            case ARRAY -> {
                int size = nested(r, depth, 1);
                List<Object> list = new ArrayList<>(size);
                for (int i = 0; i < size; i++) {
                    list.add(readValue(r, depth + 1));
                }
                yield list;
            }
            case MAP -> {
                int size = nested(r, depth, 2);
                Map<Object, Object> map = new LinkedHashMap<>();
                for (int i = 0; i < size; i++) {
                    Object key = readValue(r, depth + 1);
                    map.put(key, readValue(r, depth + 1));
                }
                yield map;
            }
            default -> throw new ProtocolException("unknown value tag " + tag);
        };
    }

    /** The size of an array or map (each item at least {@code bytesPerItem} bytes), within the nesting limit. */
    private static int nested(PayloadReader r, int depth, int bytesPerItem) {
        if (depth >= MAX_DEPTH) {
            throw new ProtocolException("arrays and maps nested deeper than " + MAX_DEPTH);
        }
        int size = r.getVarInt();
        if (size < 0 || (long) size * bytesPerItem > r.remaining()) {
            throw new ProtocolException("a collection of " + size + " items in " + r.remaining() + " bytes");
        }
        return size;
    }
}
