package org.oooengine.hive.server;

import java.io.InterruptedIOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.concurrent.TimeUnit;
import javax.security.sasl.SaslException;

/**
 * The password checks of each user, one at a time whatever address they come from. Each waits its
 * turn; after a wrong password the user's next turn comes only after the user's delay, doubling
 * with the user's failures, so guesses spread over many addresses go no faster than from one.
 *
 * <p>The next turn goes to the waiting login whose address has the fewest failures, then to the
 * earliest: the right password from an address that has not been guessing waits for the check in
 * progress and the delay after it, never behind a queue of guessers. A right password does not put
 * the next turn off, nor reset the user's failures (which would give guessers quick turns again).
 * A login that has not had its turn within twice the longest delay is refused.
 */
final class UserTurns {
    /** Users remembered at most; the least recently used with no login in progress are forgotten first. */
    private static final int MAX_TRACKED = 10_000;

    private final Backoff backoff;
    private final long maxWaitNanos;
    /** Guarded by itself, as is each user's {@link User#holders}. */
    private final Map<String, User> users = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, User> eldest) {
            return size() > MAX_TRACKED && eldest.getValue().holders == 0;
        }
    };

    UserTurns(Backoff backoff) {
        this.backoff = backoff;
        this.maxWaitNanos = 2 * backoff.maxDelayNanos();
    }

    /**
     * Waits for {@code user}'s turn; {@code rank}: the failures of the login's address (fewer go first).
     *
     * @throws SaslException when the turn did not come within twice the longest delay
     */
    Turn await(String user, int rank) throws SaslException, InterruptedIOException {
        User u;
        synchronized (users) {
            u = users.computeIfAbsent(user, name -> new User(backoff.failures()));
            u.holders++;
        }
        boolean granted = false;
        try {
            u.await(rank, user);
            granted = true;
            return new Turn(u);
        } finally {
            if (!granted) {
                leave(u);
            }
        }
    }

    private void leave(User u) {
        synchronized (users) {
            u.holders--;
        }
    }

    /** A user's turn: the one password check of that user in progress. Closing it without {@link #failed} ends it as a success. */
    final class Turn implements AutoCloseable {
        private final User user;
        private boolean ended;

        private Turn(User user) {
            this.user = user;
        }

        /** Ends the turn with a wrong password: the user's next turn waits the user's delay, which this returns. */
        long failed() {
            return end(true);
        }

        @Override
        public void close() {
            end(false);
        }

        private long end(boolean failed) {
            if (ended) {
                return 0;
            }
            ended = true;
            long delay = user.release(failed);
            leave(user);
            return delay;
        }
    }

    /** A waiting login: by its address's failures, then by arrival. */
    private record Waiter(int rank, long arrival) implements Comparable<Waiter> {
        @Override
        public int compareTo(Waiter o) {
            return rank != o.rank ? Integer.compare(rank, o.rank) : Long.compare(arrival, o.arrival);
        }
    }

    /** One user's turns; its monitor guards all but {@link #holders}. */
    private final class User {
        private final Backoff.Failures failures;
        private final PriorityQueue<Waiter> waiting = new PriorityQueue<>();
        private long arrivals;
        private boolean busy;
        private long nextTurnNanos = System.nanoTime();
        /** Logins waiting for or holding a turn; the user is not forgotten while there are any. */
        int holders;

        User(Backoff.Failures failures) {
            this.failures = failures;
        }

        synchronized void await(int rank, String name) throws SaslException, InterruptedIOException {
            Waiter me = new Waiter(rank, arrivals++);
            waiting.add(me);
            long deadline = System.nanoTime() + maxWaitNanos;
            boolean granted = false;
            try {
                while (true) {
                    long now = System.nanoTime();
                    boolean next = waiting.peek() == me && !busy;
                    if (next && now - nextTurnNanos >= 0) {
                        waiting.poll();
                        busy = true;
                        granted = true;
                        return;
                    }
                    if (now - deadline >= 0) {
                        throw new SaslException("too many failed logins for user " + printable(name) + "; try again in "
                                + (TimeUnit.NANOSECONDS.toSeconds(backoff.maxDelayNanos()) + 1) + " s");
                    }
                    long until = next && nextTurnNanos - deadline < 0 ? nextTurnNanos : deadline;
                    TimeUnit.NANOSECONDS.timedWait(this, until - now);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while a login waited for its turn");
            } finally {
                if (!granted) {
                    waiting.remove(me);
                    notifyAll(); // the next in line may be another now
                }
            }
        }

        synchronized long release(boolean failed) {
            long delay = 0;
            if (failed) {
                long now = System.nanoTime();
                delay = backoff.delay(failures.fail(now));
                nextTurnNanos = now + delay;
            }
            busy = false;
            notifyAll();
            return delay;
        }
    }

    /** A user name as a message may quote it: what a client sent, so without control characters and not too long. */
    static String printable(String user) {
        String clean = user.codePoints().limit(64)
                .map(c -> Character.isISOControl(c) ? '?' : c)
                .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append).toString();
        return "'" + clean + (user.codePointCount(0, user.length()) > 64 ? "...'" : "'");
    }
}
