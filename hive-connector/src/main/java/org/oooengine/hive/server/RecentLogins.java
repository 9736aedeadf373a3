package org.oooengine.hive.server;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Credentials that passed a password check lately, kept as SHA-256 digests (never the password).
 * An HTTP client sends its login with every request; one that was right a moment ago passes again
 * without a turn of the {@link LoginThrottle}, so a user's queries go on at full speed while
 * someone guesses that user's password. A wrong password never matches, so guessing gains nothing
 * from it. Entries last {@code ttl}; at most {@value #MAX_ENTRIES} are kept, the least recently
 * used going first.
 */
final class RecentLogins {
    static final Duration DEFAULT_TTL = Duration.ofMinutes(10);
    private static final int MAX_ENTRIES = 1_000;

    private final long ttlNanos;
    /** Expiry by digest, in order of use; guarded by itself. */
    private final Map<String, Long> expiries = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Long> eldest) {
            return size() > MAX_ENTRIES;
        }
    };

    RecentLogins(Duration ttl) {
        this.ttlNanos = ttl.toNanos();
    }

    boolean contains(String user, String password) {
        String key = digest(user, password);
        synchronized (expiries) {
            Long expiry = expiries.get(key);
            if (expiry == null) {
                return false;
            }
            if (System.nanoTime() - expiry >= 0) {
                expiries.remove(key);
                return false;
            }
            return true;
        }
    }

    /** Remembers credentials that a password check just found right. */
    void add(String user, String password) {
        String key = digest(user, password);
        synchronized (expiries) {
            expiries.put(key, System.nanoTime() + ttlNanos);
        }
    }

    private static String digest(String user, String password) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            sha.update(user.getBytes(StandardCharsets.UTF_8));
            sha.update((byte) 0); // no user name holds a NUL: "ab"+"c" and "a"+"bc" differ
            return HexFormat.of().formatHex(sha.digest(password.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}
