package org.oooengine.core.storage;

import java.util.function.IntUnaryOperator;

/** Binary searches over the sorted keys of a page, given how entry {@code i}'s key compares with the key sought. */
final class KeySearch {
    private KeySearch() {
    }

    /** The first of {@code count} entries whose key is >= the key sought; {@code count} when every key is smaller. */
    static int lowerBound(int count, IntUnaryOperator compareWithKey) {
        return firstWhere(count, compareWithKey, false);
    }

    /** The child whose subtree may hold the key sought: the last separator <= it, or the first child. */
    static int childFor(int count, IntUnaryOperator compareWithKey) {
        return Math.max(0, firstWhere(count, compareWithKey, true) - 1);
    }

    /** The first entry whose key is above the key sought ({@code above}) or at or above it. */
    private static int firstWhere(int count, IntUnaryOperator compareWithKey, boolean above) {
        int lo = 0;
        int hi = count;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            int c = compareWithKey.applyAsInt(mid);
            if (above ? c <= 0 : c < 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }
}
