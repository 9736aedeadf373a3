package org.oooengine.core.txn;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * An encoded primary key (see {@code KeyCodec}): equality and order of its unsigned bytes. Its first
 * 16 bytes are kept beside the array as two words, so that comparing keys in a skip-list search
 * rarely reads the arrays: a composite key of a few numbers (a district's orders, say) differs
 * within them, and each array read is a cache miss of its own. With its length beside them too, a
 * key of at most 16 bytes (most composite keys) is compared and found equal in a hash probe
 * without reading either array.
 */
public final class Key implements Comparable<Key> {
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
    private static final int WORDS_BYTES = 16;

    private final byte[] bytes;
    /** Bytes 0-7 and 8-15, big-endian, zero past the end of a shorter key. */
    private final long word0;
    private final long word1;
    private final int length;

    public Key(byte[] bytes) {
        this.bytes = bytes;
        this.length = bytes.length;
        this.word0 = word(bytes, 0);
        this.word1 = word(bytes, 8);
    }

    private static long word(byte[] b, int from) {
        if (b.length >= from + 8) {
            return (long) LONGS.get(b, from);
        }
        long w = 0;
        for (int i = from; i < from + 8; i++) {
            w = (w << 8) | (i < b.length ? b[i] & 0xFF : 0);
        }
        return w;
    }

    public byte[] bytes() {
        return bytes;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Key k && word0 == k.word0 && word1 == k.word1 && length == k.length
                && (length <= WORDS_BYTES || Arrays.equals(bytes, k.bytes));
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
        int c = Long.compareUnsigned(word0, o.word0);
        if (c != 0) {
            return c;
        }
        c = Long.compareUnsigned(word1, o.word1);
        if (c != 0) {
            return c;
        }
        // The first 16 bytes agree, zeros standing in past a shorter key's end: that key is a prefix of the other.
        if (length <= WORDS_BYTES || o.length <= WORDS_BYTES) {
            return Integer.compare(length, o.length);
        }
        return Arrays.compareUnsigned(bytes, WORDS_BYTES, length, o.bytes, WORDS_BYTES, o.length);
    }

    @Override
    public String toString() {
        return Arrays.toString(bytes);
    }
}
