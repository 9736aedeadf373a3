package org.oooengine.hive.sql;

/**
 * Who runs a session, and how the endpoint knows: access rules may trust a name only as far as
 * its login proved it.
 *
 * @param name the user name: the login's when a password was checked, otherwise what the client said
 */
public record SessionUser(String name, Login login) {
    /** How the endpoint established the name. */
    public enum Login {
        /** The endpoint checks no passwords: every client is the one local user, whatever name it gives. */
        UNCHECKED,
        /** The endpoint checked this user's password. */
        PASSWORD,
        /** An endpoint that checks passwords let this client in without one: it is no one in particular. */
        ANONYMOUS
    }

    public SessionUser {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("a session user needs a name");
        }
    }

    /** A user of an endpoint (or an embedding program) that checks no passwords. */
    public static SessionUser unchecked(String name) {
        return new SessionUser(name, Login.UNCHECKED);
    }

    public static SessionUser withPassword(String name) {
        return new SessionUser(name, Login.PASSWORD);
    }
}
