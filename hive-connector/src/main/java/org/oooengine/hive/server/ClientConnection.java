package org.oooengine.hive.server;

import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.thrift.server.ServerContext;
import org.apache.thrift.transport.TSaslServerTransport;
import org.apache.thrift.transport.TTransport;

/**
 * One client TCP connection: who it authenticated as (null for raw noSasl clients), where it
 * comes from, and the sessions it opened, which are closed when the connection goes away.
 */
final class ClientConnection implements ServerContext {
    /**
     * Sessions one connection may hold open. Drivers open one per connection; the cap keeps a
     * client that opens sessions in a loop from filling the coordinator's memory, since the
     * connection limits alone do not bound sessions.
     */
    static final int MAX_SESSIONS = 64;
    private static final ThreadLocal<ClientConnection> CURRENT = new ThreadLocal<>();

    private final String peer;
    private final String authenticatedUser;
    private final TTransport transport;
    private final Set<UUID> sessions = ConcurrentHashMap.newKeySet();

    ClientConnection(TTransport transport) {
        this.transport = transport;
        this.peer = AuthenticatingTransportFactory.peerOf(transport);
        this.authenticatedUser = authenticatedUser(transport);
    }

    /**
     * One HTTP request: HTTP is stateless, so the login comes with each request and the sessions it
     * opens outlive it (they end by CloseSession or the idle-session timeout).
     */
    ClientConnection(String peer, String authenticatedUser) {
        this.transport = null;
        this.peer = peer;
        this.authenticatedUser = authenticatedUser;
    }

    /** The user a SASL exchange established on {@code transport}, or null for a raw transport. */
    static String authenticatedUser(TTransport transport) {
        if (transport instanceof TSaslServerTransport sasl && sasl.getSaslServer() != null
                && sasl.getSaslServer().isComplete()) {
            return sasl.getSaslServer().getAuthorizationID();
        }
        return null;
    }

    /** The connection whose request this worker thread is serving (TThreadPoolServer: one thread per connection). */
    static ClientConnection current() {
        return CURRENT.get();
    }

    static void setCurrent(ClientConnection connection) {
        CURRENT.set(connection);
    }

    String peer() {
        return peer;
    }

    String authenticatedUser() {
        return authenticatedUser;
    }

    /** Refuses, saying why, a session beyond {@link #MAX_SESSIONS} on this connection. */
    void checkCanOpenSession() {
        if (sessions.size() >= MAX_SESSIONS) {
            throw new IllegalStateException("too many open sessions on this connection from " + peer + ": the limit is "
                    + MAX_SESSIONS + "; close the sessions you no longer use");
        }
    }

    void sessionOpened(UUID session) {
        sessions.add(session);
    }

    void sessionClosed(UUID session) {
        sessions.remove(session);
    }

    Set<UUID> openSessions() {
        return Set.copyOf(sessions);
    }

    /** Drops the connection from the server side (endpoint shutdown). */
    void disconnect() {
        if (transport != null) {
            transport.close();
        }
    }

    @Override
    public <T> T unwrap(Class<T> iface) {
        if (iface.isInstance(this)) {
            return iface.cast(this);
        }
        throw new IllegalArgumentException("not a " + iface);
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
        return iface.isInstance(this);
    }
}
