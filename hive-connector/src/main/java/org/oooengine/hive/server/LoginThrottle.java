package org.oooengine.hive.server;

import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.security.sasl.SaslException;

/**
 * Slows password guessing down, per client address and per user.
 *
 * <p>After failed logins from an address, each further login from it waits its turn: the turn
 * after the previous attempt's plus a delay that starts at {@code delay} and doubles with each
 * failure, up to {@code maxDelay}. The password is checked only then, so a guesser learns nothing
 * sooner by hanging up early. An attempt whose turn is more than {@code maxDelay} away is refused at
 * once, so waiting attackers never hold more than a few worker threads (and never more than the
 * per-address connection limit).
 *
 * <p>A wrong password for a user is also answered only after that user's delay, so guesses spread
 * over many addresses are slowed too; the right password is never delayed by the user's failures,
 * so an attack on a user does not lock that user out from elsewhere. One failure is forgotten per
 * {@code maxDelay} without failures.
 */
final class LoginThrottle {
    /** Addresses and users remembered at most; the oldest are forgotten first. */
    private static final int MAX_TRACKED = 10_000;

    private final long delayNanos;
    private final long maxDelayNanos;
    private final Map<String, Backoff> byAddress = bounded();
    private final Map<String, Backoff> byUser = bounded();

    LoginThrottle(Duration delay, Duration maxDelay) {
        this.delayNanos = delay.toNanos();
        this.maxDelayNanos = maxDelay.toNanos();
    }

    /**
     * Waits until {@code address} may try a password.
     *
     * @throws SaslException when its turn is further away than the longest delay; the message says
     *                       when to try again
     */
    void awaitTurn(String address) throws SaslException, InterruptedIOException {
        long wait;
        synchronized (this) {
            Backoff backoff = byAddress.get(address);
            long now = System.nanoTime();
            int failures = backoff == null ? 0 : backoff.failures(now);
            if (failures == 0) {
                return;
            }
            long turn = Math.max(now, backoff.nextTurnNanos);
            wait = turn - now;
            if (wait > maxDelayNanos) {
                throw new SaslException("too many failed logins from " + address + "; try again in "
                        + (wait / 1_000_000_000L + 1) + " s");
            }
            backoff.nextTurnNanos = turn + delay(failures);
        }
        sleep(wait);
    }

    /** Counts a wrong password of {@code user} from {@code address}, then waits out the user's delay. */
    void failed(String user, String address) throws InterruptedIOException {
        long wait;
        synchronized (this) {
            long now = System.nanoTime();
            Backoff fromAddress = byAddress.computeIfAbsent(address, a -> new Backoff());
            int failures = fromAddress.fail(now);
            fromAddress.nextTurnNanos = Math.max(fromAddress.nextTurnNanos, now + delay(failures));
            wait = delay(byUser.computeIfAbsent(user, u -> new Backoff()).fail(now));
        }
        sleep(wait);
    }

    /** The delay after {@code failures} failures: doubling from the first delay, capped. */
    private long delay(int failures) {
        if (failures <= 0) {
            return 0;
        }
        return Math.min(maxDelayNanos, delayNanos << Math.min(failures - 1, 30));
    }

    private static void sleep(long nanos) throws InterruptedIOException {
        if (nanos <= 0) {
            return;
        }
        try {
            Thread.sleep(nanos / 1_000_000, (int) (nanos % 1_000_000));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while delaying a login");
        }
    }

    private static Map<String, Backoff> bounded() {
        return new LinkedHashMap<>() {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Backoff> eldest) {
                return size() > MAX_TRACKED;
            }
        };
    }

    /** The failures of one address or user, fading by one per longest delay without failures. */
    private final class Backoff {
        private int failures;
        private long lastFailureNanos;
        long nextTurnNanos;

        int failures(long now) {
            long faded = (now - lastFailureNanos) / maxDelayNanos;
            return (int) Math.max(0, failures - faded);
        }

        int fail(long now) {
            failures = failures(now) + 1;
            lastFailureNanos = now;
            return failures;
        }
    }
}
