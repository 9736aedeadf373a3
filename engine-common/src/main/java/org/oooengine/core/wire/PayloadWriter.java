package org.oooengine.core.wire;

import java.nio.charset.StandardCharsets;
import org.oooengine.core.types.ByteWriter;

/** Builds a payload: fixed-width numbers, var-int lengths, length-prefixed bytes and strings. */
public final class PayloadWriter {
    private final ByteWriter w;

    public PayloadWriter() {
        this(64);
    }

    public PayloadWriter(int capacity) {
        this.w = new ByteWriter(capacity);
    }

    /** The bytes written so far. */
    public int size() {
        return w.length();
    }

    public PayloadWriter put(int b) {
        w.put(b);
        return this;
    }

    public PayloadWriter putInt(int v) {
        w.putInt(v);
        return this;
    }

    public PayloadWriter putLong(long v) {
        w.putLong(v);
        return this;
    }

    /** The {@code width} low bytes of {@code v}, least significant first; read by {@link PayloadReader#getPacked}. */
    public PayloadWriter putPacked(long v, int width) {
        w.putPacked(v, width);
        return this;
    }

    public PayloadWriter putVarInt(int v) {
        w.putVarInt(v);
        return this;
    }

    public PayloadWriter putBytes(byte[] b) {
        w.putVarInt(b.length);
        w.put(b);
        return this;
    }

    /** Bytes without a length: for a body whose count was written before it. */
    public PayloadWriter putBytesRaw(byte[] b) {
        w.put(b);
        return this;
    }

    public PayloadWriter putString(String s) {
        return putBytes(s.getBytes(StandardCharsets.UTF_8));
    }

    public int length() {
        return w.length();
    }

    public byte[] toByteArray() {
        return w.toByteArray();
    }
}
