package org.oooengine.core.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** A column's value sample: every value equally likely, the same for the same rows; partitions merged by weight. */
class ValueSampleTest {
    private static List<String> sampleOf(int rows, long seed) {
        ValueSample s = new ValueSample(seed);
        IntStream.range(0, rows).forEach(i -> s.add(i % 10 == 0 ? "tenth" : "other " + i));
        return s.values();
    }

    @Test
    void keepsAllOfFewValuesAndAFixedNumberOfMany() {
        assertEquals(50, sampleOf(50, 1).size());
        assertEquals(ValueSample.SIZE, sampleOf(100_000, 1).size());
        assertEquals(sampleOf(100_000, 7), sampleOf(100_000, 7), "the same rows and seed give the same sample");
    }

    @Test
    void eachValueIsAsLikelyAsAnyOther() {
        long tenths = 0;
        int samples = 50;
        for (int seed = 0; seed < samples; seed++) {
            tenths += sampleOf(20_000, seed).stream().filter("tenth"::equals).count();
        }
        double share = tenths / (double) (samples * ValueSample.SIZE);
        assertTrue(Math.abs(share - 0.1) < 0.01, share + " of the sampled values were the tenth's");
    }

    @Test
    void partitionsGiveValuesInProportionToTheirs() {
        List<String> a = java.util.Collections.nCopies(ValueSample.SIZE, "a");
        List<String> b = java.util.Collections.nCopies(ValueSample.SIZE, "b");
        List<String> merged = ValueSample.merge(List.of(a, b), List.of(3_000L, 1_000L));
        assertEquals(ValueSample.SIZE, merged.size());
        assertEquals(ValueSample.SIZE * 3 / 4, merged.stream().filter("a"::equals).count());
        assertEquals(List.of(), ValueSample.merge(List.of(List.of()), List.of(0L)));
    }

    @Test
    void longValuesAreCut() {
        ValueSample s = new ValueSample(1);
        s.add("x".repeat(10_000));
        assertEquals(ValueSample.MAX_LENGTH, s.values().get(0).length());
    }
}
