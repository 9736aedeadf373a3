package org.oooengine.hive.server;

import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.BooleanSupplier;
import javax.security.sasl.SaslException;

/**
 * Slows password guessing down per client address, per user whatever the address, and over the
 * whole endpoint. Every password check — a SASL PLAIN login, an HTTP request's Basic credentials —
 * goes through {@link #check}, which lets it happen only after three waits:
 *
 * <ol>
 *   <li>The address's turn. After failed logins from an address, each further login from it waits
 *   until the turn after the previous attempt's plus a delay that starts at {@code delay} and
 *   doubles with each failure, up to {@code maxDelay}. An attempt whose turn is more than
 *   {@code maxDelay} away is refused at once, so waiting attackers never hold more than a few
 *   worker threads (and never more than the per-address connection limit).</li>
 *   <li>The user's turn ({@link UserTurns}): one check of a user's password at a time, the next
 *   one after a wrong password waiting the user's delay, which doubles as the address's does. So
 *   guesses spread over many addresses are no faster than from one, while the right password from
 *   an address without failures waits for one turn at most.</li>
 *   <li>A slot of the endpoint's rate ({@link CheckRate}), {@code checksPerSecond} over all users,
 *   so that guessing a few passwords for each of many users is bounded too. Addresses with
 *   failures may fill only half its queue, so a login from elsewhere still gets a slot.</li>
 * </ol>
 *
 * <p>The password is checked only then, so a guesser learns nothing sooner by hanging up early;
 * a wrong one is answered only after the user's delay. One failure is forgotten per
 * {@code maxDelay} without failures or refused logins, so a guesser kept waiting or refused stays
 * known as one for as long as it keeps trying.
 */
final class LoginThrottle {
    /** Addresses remembered at most; the oldest are forgotten first. */
    private static final int MAX_TRACKED = 10_000;

    private final Backoff backoff;
    private final Map<String, Address> byAddress = new LinkedHashMap<>() {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Address> eldest) {
            return size() > MAX_TRACKED;
        }
    };
    private final UserTurns users;
    private final CheckRate rate;

    /** @param checksPerSecond password checks a second over all users; 0: no limit */
    LoginThrottle(Duration delay, Duration maxDelay, int checksPerSecond) {
        this.backoff = new Backoff(delay, maxDelay);
        this.users = new UserTurns(backoff);
        this.rate = new CheckRate(checksPerSecond, backoff.maxDelayNanos());
    }

    /**
     * Whether {@code password} finds {@code user}'s password right, asked once the throttle gives
     * the login its turn. A wrong one counts against the address and the user, and is answered
     * after the user's delay.
     *
     * @param address the client as the throttle counts it ({@link ClientAddress})
     * @throws SaslException refused without a check; the message says why and when to try again
     */
    boolean check(String user, String address, BooleanSupplier password) throws SaslException, InterruptedIOException {
        int addressFailures = awaitAddressTurn(address);
        long answerAfter;
        try (UserTurns.Turn turn = users.await(user, addressFailures)) {
            sleep(rate.reserve(addressFailures == 0));
            if (password.getAsBoolean()) {
                return true;
            }
            failedFrom(address);
            answerAfter = turn.failed();
        } catch (SaslException e) {
            refusedFrom(address, addressFailures);
            throw e;
        }
        sleep(answerAfter);
        return false;
    }

    /**
     * Waits until {@code address} may try a password; returns its failures.
     *
     * @throws SaslException when its turn is further away than the longest delay
     */
    private int awaitAddressTurn(String address) throws SaslException, InterruptedIOException {
        long wait;
        int failures;
        synchronized (this) {
            Address a = byAddress.get(address);
            long now = System.nanoTime();
            failures = a == null ? 0 : a.failures.count(now);
            if (failures == 0) {
                return 0;
            }
            long turn = Math.max(now, a.nextTurnNanos);
            wait = turn - now;
            if (wait > backoff.maxDelayNanos()) {
                a.failures.refused(now, failures);
                throw new SaslException("too many failed logins from " + address + "; try again in "
                        + (wait / 1_000_000_000L + 1) + " s");
            }
            a.nextTurnNanos = turn + backoff.delay(failures);
        }
        sleep(wait);
        return failures;
    }

    /** Counts a wrong password from {@code address}: its next turn waits its delay. */
    private synchronized void failedFrom(String address) {
        long now = System.nanoTime();
        Address a = byAddress.computeIfAbsent(address, x -> new Address(backoff.failures()));
        int failures = a.failures.fail(now);
        a.nextTurnNanos = Math.max(a.nextTurnNanos, now + backoff.delay(failures));
    }

    /** A login from {@code address} refused without a check, that came when it had {@code failures}. */
    private synchronized void refusedFrom(String address, int failures) {
        Address a = byAddress.get(address);
        if (a != null) {
            a.failures.refused(System.nanoTime(), failures);
        }
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

    /** One address's failures and the turn of its next login. */
    private static final class Address {
        final Backoff.Failures failures;
        long nextTurnNanos;

        Address(Backoff.Failures failures) {
            this.failures = failures;
            this.nextTurnNanos = System.nanoTime();
        }
    }
}
