package org.oooengine.mapreduce;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Runs written as Parquet's format says (repeated values, then groups of 8 packed least
 * significant bit first) are read back whole, whatever the bit width and however the reads are cut.
 */
class RleBitPackedHybridTest {
    @Test
    void readsPackedAndRepeatedRunsOfEveryWidth() {
        Random random = new Random(7);
        for (int width = 0; width <= 32; width++) {
            long bound = 1L << width;
            int[] values = new int[203];
            for (int i = 0; i < values.length; i++) {
                values[i] = i >= 40 && i < 75 ? 5 % (int) Math.max(1, Math.min(bound, 6)) // a repeated run
                        : (int) (random.nextLong() & (bound - 1));
            }
            byte[] encoded = encode(values, width);
            for (int step : new int[] {1, 3, 8, 13, 64, values.length}) {
                RleBitPackedHybrid reader = new RleBitPackedHybrid(encoded, 0, encoded.length, width);
                int[] read = new int[values.length];
                for (int done = 0; done < values.length; done += step) {
                    reader.read(read, done, Math.min(step, values.length - done));
                }
                assertArrayEquals(values, read, "width " + width + ", reads of " + step);
            }
        }
    }

    @Test
    void valuesOfOneRepeatedRunAreSkippedWholeAndNoOthers() {
        int[] values = new int[203];
        Random random = new Random(8);
        for (int i = 0; i < values.length; i++) {
            values[i] = i >= 40 && i < 75 ? 5 : random.nextInt(8);
        }
        byte[] encoded = encode(values, 3);
        RleBitPackedHybrid reader = new RleBitPackedHybrid(encoded, 0, encoded.length, 3);
        int[] read = new int[values.length];
        assertFalse(reader.skipRepeated(5, 8), "values of a packed run");
        reader.read(read, 0, 40);
        assertFalse(reader.skipRepeated(4, 10), "another value");
        assertFalse(reader.skipRepeated(5, 36), "more values than the run has");
        assertTrue(reader.skipRepeated(5, 20));
        reader.read(read, 60, values.length - 60);
        System.arraycopy(values, 40, read, 40, 20);
        assertArrayEquals(values, read);
    }

    @Test
    void aRunPastTheBytesIsRefused() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        packed(out, new int[] {1, 2, 3, 4, 5, 6, 7, 0}, 0, 8, 3);
        byte[] encoded = out.toByteArray();
        RleBitPackedHybrid reader = new RleBitPackedHybrid(encoded, 0, encoded.length - 1, 3);
        assertThrows(IllegalStateException.class, () -> reader.read(new int[8], 0, 8));
    }

    /** Values 40 to 75 as one repeated run (values before padded into whole groups), the rest packed. */
    private static byte[] encode(int[] values, int width) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        packed(out, values, 0, 40, width);
        repeated(out, values[40], 35, width);
        packed(out, values, 75, values.length, width);
        return out.toByteArray();
    }

    private static void packed(ByteArrayOutputStream out, int[] values, int from, int to, int width) {
        int groups = (to - from + 7) / 8;
        varint(out, groups << 1 | 1);
        long bits = 0;
        int count = 0;
        for (int i = 0; i < groups * 8; i++) {
            long v = from + i < to ? values[from + i] & 0xFFFFFFFFL : 0;
            bits |= v << count;
            count += width;
            while (count >= 8) {
                out.write((int) (bits & 0xFF));
                bits >>>= 8;
                count -= 8;
            }
        }
    }

    private static void repeated(ByteArrayOutputStream out, int value, int times, int width) {
        varint(out, times << 1);
        for (int b = 0; b < (width + 7) / 8; b++) {
            out.write(value >>> (8 * b) & 0xFF);
        }
    }

    private static void varint(ByteArrayOutputStream out, int v) {
        while ((v & ~0x7F) != 0) {
            out.write(v & 0x7F | 0x80);
            v >>>= 7;
        }
        out.write(v);
    }
}
