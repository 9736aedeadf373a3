package org.oooengine.cluster.bench;

import java.util.Arrays;

/** Summaries of repeated measurements, the same in every benchmark. */
public final class Stats {
    private Stats() {
    }

    /** The middle value (the upper one of an even count): one slow outlier never moves it. */
    public static double median(double... values) {
        if (values.length == 0) {
            throw new IllegalArgumentException("no values to take the median of");
        }
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }
}
