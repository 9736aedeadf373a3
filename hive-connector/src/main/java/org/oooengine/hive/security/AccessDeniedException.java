package org.oooengine.hive.security;

import org.oooengine.core.sql.SqlException;

/** A statement an access rule refuses: SQLSTATE 42000 (syntax error or access rule violation). */
public final class AccessDeniedException extends SqlException {
    public AccessDeniedException(String message) {
        super(SYNTAX, message);
    }

    /** "access denied: user bob may not LOAD DATA into sales.items: why". */
    static AccessDeniedException of(String user, String action, String object, String why) {
        return new AccessDeniedException("access denied: user " + user + " may not " + action + " " + object + ": "
                + why);
    }
}
