package org.oooengine.hive.server;

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
 * simply went away is no news and is left to DEBUG.
 */
final class ConnectionGuardProcessor implements TProcessor {
    private static final Logger LOG = LogManager.getLogger(ConnectionGuardProcessor.class);

    private final TProcessor delegate;

    ConnectionGuardProcessor(TProcessor delegate) {
        this.delegate = delegate;
    }

    @Override
    public void process(TProtocol in, TProtocol out) throws TException {
        try {
            delegate.process(in, out);
        } catch (TTransportException e) {
            // Thrift also reports an oversized message as END_OF_FILE; only a real end is quiet.
            if (e.getType() == TTransportException.END_OF_FILE && !String.valueOf(e.getMessage()).contains("MaxMessageSize")) {
                LOG.debug("Client {} disconnected", peer(in));
            } else {
                LOG.warn("Closing connection from {}: unreadable request: {}", peer(in), e.getMessage());
            }
            throw e;
        } catch (TProtocolException e) {
            LOG.warn("Closing connection from {}: malformed request: {}", peer(in), e.getMessage());
            throw e;
        }
    }

    private static String peer(TProtocol protocol) {
        return AuthenticatingTransportFactory.peerOf(protocol.getTransport());
    }
}
