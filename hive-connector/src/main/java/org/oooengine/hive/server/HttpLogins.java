package org.oooengine.hive.server;

import java.io.InterruptedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Locale;
import javax.security.sasl.SaslException;

/**
 * Who sends an HTTP request: the HTTP Basic credentials it carries (what the Hive JDBC driver
 * sends for a user and password), checked as a SASL PLAIN login is, through the same
 * {@link LoginThrottle}, so trying passwords over HTTP is no faster than over the binary port.
 * Every request carries the login: credentials that passed a check lately pass again without one
 * ({@link RecentLogins}), so a client's requests do not wait for turns while its user is attacked.
 */
final class HttpLogins {
    /** Why a request was refused, in words for the client. */
    static final class Refused extends Exception {
        Refused(String message) {
            super(message);
        }
    }

    private final boolean checksPasswords;
    private final boolean allowUnauthenticated;
    private final PlainCredentialsHandler.Authenticator authenticator;
    private final LoginThrottle throttle;
    private final RecentLogins recent = new RecentLogins(RecentLogins.DEFAULT_TTL);

    HttpLogins(boolean checksPasswords, boolean allowUnauthenticated, PlainCredentialsHandler.Authenticator authenticator,
               LoginThrottle throttle) {
        this.checksPasswords = checksPasswords;
        this.allowUnauthenticated = allowUnauthenticated;
        this.authenticator = authenticator;
        this.throttle = throttle;
    }

    /**
     * The user a request logs in as, or null for an unauthenticated one (as over a raw noSasl
     * connection). Waits out the throttle's delay; runs off the network threads.
     *
     * @param authorization the request's Authorization header, or null
     * @param address the client as the throttle counts it ({@link ClientAddress})
     */
    String userOf(String authorization, String address) throws Refused, InterruptedIOException {
        String[] credentials = basic(authorization);
        if (!checksPasswords) {
            return credentials == null || credentials[0].isEmpty() ? null : credentials[0];
        }
        if (credentials == null) {
            if (allowUnauthenticated) {
                return null;
            }
            throw new Refused("log in with a user and password (HTTP Basic authentication)");
        }
        String user = credentials[0];
        String password = credentials[1];
        if (recent.contains(user, password)) {
            return user;
        }
        boolean ok;
        try {
            ok = throttle.check(user, address, () -> authenticator.authenticate(user, password));
        } catch (SaslException e) {
            throw new Refused(e.getMessage());
        }
        if (!ok) {
            throw new Refused("wrong user or password");
        }
        recent.add(user, password);
        return user;
    }

    /** {user, password} of a Basic Authorization header; null when there is none or it is not Basic. */
    private static String[] basic(String authorization) throws Refused {
        if (authorization == null || !authorization.toLowerCase(Locale.ROOT).startsWith("basic ")) {
            return null;
        }
        String decoded;
        try {
            decoded = new String(Base64.getDecoder().decode(authorization.substring(6).strip()), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw new Refused("malformed Basic credentials");
        }
        int colon = decoded.indexOf(':');
        if (colon < 0) {
            throw new Refused("malformed Basic credentials");
        }
        return new String[] {decoded.substring(0, colon), decoded.substring(colon + 1)};
    }
}
