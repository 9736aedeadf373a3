package org.oooengine.hive.server;

import java.util.concurrent.TimeUnit;
import javax.security.sasl.SaslException;

/**
 * The endpoint's rate of password checks over all users and addresses, so that guessing one
 * password each for many users is bounded as guessing many for one is: at most {@code perSecond}
 * checks a second, and as many at once after a quiet second (a generic cell rate). A check waits
 * for its slot; one whose slot is further away than {@code maxWait} is refused at once, so a flood
 * of logins never holds many threads. A login from an address that has failed is refused once its
 * wait passes half that: guessers fill at most half the queue, and a login from elsewhere always
 * finds a slot.
 */
final class CheckRate {
    private final int perSecond;
    private final long intervalNanos;
    /** How far ahead of the steady rate a burst may run: one second's checks. */
    private final long burstNanos;
    private final long maxWaitNanos;
    /** When the next check would be due at the steady rate; guarded by this. */
    private long dueNanos = System.nanoTime();

    /** @param perSecond checks a second at most; 0: no limit */
    CheckRate(int perSecond, long maxWaitNanos) {
        if (perSecond < 0) {
            throw new IllegalArgumentException("a rate of password checks cannot be negative: " + perSecond);
        }
        this.perSecond = perSecond;
        this.intervalNanos = perSecond == 0 ? 0 : TimeUnit.SECONDS.toNanos(1) / perSecond;
        this.burstNanos = intervalNanos * Math.max(0, perSecond - 1);
        this.maxWaitNanos = maxWaitNanos;
    }

    /**
     * Takes the next check's slot: how long to wait for it.
     *
     * @param cleanAddress whether the login's address has no failures
     * @throws SaslException when the slot is further away than the longest wait (half of it for an
     *                       address with failures); nothing is taken
     */
    synchronized long reserve(boolean cleanAddress) throws SaslException {
        if (perSecond == 0) {
            return 0;
        }
        long now = System.nanoTime();
        long due = dueNanos - now > 0 ? dueNanos : now;
        long wait = Math.max(0, due - burstNanos - now);
        if (wait > (cleanAddress ? maxWaitNanos : maxWaitNanos / 2)) {
            throw new SaslException("the server is checking too many passwords (at most " + perSecond + " a second, "
                    + EndpointConfig.Limits.LOGIN_CHECKS_PER_SECOND + "); try again in "
                    + (TimeUnit.NANOSECONDS.toSeconds(wait) + 1) + " s");
        }
        dueNanos = due + intervalNanos;
        return wait;
    }
}
