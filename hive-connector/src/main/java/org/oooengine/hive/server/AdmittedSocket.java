package org.oooengine.hive.server;

import java.io.IOException;
import java.net.Socket;
import java.net.SocketException;
import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.TTransportException;

/**
 * A client socket that holds one of the endpoint's connection slots until it is closed, and that
 * must finish its handshake (transport choice and login) before a deadline: a socket that sends
 * nothing, or half a handshake, is closed then. After the handshake a read waits at most the
 * idle-connection timeout.
 */
final class AdmittedSocket extends TSocket {
    private static final int HANDSHAKE = 0;
    private static final int LOGGED_IN = 1;
    private static final int EXPIRED = 2;

    private final Socket socket;
    private final Runnable releaseSlot;
    private final AtomicBoolean released = new AtomicBoolean();
    private final AtomicInteger state = new AtomicInteger(HANDSHAKE);
    private final ScheduledFuture<?> deadline;

    /**
     * @param onExpiry told (before the socket is closed) when the handshake deadline passes
     */
    AdmittedSocket(Socket socket, Runnable releaseSlot, ScheduledExecutorService timer, Duration handshakeTimeout,
                   Runnable onExpiry) throws TTransportException {
        super(socket);
        this.socket = socket;
        this.releaseSlot = releaseSlot;
        this.deadline = timer.schedule(() -> {
            if (state.compareAndSet(HANDSHAKE, EXPIRED)) {
                onExpiry.run();
                // Closing the socket itself (not the transport, which its worker thread owns)
                // ends a read that is blocked waiting for the client.
                closeQuietly();
            }
        }, handshakeTimeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * Ends the handshake: the deadline no longer applies, and a read waits at most
     * {@code idleTimeout} for the client (zero: as long as it takes).
     *
     * @return false when the deadline passed first (the socket is closed then)
     */
    boolean handshakeDone(Duration idleTimeout) {
        if (!state.compareAndSet(HANDSHAKE, LOGGED_IN)) {
            return false;
        }
        deadline.cancel(false);
        try {
            socket.setSoTimeout((int) Math.min(Integer.MAX_VALUE, idleTimeout.toMillis()));
        } catch (SocketException e) {
            return false; // closed meanwhile
        }
        return true;
    }

    @Override
    public void close() {
        deadline.cancel(false);
        super.close();
        closeQuietly();
        if (released.compareAndSet(false, true)) {
            releaseSlot.run();
        }
    }

    private void closeQuietly() {
        try {
            socket.close();
        } catch (IOException e) {
            // closing anyway
        }
    }
}
