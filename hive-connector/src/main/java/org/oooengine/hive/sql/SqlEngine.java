package org.oooengine.hive.sql;

import java.util.Map;

/** The SQL engine behind the HiveServer2 endpoint (and the embedded shell). */
public interface SqlEngine extends AutoCloseable {
    /**
     * Opens a session for an authenticated user. {@code settings} are applied as {@code SET}
     * statements would be; {@code database} (may be null) becomes the current database.
     */
    SqlSession openSession(String user, String database, Map<String, String> settings);

    /**
     * As {@link #openSession(String, String, Map)}, for a user the endpoint knows as {@code user}
     * says; an engine with access rules overrides this, as it must not take every name on trust.
     */
    default SqlSession openSession(SessionUser user, String database, Map<String, String> settings) {
        return openSession(user.name(), database, settings);
    }

    /** The engine's name and version, as JDBC's DatabaseMetaData reports them. */
    default String productName() {
        return "OoO Engine";
    }

    default String productVersion() {
        return "0.1.0";
    }

    @Override
    void close();
}
