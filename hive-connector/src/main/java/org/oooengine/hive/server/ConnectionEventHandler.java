package org.oooengine.hive.server;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.server.ServerContext;
import org.apache.thrift.server.TServerEventHandler;
import org.apache.thrift.transport.TTransport;

/**
 * Tracks client connections: makes the current one visible to the service while it serves a
 * request, and when a connection ends (normally or not) closes the sessions it left open, so a
 * client that vanishes does not leak sessions.
 */
final class ConnectionEventHandler implements TServerEventHandler {
    private static final Logger LOG = LogManager.getLogger(ConnectionEventHandler.class);

    private final SessionRegistry sessions;
    private final Set<ClientConnection> live = ConcurrentHashMap.newKeySet();

    ConnectionEventHandler(SessionRegistry sessions) {
        this.sessions = sessions;
    }

    @Override
    public void preServe() {
    }

    @Override
    public ServerContext createContext(TProtocol input, TProtocol output) {
        ClientConnection connection = new ClientConnection(input.getTransport());
        live.add(connection);
        LOG.debug("Connection from {} opened", connection.peer());
        return connection;
    }

    @Override
    public void processContext(ServerContext context, TTransport input, TTransport output) {
        ClientConnection.setCurrent((ClientConnection) context);
    }

    @Override
    public void deleteContext(ServerContext context, TProtocol input, TProtocol output) {
        ClientConnection connection = (ClientConnection) context;
        ClientConnection.setCurrent(null);
        live.remove(connection);
        Set<java.util.UUID> leftOpen = connection.openSessions();
        if (!leftOpen.isEmpty()) {
            LOG.info("Connection from {} closed with {} open session(s); closing them", connection.peer(), leftOpen.size());
            leftOpen.forEach(sessions::close);
        } else {
            LOG.debug("Connection from {} closed", connection.peer());
        }
    }

    /** Disconnects every client (endpoint shutdown); their worker threads then clean up as usual. */
    void disconnectAll() {
        live.forEach(ClientConnection::disconnect);
    }
}
