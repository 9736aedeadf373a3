package org.oooengine.cluster.bench.txn;

import java.util.SplittableRandom;

/**
 * Draws keys in {@code [0, n)} with Zipf skew {@code theta} (0 = uniform, below 1), by the
 * closed-form method of Gray et al. ("Quickly generating billion-record synthetic databases"),
 * as YCSB does. Key 0 is the hottest. One instance per thread.
 */
public final class ZipfKeys {
    private final long n;
    private final double theta;
    private final double alpha;
    private final double zetaN;
    private final double eta;
    private final SplittableRandom random;

    public ZipfKeys(long n, double theta, long seed) {
        if (n < 1) {
            throw new IllegalArgumentException("need at least one row, not " + n);
        }
        if (theta < 0 || theta >= 1) {
            throw new IllegalArgumentException("Zipf theta must be in [0, 1): " + theta);
        }
        this.n = n;
        this.theta = theta;
        this.random = new SplittableRandom(seed);
        this.zetaN = zeta(n, theta);
        this.alpha = 1 / (1 - theta);
        double zeta2 = zeta(2, theta);
        this.eta = (1 - Math.pow(2.0 / n, 1 - theta)) / (1 - zeta2 / zetaN);
    }

    private static double zeta(long n, double theta) {
        double sum = 0;
        for (long i = 1; i <= n; i++) {
            sum += 1 / Math.pow(i, theta);
        }
        return sum;
    }

    public long next() {
        long rank;
        if (theta == 0 || n < 3) {
            rank = random.nextLong(n);
        } else {
            double u = random.nextDouble();
            double uz = u * zetaN;
            if (uz < 1) {
                rank = 0;
            } else if (uz < 1 + Math.pow(0.5, theta)) {
                rank = 1;
            } else {
                rank = Math.min(n - 1, (long) (n * Math.pow(eta * u - eta + 1, alpha)));
            }
        }
        return rank;
    }

    /** Fills {@code keys} with distinct draws. */
    public void distinct(long[] keys) {
        for (int i = 0; i < keys.length; i++) {
            long k;
            boolean dup;
            do {
                k = next();
                dup = false;
                for (int j = 0; j < i; j++) {
                    dup |= keys[j] == k;
                }
            } while (dup);
            keys[i] = k;
        }
    }
}
