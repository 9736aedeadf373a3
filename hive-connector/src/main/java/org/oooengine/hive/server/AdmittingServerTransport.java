package org.oooengine.hive.server;

import org.oooengine.core.net.ThrottledLog;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.apache.thrift.transport.TServerTransport;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.TTransportException;

/**
 * The endpoint's listening socket. Every accepted connection is admitted or refused at once
 * against the {@link ConnectionAdmission} limits, so the accept loop never waits for a free
 * worker: a client under the limits gets its own worker thread straight away, one over them is
 * told why and closed (by the {@link ConnectionRefuser}, off this thread).
 */
final class AdmittingServerTransport extends TServerTransport {
    private static final Logger LOG = LogManager.getLogger(AdmittingServerTransport.class);

    private final ServerSocket serverSocket;
    private final ConnectionAdmission admission;
    private final ConnectionRefuser refuser;
    private final ScheduledExecutorService timer;
    private final Duration handshakeTimeout;
    private final ThrottledLog refusals = new ThrottledLog(LOG, Level.WARN, "connections refused at a limit");
    private final ThrottledLog expired = new ThrottledLog(LOG, Level.WARN, "connections closed at the handshake deadline");

    AdmittingServerTransport(ServerSocket serverSocket, ConnectionAdmission admission, ConnectionRefuser refuser,
                             ScheduledExecutorService timer, Duration handshakeTimeout) {
        this.serverSocket = serverSocket;
        this.admission = admission;
        this.refuser = refuser;
        this.timer = timer;
        this.handshakeTimeout = handshakeTimeout;
    }

    /** Already bound by the endpoint, which needs the port before serving starts. */
    @Override
    public void listen() {
    }

    @Override
    public TTransport accept() throws TTransportException {
        while (true) {
            Socket socket;
            try {
                socket = serverSocket.accept();
            } catch (IOException e) {
                throw new TTransportException(e);
            }
            ClientAddress client = ClientAddress.of(socket.getInetAddress());
            Optional<String> refusal = admission.admit(client);
            if (refusal.isPresent()) {
                refusals.log("Refusing connection from {}: {}", socket.getRemoteSocketAddress(), refusal.get());
                refuser.refuse(socket, refusal.get());
                continue;
            }
            try {
                String peer = String.valueOf(socket.getRemoteSocketAddress());
                return new AdmittedSocket(socket, () -> admission.release(client), timer, handshakeTimeout,
                        () -> expired.log("Closing connection from {}: no login within {}", peer,
                                EndpointConfig.Limits.format(handshakeTimeout)));
            } catch (TTransportException | RuntimeException e) {
                admission.release(client);
                closeQuietly(socket);
                LOG.debug("Dropping connection from {}: {}", client, e.toString());
            }
        }
    }

    /** Writes the counts of refusals left out of the log, if any. */
    void flushLog() {
        refusals.flush();
        expired.flush();
    }

    @Override
    public void close() {
        closeQuietly(serverSocket);
    }

    @Override
    public void interrupt() {
        close();
    }

    private static void closeQuietly(AutoCloseable closeable) {
        try {
            closeable.close();
        } catch (Exception e) {
            // closing anyway
        }
    }
}
