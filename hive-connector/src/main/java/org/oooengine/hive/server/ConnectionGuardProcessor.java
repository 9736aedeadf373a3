package org.oooengine.hive.server;

import org.oooengine.core.net.ThrottledLog;
import java.time.Duration;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.apache.thrift.TException;
import org.apache.thrift.TProcessor;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.protocol.TProtocolException;
import org.apache.thrift.transport.TTransportException;

/**
 * Says why a connection is dropped. Thrift closes a connection whose bytes do not decode (the
 * server goes on serving others) but reports that only through its own logger; a client that
 * simply went away is no news and is left to DEBUG. A connection that sent no request for the
 * idle-connection timeout ends here too (its read timed out).
 */
final class ConnectionGuardProcessor implements TProcessor {
    private static final Logger LOG = LogManager.getLogger(ConnectionGuardProcessor.class);

    private final TProcessor delegate;
    private final Duration idleConnectionTimeout;
    private final ThrottledLog idleClosed = new ThrottledLog(LOG, Level.INFO, "idle connections closed");
    private final ThrottledLog unreadable = new ThrottledLog(LOG, Level.WARN, "connections closed for bad requests");

    ConnectionGuardProcessor(TProcessor delegate, Duration idleConnectionTimeout) {
        this.delegate = delegate;
        this.idleConnectionTimeout = idleConnectionTimeout;
    }

    @Override
    public void process(TProtocol in, TProtocol out) throws TException {
        try {
            delegate.process(in, out);
        } catch (TTransportException e) {
            // Thrift also reports an oversized message as END_OF_FILE; only a real end is quiet.
            if (e.getType() == TTransportException.END_OF_FILE && !String.valueOf(e.getMessage()).contains("MaxMessageSize")) {
                LOG.debug("Client {} disconnected", peer(in));
            } else if (e.getType() == TTransportException.TIMED_OUT) {
                idleClosed.log("Closing connection from {}: no request for {} ({})", peer(in),
                        EndpointConfig.Limits.format(idleConnectionTimeout), EndpointConfig.Limits.IDLE_CONNECTION_TIMEOUT);
            } else {
                unreadable.log("Closing connection from {}: unreadable request: {}", peer(in), e.getMessage());
            }
            throw e;
        } catch (TProtocolException e) {
            unreadable.log("Closing connection from {}: malformed request: {}", peer(in), e.getMessage());
            throw e;
        }
    }

    /** Writes the counts of closings left out of the log, if any. */
    void flushLog() {
        idleClosed.flush();
        unreadable.flush();
    }

    private static String peer(TProtocol protocol) {
        return AuthenticatingTransportFactory.peerOf(protocol.getTransport());
    }
}
