package org.oooengine.core.wire;

import java.nio.charset.StandardCharsets;
import org.oooengine.core.types.Bytes;

/** Reads a payload written by {@link PayloadWriter}; running past its end is a protocol error. */
public final class PayloadReader {
    private static final java.lang.invoke.VarHandle LITTLE_ENDIAN_LONG =
            java.lang.invoke.MethodHandles.byteArrayViewVarHandle(long[].class, java.nio.ByteOrder.LITTLE_ENDIAN);
    private final byte[] b;
    private int pos;

    public PayloadReader(byte[] payload) {
        this.b = payload;
    }

    public boolean hasMore() {
        return pos < b.length;
    }

    public int remaining() {
        return b.length - pos;
    }

    public byte get() {
        need(1);
        return b[pos++];
    }

    public int getInt() {
        need(4);
        int v = Bytes.getInt(b, pos);
        pos += 4;
        return v;
    }

    public long getLong() {
        need(8);
        long v = Bytes.getLong(b, pos);
        pos += 8;
        return v;
    }

    /** A value of {@code width} bytes (1 to 8) written by {@link PayloadWriter#putPacked}, zero-extended. */
    public long getPacked(int width) {
        need(width);
        long v;
        if (b.length - pos >= Long.BYTES) { // eight bytes read at once, those past the width masked off
            v = (long) LITTLE_ENDIAN_LONG.get(b, pos);
            v = width == Long.BYTES ? v : v & ((1L << (width * 8)) - 1);
        } else {
            v = 0;
            for (int i = width - 1; i >= 0; i--) {
                v = v << 8 | (b[pos + i] & 0xFF);
            }
        }
        pos += width;
        return v;
    }

    public int getVarInt() {
        int v = 0;
        for (int shift = 0; shift < 35; shift += 7) {
            byte x = get();
            v |= (x & 0x7F) << shift;
            if (x >= 0) {
                if (v < 0) {
                    break;
                }
                return v;
            }
        }
        throw new ProtocolException("bad length at payload offset " + pos);
    }

    /**
     * A count of items that follow, each at least {@code minBytesEach} long: a count the rest of
     * the payload cannot hold is refused before anyone sizes a collection by it.
     */
    public int getCount(int minBytesEach) {
        int n = getVarInt();
        if ((long) n * minBytesEach > remaining()) {
            throw new ProtocolException(n + " items announced at payload offset " + pos + ", but only " + remaining()
                    + " bytes follow");
        }
        return n;
    }

    public byte[] getBytes() {
        int n = getVarInt();
        need(n);
        byte[] out = new byte[n];
        System.arraycopy(b, pos, out, 0, n);
        pos += n;
        return out;
    }

    public String getString() {
        return new String(getBytes(), StandardCharsets.UTF_8);
    }

    private void need(int n) {
        if (n > b.length - pos) {
            throw new ProtocolException("payload truncated: " + n + " bytes needed at offset " + pos + " of " + b.length);
        }
    }
}
