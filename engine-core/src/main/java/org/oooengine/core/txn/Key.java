package org.oooengine.core.txn;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/** An encoded primary key (see {@code KeyCodec}): equality and order of its unsigned bytes. */
public record Key(byte[] bytes) implements Comparable<Key> {
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

    @Override
    public boolean equals(Object o) {
        return o instanceof Key k && Arrays.equals(bytes, k.bytes);
    }

    /**
     * A mixing hash over 8-byte words. {@code Arrays.hashCode} maps big-endian integer keys to few,
     * clustered values (31 &lt; 256), which turns hash-table bins into trees.
     */
    @Override
    public int hashCode() {
        long h = bytes.length;
        int i = 0;
        for (; i + 8 <= bytes.length; i += 8) {
            h = (h ^ (long) LONGS.get(bytes, i)) * 0x9E3779B97F4A7C15L;
            h ^= h >>> 32;
        }
        for (; i < bytes.length; i++) {
            h = (h ^ bytes[i]) * 0x9E3779B97F4A7C15L;
            h ^= h >>> 32;
        }
        return (int) (h ^ (h >>> 29));
    }

    @Override
    public int compareTo(Key o) {
        return Arrays.compareUnsigned(bytes, o.bytes);
    }

    @Override
    public String toString() {
        return Arrays.toString(bytes);
    }
}
