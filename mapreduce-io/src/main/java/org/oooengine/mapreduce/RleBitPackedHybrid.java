package org.oooengine.mapreduce;

/**
 * Decodes Parquet's RLE / bit-packed hybrid encoding (definition levels, dictionary ids) from a
 * byte array into ints, many at a time: a run is a varint header, whose lowest bit says whether
 * a value repeated (header / 2) times follows, in the bytes its bit width needs, or (header / 2)
 * groups of 8 values packed {@code bitWidth} bits each, least significant bit first.
 */
final class RleBitPackedHybrid {
    private final byte[] data;
    private final int end;
    private final int bitWidth;
    private static final java.lang.invoke.VarHandle LITTLE_ENDIAN_LONG =
            java.lang.invoke.MethodHandles.byteArrayViewVarHandle(long[].class, java.nio.ByteOrder.LITTLE_ENDIAN);
    private final long mask;
    private int pos;
    /** Values left in the current run. */
    private int left;
    private boolean packed;
    private int repeated;
    /** Of a packed run: the bits read but not yet handed out. */
    private long bits;
    private int bitCount;

    /** Decodes {@code data[from, end)}, values of {@code bitWidth} bits (0 to 32). */
    RleBitPackedHybrid(byte[] data, int from, int end, int bitWidth) {
        if (bitWidth < 0 || bitWidth > 32) {
            throw new IllegalStateException("a bit width of " + bitWidth + " in an RLE / bit-packed run");
        }
        this.data = data;
        this.pos = from;
        this.end = end;
        this.bitWidth = bitWidth;
        this.mask = bitWidth == 0 ? 0 : (1L << bitWidth) - 1;
    }

    /** Reads the next {@code n} values into {@code out[off, off + n)}. */
    void read(int[] out, int off, int n) {
        int done = 0;
        while (done < n) {
            if (left == 0) {
                nextRun();
            }
            int k = Math.min(left, n - done);
            if (packed) {
                int i = 0;
                if (bitCount == 0) { // whole groups of 8 values in bitWidth bytes, while a long can be read past them
                    for (; k - i >= 8 && pos + bitWidth <= end && pos + bitWidth + Long.BYTES <= data.length; i += 8) {
                        unpackGroup(out, off + done + i);
                    }
                }
                for (; i < k; i++) {
                    while (bitCount < bitWidth) {
                        bits |= (long) (nextByte() & 0xFF) << bitCount;
                        bitCount += 8;
                    }
                    out[off + done + i] = (int) (bits & mask);
                    bits >>>= bitWidth;
                    bitCount -= bitWidth;
                }
            } else {
                java.util.Arrays.fill(out, off + done, off + done + k, repeated);
            }
            left -= k;
            done += k;
        }
    }

    /**
     * Skips the next {@code n} values where they are all {@code value} in one repeated run (a page's
     * definition levels where no value is null), so that they need not be read one by one;
     * false, having skipped nothing, where they are not.
     */
    boolean skipRepeated(int value, int n) {
        if (left == 0 && pos < end) {
            nextRun();
        }
        if (packed || left < n || repeated != value) {
            return false;
        }
        left -= n;
        return true;
    }

    /**
     * Eight values of a packed run from its next {@code bitWidth} bytes, from a byte boundary: each
     * from one unaligned little-endian long (a value and its bit offset within a byte fit in 39 bits).
     */
    private void unpackGroup(int[] out, int at) {
        for (int j = 0, offset = 0; j < 8; j++, offset += bitWidth) {
            long word = (long) LITTLE_ENDIAN_LONG.get(data, pos + (offset >>> 3));
            out[at + j] = (int) ((word >>> (offset & 7)) & mask);
        }
        pos += bitWidth;
    }

    private byte nextByte() {
        if (pos >= end) {
            throw new IllegalStateException("an RLE / bit-packed run ends at byte " + pos + ", before its values");
        }
        return data[pos++];
    }

    private void nextRun() {
        if (pos >= end) {
            throw new IllegalStateException("an RLE / bit-packed run ends before its values");
        }
        int header = 0;
        int shift = 0;
        int b;
        do {
            b = nextByte() & 0xFF;
            header |= (b & 0x7F) << shift;
            shift += 7;
        } while ((b & 0x80) != 0);
        packed = (header & 1) != 0;
        if (packed) {
            left = (header >>> 1) * 8;
            bits = 0;
            bitCount = 0;
        } else {
            left = header >>> 1;
            repeated = 0;
            for (int i = 0, bytes = (bitWidth + 7) / 8; i < bytes; i++) {
                repeated |= (nextByte() & 0xFF) << (8 * i);
            }
        }
        if (left <= 0) {
            throw new IllegalStateException("an empty RLE / bit-packed run");
        }
    }
}
