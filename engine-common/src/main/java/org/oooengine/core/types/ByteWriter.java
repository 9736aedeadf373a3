package org.oooengine.core.types;

import java.util.Arrays;

/** A growable big-endian byte buffer for building keys and rows without stream overhead. */
public final class ByteWriter {
    private static final java.lang.invoke.VarHandle LITTLE_ENDIAN_LONG =
            java.lang.invoke.MethodHandles.byteArrayViewVarHandle(long[].class, java.nio.ByteOrder.LITTLE_ENDIAN);
    private byte[] buf;
    private int len;

    public ByteWriter(int capacity) {
        buf = new byte[Math.max(16, capacity)];
    }

    public void reset() {
        len = 0;
    }

    public int length() {
        return len;
    }

    public byte[] toByteArray() {
        return Arrays.copyOf(buf, len);
    }

    private void ensure(int extra) {
        if (len + extra > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + extra));
        }
    }

    public void put(int b) {
        ensure(1);
        buf[len++] = (byte) b;
    }

    public void put(byte[] b) {
        put(b, 0, b.length);
    }

    public void put(byte[] b, int off, int n) {
        ensure(n);
        System.arraycopy(b, off, buf, len, n);
        len += n;
    }

    public void putInt(int v) {
        ensure(4);
        buf[len++] = (byte) (v >>> 24);
        buf[len++] = (byte) (v >>> 16);
        buf[len++] = (byte) (v >>> 8);
        buf[len++] = (byte) v;
    }

    public void putLong(long v) {
        putInt((int) (v >>> 32));
        putInt((int) v);
    }

    /** The {@code width} low bytes of {@code v}, least significant first (a frame of reference's offsets). */
    public void putPacked(long v, int width) {
        ensure(Long.BYTES); // all eight bytes stored at once; the next value overwrites those past the width
        LITTLE_ENDIAN_LONG.set(buf, len, v);
        len += width;
    }

    /** Unsigned LEB128 variable-length int: short strings cost one length byte. */
    public void putVarInt(int v) {
        while ((v & ~0x7F) != 0) {
            put((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        put(v);
    }
}
