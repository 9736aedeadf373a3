package org.oooengine.core.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Keys order and compare equal exactly as their unsigned bytes do, whatever their lengths and common prefixes. */
class KeyTest {
    @Test
    void ordersAsTheUnsignedBytes() {
        Random r = new Random(7);
        byte[][] keys = new byte[400][];
        for (int i = 0; i < keys.length; i++) {
            int length = r.nextInt(26); // empty, shorter than a word, between the words, past them
            byte[] k = new byte[length];
            for (int j = 0; j < length; j++) {
                k[j] = (byte) (r.nextInt(4) == 0 ? r.nextInt(256) : r.nextInt(3) * 127); // many shared prefixes, 0x00 and 0xFE
            }
            keys[i] = k;
        }
        for (byte[] a : keys) {
            for (byte[] b : keys) {
                int expected = Integer.signum(Arrays.compareUnsigned(a, b));
                Key ka = new Key(a);
                Key kb = new Key(b);
                assertEquals(expected, Integer.signum(ka.compareTo(kb)), Arrays.toString(a) + " vs " + Arrays.toString(b));
                assertEquals(expected == 0, ka.equals(kb));
                if (expected == 0) {
                    assertEquals(ka.hashCode(), kb.hashCode());
                }
            }
        }
    }

    @Test
    void aKeyEndingInZerosSortsAfterItsPrefix() {
        assertEquals(-1, Integer.signum(new Key(new byte[] {1}).compareTo(new Key(new byte[] {1, 0}))));
        assertEquals(1, Integer.signum(new Key(new byte[17]).compareTo(new Key(new byte[16]))));
        assertEquals(-1, Integer.signum(new Key(new byte[9]).compareTo(new Key(new byte[20]))));
    }
}
