package org.oooengine.core.types;

/** Big-endian reads and varints over byte arrays, shared by key, row and page codecs. */
public final class Bytes {
    private Bytes() {
    }

    public static int getInt(byte[] b, int off) {
        return ((b[off] & 0xFF) << 24) | ((b[off + 1] & 0xFF) << 16) | ((b[off + 2] & 0xFF) << 8) | (b[off + 3] & 0xFF);
    }

    public static long getLong(byte[] b, int off) {
        return ((long) getInt(b, off) << 32) | (getInt(b, off + 4) & 0xFFFFFFFFL);
    }

    public static void putInt(byte[] b, int off, int v) {
        b[off] = (byte) (v >>> 24);
        b[off + 1] = (byte) (v >>> 16);
        b[off + 2] = (byte) (v >>> 8);
        b[off + 3] = (byte) v;
    }

    public static void putLong(byte[] b, int off, long v) {
        putInt(b, off, (int) (v >>> 32));
        putInt(b, off + 4, (int) v);
    }

    /** Reads a varint at {@code pos[0]} and advances it. */
    public static int getVarInt(byte[] b, int[] pos) {
        int p = pos[0];
        int v = 0;
        int shift = 0;
        while (true) {
            int x = b[p++];
            v |= (x & 0x7F) << shift;
            if ((x & 0x80) == 0) {
                break;
            }
            shift += 7;
            if (shift > 28) {
                throw new IllegalStateException("varint longer than 5 bytes at offset " + pos[0]);
            }
        }
        pos[0] = p;
        return v;
    }

    public static int varIntSize(int v) {
        int n = 1;
        while ((v & ~0x7F) != 0) {
            v >>>= 7;
            n++;
        }
        return n;
    }
}
