package org.oooengine.core.types;

import java.math.BigInteger;

/**
 * The unscaled value of a wide DECIMAL (precision 19..38) as 16 bytes: a 128-bit two's-complement
 * integer, big-endian. 10^38 - 1 needs 127 bits, so every such value fits.
 */
public final class Int128 {
    public static final int BYTES = 16;

    private Int128() {
    }

    /** Writes {@code v}; with {@code flipSign} the sign bit is inverted, so that unsigned byte order is numeric order (keys). */
    public static void put(ByteWriter w, BigInteger v, boolean flipSign) {
        if (v.bitLength() > 127) {
            throw new IllegalArgumentException(v + " does not fit 128 bits");
        }
        w.put(bytes(v, flipSign));
    }

    /** The 16 bytes {@link #put} writes. */
    public static byte[] bytes(BigInteger v, boolean flipSign) {
        byte[] minimal = v.toByteArray();
        byte[] out = new byte[BYTES];
        java.util.Arrays.fill(out, 0, BYTES - minimal.length, (byte) (v.signum() < 0 ? 0xFF : 0));
        System.arraycopy(minimal, 0, out, BYTES - minimal.length, minimal.length);
        if (flipSign) {
            out[0] ^= (byte) 0x80;
        }
        return out;
    }

    /** Reads the value {@link #put} wrote at {@code offset}. */
    public static BigInteger get(byte[] b, int offset, boolean flipSign) {
        byte[] bytes = java.util.Arrays.copyOfRange(b, offset, offset + BYTES);
        if (flipSign) {
            bytes[0] ^= (byte) 0x80;
        }
        return new BigInteger(bytes);
    }
}
