package org.oooengine.hive.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import javax.security.sasl.SaslException;
import org.junit.jupiter.api.Test;

/**
 * The login throttle under guessing, with the addresses it counts by given as text (what the
 * transports hand it from {@link ClientAddress}): guesses for one user from many addresses, and
 * one guess each for many users.
 */
class LoginThrottleTest {
    private static final Duration DELAY = Duration.ofMillis(10);
    private static final Duration MAX_DELAY = Duration.ofMillis(200);

    /** What a guessing run got: passwords checked, logins refused without a check, and other failures. */
    private record Run(int checked, int refused, List<String> refusals, long millis) {
    }

    /**
     * {@code threads} guessers, the {@code i}-th guessing {@code userOf(i)}'s password from
     * {@code addressOf(i)}, for {@code millis}: every password they send is wrong.
     */
    private static Run guess(LoginThrottle throttle, int threads, IntFunction<String> userOf, IntFunction<String> addressOf,
                             long millis) throws Exception {
        AtomicInteger checked = new AtomicInteger();
        AtomicInteger refused = new AtomicInteger();
        var refusals = ConcurrentHashMap.<String>newKeySet();
        long start = System.nanoTime();
        long end = start + TimeUnit.MILLISECONDS.toNanos(millis);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> guessers = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                String user = userOf.apply(i);
                String address = addressOf.apply(i);
                guessers.add(pool.submit(() -> {
                    while (System.nanoTime() < end) {
                        try {
                            assertFalse(throttle.check(user, address, () -> {
                                checked.incrementAndGet();
                                return false;
                            }));
                        } catch (SaslException e) {
                            refused.incrementAndGet();
                            refusals.add(e.getMessage().replaceAll("\\d+", "N"));
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> g : guessers) {
                g.get(millis + 10 * MAX_DELAY.toMillis(), TimeUnit.MILLISECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        return new Run(checked.get(), refused.get(), List.copyOf(refusals), TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
    }

    @Test
    void guessesForOneUserFromManyAddressesAreNoFasterThanFromOne() throws Exception {
        LoginThrottle throttle = new LoginThrottle(DELAY, MAX_DELAY, 0);
        Run oneAddress = guess(throttle, 20, i -> "alice", i -> "10.0.0.1", 2000);
        Run manyAddresses = guess(throttle, 20, i -> "bob", i -> "10.0.1." + i, 2000);
        // One check at a time per user, each after the user's delay (10, 20, ... 200 ms): about
        // five in the first half second, then one per 200 ms, whatever the addresses.
        long bound = 6 + manyAddresses.millis / MAX_DELAY.toMillis();
        assertTrue(manyAddresses.checked <= bound, manyAddresses + ", bound " + bound);
        assertTrue(manyAddresses.checked <= oneAddress.checked * 3 / 2 + 2, "from 20 addresses " + manyAddresses
                + ", from one " + oneAddress);
        assertTrue(manyAddresses.refusals.stream().allMatch(m -> m.startsWith("too many failed logins for user 'bob'")),
                manyAddresses.refusals.toString());
    }

    @Test
    void theRightPasswordFromAnAddressWithoutFailuresWaitsOneTurnAtMost() throws Exception {
        LoginThrottle throttle = new LoginThrottle(DELAY, MAX_DELAY, 0);
        for (int i = 0; i < 20; i++) { // twenty addresses known to guess: each has failed for a user of its own
            assertFalse(throttle.check("someone" + i, "10.0.2." + i, () -> false));
        }
        ExecutorService attack = Executors.newSingleThreadExecutor();
        try {
            Future<Run> guessing = attack.submit(() -> guess(throttle, 20, i -> "carol", i -> "10.0.2." + i, 2500));
            Thread.sleep(1000); // carol's delay has reached its cap, and the guessers queue for her turns
            long start = System.nanoTime();
            // Got in: a login not given a turn within twice the longest delay is refused, so behind
            // the twenty guessers it would have failed. The bound (one turn is at most 200 ms on a
            // quiet machine; twenty turns would take 4 s) only keeps a stall from passing unnoticed,
            // with room for a machine so loaded that threads wait a second for a core.
            assertTrue(throttle.check("carol", "10.9.9.9", () -> true));
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertTrue(millis < 15 * MAX_DELAY.toMillis(), "the right password waited " + millis + " ms");
            assertTrue(guessing.get().refused > 0, "guessers queued behind it were refused: " + guessing.get());
        } finally {
            attack.shutdownNow();
        }
    }

    @Test
    void theEndpointsRateCapsChecksAcrossUsers() throws Exception {
        int perSecond = 20;
        Duration maxDelay = Duration.ofMillis(500);
        LoginThrottle throttle = new LoginThrottle(DELAY, maxDelay, perSecond);
        // Twenty guessers, each its own user and address, so that no user's or address's delay
        // holds them back much (they would ask for 40 checks a second); each has failed once already.
        int guessers = 20;
        for (int i = 0; i < guessers; i++) {
            while (true) {
                try {
                    assertFalse(throttle.check("user" + i, "10.0.3." + i, () -> false));
                    break;
                } catch (SaslException e) {
                    Thread.sleep(50); // over the rate: the next slot comes
                }
            }
        }
        ExecutorService attack = Executors.newSingleThreadExecutor();
        try {
            Future<Run> spraying = attack.submit(() -> guess(throttle, guessers, i -> "user" + i, i -> "10.0.3." + i, 2000));
            Thread.sleep(1000);
            // Addresses with failures fill at most half the rate's queue: one without still gets a slot.
            long start = System.nanoTime();
            // Got a slot, not a refusal; the bound is five times the longest wait on a quiet machine.
            assertTrue(throttle.check("dave", "10.9.9.9", () -> true));
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertTrue(millis < 5 * (maxDelay.toMillis() + 100), "the right password waited " + millis + " ms");

            Run spray = spraying.get();
            long bound = perSecond + perSecond * spray.millis / 1000 + 2; // a second's burst, then the steady rate
            assertTrue(spray.checked <= bound, spray + ", bound " + bound);
            assertTrue(spray.checked >= perSecond, spray.toString());
            assertTrue(spray.refusals.contains("the server is checking too many passwords (at most N a second, "
                    + EndpointConfig.Limits.LOGIN_CHECKS_PER_SECOND + "); try again in N s"), spray.refusals.toString());
        } finally {
            attack.shutdownNow();
        }
    }

    @Test
    void aWrongPasswordIsAnsweredAfterTheUsersDelay() throws Exception {
        LoginThrottle throttle = new LoginThrottle(Duration.ofMillis(100), Duration.ofSeconds(1), 0);
        for (int i = 0; i < 3; i++) {
            assertFalse(throttle.check("erin", "10.0.4." + i, () -> false));
        }
        long start = System.nanoTime();
        assertFalse(throttle.check("erin", "10.0.4.9", () -> false));
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        // each failure was answered after the user's delay, by when the next turn had come; the
        // fourth failure doubles the delay to 800 ms
        assertTrue(millis >= 750, "answered after " + millis + " ms");
        assertEquals("'bad?name'", UserTurns.printable("bad\nname"));
    }

    @Test
    void credentialsThatPassedRecentlyPassWithoutACheck() throws Exception {
        // A second to live: a loaded machine does not let it expire between the add and the checks.
        Duration ttl = Duration.ofSeconds(1);
        RecentLogins recent = new RecentLogins(ttl);
        long added = System.nanoTime();
        recent.add("alice", "right-password");
        assertTrue(recent.contains("alice", "right-password"));
        assertFalse(recent.contains("alice", "wrong-password"));
        assertFalse(recent.contains("alic", "eright-password"));
        long deadline = added + TimeUnit.SECONDS.toNanos(30);
        while (recent.contains("alice", "right-password")) {
            assertTrue(System.nanoTime() < deadline, "not expired 30 s after it was added");
            Thread.sleep(20);
        }
        long lived = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - added);
        assertTrue(lived >= ttl.toMillis(), "expired after " + lived + " ms");
    }
}
