package org.oooengine.hive.server;

import java.time.Duration;

/**
 * How failed logins are slowed down: a delay that starts at {@code delay} and doubles with each
 * failure up to {@code maxDelay}, and failures that fade by one per {@code maxDelay} of quiet —
 * no failure, and no login refused for earlier ones.
 */
final class Backoff {
    private final long delayNanos;
    private final long maxDelayNanos;

    Backoff(Duration delay, Duration maxDelay) {
        this.delayNanos = delay.toNanos();
        this.maxDelayNanos = maxDelay.toNanos();
    }

    long maxDelayNanos() {
        return maxDelayNanos;
    }

    /** The delay after {@code failures} failures: doubling from the first delay, capped. */
    long delay(int failures) {
        if (failures <= 0) {
            return 0;
        }
        return Math.min(maxDelayNanos, delayNanos << Math.min(failures - 1, 30));
    }

    Failures failures() {
        return new Failures();
    }

    /** The failures of one address or user; its owner synchronizes. */
    final class Failures {
        private int failures;
        private long lastFailureNanos;

        int count(long now) {
            long faded = (now - lastFailureNanos) / maxDelayNanos;
            return (int) Math.max(0, failures - faded);
        }

        /** Counts one more failure at {@code now}; returns the count. */
        int fail(long now) {
            failures = count(now) + 1;
            lastFailureNanos = now;
            return failures;
        }

        /**
         * A login refused without a check, that came when there were {@code atArrival} failures:
         * they do not fade while it waited, nor while the guesser keeps trying.
         */
        void refused(long now, int atArrival) {
            failures = Math.max(count(now), atArrival);
            if (failures > 0) {
                lastFailureNanos = now;
            }
        }
    }
}
