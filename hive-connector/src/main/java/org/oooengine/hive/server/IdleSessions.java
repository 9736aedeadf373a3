package org.oooengine.hive.server;

import org.oooengine.core.net.ThrottledLog;
import java.time.Duration;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * Closes sessions left idle (Hive's {@code hive.server2.idle.session.timeout}): a client that
 * opened a session and stopped calling, without closing it or its connection, would otherwise
 * hold the engine session and any unread results until the endpoint stops.
 */
final class IdleSessions {
    private static final Logger LOG = LogManager.getLogger(IdleSessions.class);

    private final SessionRegistry registry;
    private final Duration timeout;
    private final ThrottledLog closed = new ThrottledLog(LOG, Level.INFO, "idle sessions closed");

    IdleSessions(SessionRegistry registry, Duration timeout) {
        this.registry = registry;
        this.timeout = timeout;
    }

    /** How often to look: a tenth of the timeout, between 100 ms and a minute. */
    long checkMillis() {
        return Math.max(100, Math.min(60_000, timeout.toMillis() / 10));
    }

    void closeIdle() {
        try {
            for (ServerSession session : registry.closeIdle(timeout)) {
                closed.log("Session {} of {} from {} closed: no call for {} ({})", session.id(), session.user(),
                        session.peer(), EndpointConfig.Limits.format(timeout), EndpointConfig.Limits.IDLE_SESSION_TIMEOUT);
            }
        } catch (RuntimeException e) {
            // A periodic task that throws is never run again.
            LOG.warn("Closing idle sessions failed", e);
        }
    }
}
