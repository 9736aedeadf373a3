package org.oooengine.hive.server;

import org.oooengine.core.net.ThrottledLog;
import java.net.InetAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.apache.thrift.transport.TSaslServerTransport;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.TTransportException;
import org.apache.thrift.transport.TTransportFactory;

/**
 * Serves SASL and raw ("noSasl") clients on one port. The first byte tells them apart: a SASL
 * client opens with the START status (1), a raw Thrift client with the high byte of a
 * strict TBinaryProtocol header (0x80). Anything else, a raw client the endpoint does not allow,
 * or a failed SASL login closes the connection, with a log line that names the client (a few
 * lines with counts when clients fail often). A successful choice ends the connection's handshake
 * ({@link AdmittedSocket#handshakeDone}).
 */
final class AuthenticatingTransportFactory extends TTransportFactory {
    private static final Logger LOG = LogManager.getLogger(AuthenticatingTransportFactory.class);
    private static final int SASL_START = 0x01;
    private static final int THRIFT_STRICT_HEADER = 0x80;

    private final boolean allowRaw;
    private final PlainCredentialsHandler.Authenticator authenticator;
    private final LoginThrottle throttle;
    private final Duration idleConnectionTimeout;
    private final ThrottledLog refusals = new ThrottledLog(LOG, Level.WARN, "failed logins and refused handshakes");
    /**
     * TThreadPoolServer asks for the input and then the output transport of the same socket; the
     * first call negotiates and parks the result here, the second takes it out.
     */
    private final Map<TTransport, TTransport> negotiated = new ConcurrentHashMap<>();

    AuthenticatingTransportFactory(boolean allowRaw, PlainCredentialsHandler.Authenticator authenticator,
                                   LoginThrottle throttle, Duration idleConnectionTimeout) {
        this.allowRaw = allowRaw;
        this.authenticator = authenticator;
        this.throttle = throttle;
        this.idleConnectionTimeout = idleConnectionTimeout;
        PlainSaslServerProvider.install();
    }

    @Override
    public TTransport getTransport(TTransport socket) throws TTransportException {
        TTransport ready = negotiated.remove(socket);
        if (ready != null) {
            return ready;
        }
        String peer = peerOf(socket);
        byte[] first = new byte[1];
        socket.readAll(first, 0, 1);
        FirstByteReplayTransport replay = new FirstByteReplayTransport(socket, peer, first[0]);
        TTransport chosen = switch (first[0] & 0xff) {
            case THRIFT_STRICT_HEADER -> raw(replay);
            case SASL_START -> saslNegotiated(replay);
            default -> throw rejected(peer, String.format("first byte 0x%02x is neither a SASL start nor a Thrift message", first[0]));
        };
        if (socket instanceof AdmittedSocket admitted && !admitted.handshakeDone(idleConnectionTimeout)) {
            chosen.close();
            throw new TTransportException(TTransportException.TIMED_OUT, "handshake deadline passed");
        }
        negotiated.put(socket, chosen);
        return chosen;
    }

    private TTransport raw(FirstByteReplayTransport replay) throws TTransportException {
        if (!allowRaw) {
            throw rejected(replay.peer(), "unauthenticated (noSasl) clients are not allowed; connect with a user and password");
        }
        LOG.debug("Unauthenticated (noSasl) connection from {}", replay.peer());
        return replay;
    }

    private TTransport saslNegotiated(FirstByteReplayTransport replay) throws TTransportException {
        PlainCredentialsHandler credentials = new PlainCredentialsHandler(authenticator, throttle, addressOf(replay.socket()));
        try {
            // Hive uses the protocol string only as a tag; "hive2" keeps that convention.
            TSaslServerTransport transport = new TSaslServerTransport(PlainSaslServer.MECHANISM, "hive2", null, Map.of(),
                    credentials, replay);
            transport.open();
            LOG.debug("SASL PLAIN connection from {} as {}", replay.peer(), ClientConnection.authenticatedUser(transport));
            return transport;
        } catch (TTransportException | RuntimeException e) {
            // TSaslTransport has already told the client why (a BAD or ERROR message) and closed
            // the socket.
            refusals.log("Closing connection from {}: SASL negotiation failed: {}", replay.peer(), rootMessage(e));
            throw new TTransportException(TTransportException.UNKNOWN, "SASL negotiation failed", e);
        }
    }

    private TTransportException rejected(String peer, String why) {
        refusals.log("Closing connection from {}: {}", peer, why);
        return new TTransportException(TTransportException.UNKNOWN, why);
    }

    /** Writes the counts of refusals left out of the log, if any. */
    void flushLog() {
        refusals.flush();
    }

    static String peerOf(TTransport transport) {
        if (transport instanceof FirstByteReplayTransport replay) {
            return replay.peer();
        }
        if (transport instanceof TSaslServerTransport saslTransport) {
            return peerOf(saslTransport.getUnderlyingTransport());
        }
        if (transport instanceof TSocket tsocket) {
            Socket s = tsocket.getSocket();
            return s == null ? "unknown" : String.valueOf(s.getRemoteSocketAddress());
        }
        return "unknown";
    }

    /** The client as the login throttle counts it (see {@link ClientAddress}). */
    private static String addressOf(TTransport transport) {
        if (transport instanceof TSocket tsocket && tsocket.getSocket() != null) {
            InetAddress address = tsocket.getSocket().getInetAddress();
            if (address != null) {
                return ClientAddress.of(address).text();
            }
        }
        return "unknown";
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t.getMessage() != null ? t.getMessage() : t.toString();
    }
}
