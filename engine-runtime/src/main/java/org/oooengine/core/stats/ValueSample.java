package org.oooengine.core.stats;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Up to {@link #SIZE} values of a column taken at random from all it holds, each value as likely
 * as any other row's (reservoir sampling), the same for the same rows in the same order: what the
 * optimizer tries a LIKE on to estimate the share of rows it keeps, where no rule of thumb holds
 * ({@code 'forest%'} keeps 1% of TPC-H's part names, {@code '%BRASS'} a fifth of its part types).
 */
public final class ValueSample {
    /** Values kept: a share down to about 1% shows in the sample as a value or two. */
    public static final int SIZE = 200;
    /** Longer values are kept cut to this many characters (a comment column's sample stays small). */
    static final int MAX_LENGTH = 256;

    private final List<String> kept = new ArrayList<>(SIZE);
    private final SplittableRandom random;
    private long seen;

    /** @param seed the same seed, rows and order give the same sample */
    public ValueSample(long seed) {
        this.random = new SplittableRandom(seed);
    }

    public void add(String value) {
        seen++;
        String v = value.length() > MAX_LENGTH ? value.substring(0, MAX_LENGTH) : value;
        if (kept.size() < SIZE) {
            kept.add(v);
        } else {
            long slot = random.nextLong(seen);
            if (slot < SIZE) {
                kept.set((int) slot, v);
            }
        }
    }

    public List<String> values() {
        return List.copyOf(kept);
    }

    /**
     * One sample of a table from its partitions' samples, each partition giving values in
     * proportion to the non-NULL values it holds ({@code weights}), at most {@link #SIZE} in all.
     */
    public static List<String> merge(List<List<String>> samples, List<Long> weights) {
        long total = weights.stream().mapToLong(Long::longValue).sum();
        List<String> out = new ArrayList<>();
        if (total <= 0) {
            return out;
        }
        for (int i = 0; i < samples.size(); i++) {
            List<String> s = samples.get(i);
            int share = (int) Math.min(s.size(), Math.round((double) SIZE * weights.get(i) / total));
            out.addAll(s.subList(0, share)); // a reservoir's values are in no particular order: its first are a sample too
        }
        return out.size() > SIZE ? out.subList(0, SIZE) : out;
    }
}
