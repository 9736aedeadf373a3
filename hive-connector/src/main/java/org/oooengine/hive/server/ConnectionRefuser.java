package org.oooengine.hive.server;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.thrift.TApplicationException;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.protocol.TMessage;
import org.apache.thrift.protocol.TMessageType;
import org.apache.thrift.transport.TIOStreamTransport;

/**
 * Tells a client the endpoint will not serve why, in the terms its protocol understands, and
 * closes the connection: a SASL client gets an ERROR message (the JDBC driver shows it as "Peer
 * indicated failure: ..."), a raw Thrift client an exception in reply to its first call.
 *
 * <p>No thread waits for a refused client: the timer looks a few times whether its first message
 * has arrived and answers from what has, so a crowd of refused sockets that send nothing costs
 * neither the accept loop nor a worker anything. Beyond {@value #MAX_PENDING} refusals at once the
 * next ones are closed without a word.
 */
final class ConnectionRefuser {
    private static final int SASL_START = 0x01;
    private static final int SASL_ERROR = 0x04;
    private static final int THRIFT_STRICT_HEADER = 0x80;
    /** When to look for the client's first message, in ms after it connected; then it is closed. */
    private static final long[] LOOKS_MILLIS = {20, 200, 1000};
    /** How long the client has to read the answer before the socket is closed. */
    private static final long LINGER_MILLIS = 1000;
    private static final int MAX_PENDING = 256;
    private static final int MAX_READ = 64 * 1024;

    private final ScheduledExecutorService timer;
    private final AtomicInteger pending = new AtomicInteger();

    ConnectionRefuser(ScheduledExecutorService timer) {
        this.timer = timer;
    }

    /** Answers {@code socket} with {@code reason} and closes it, in the background. */
    void refuse(Socket socket, String reason) {
        if (pending.incrementAndGet() > MAX_PENDING) {
            done(socket);
            return;
        }
        look(socket, reason, 0);
    }

    private void look(Socket socket, String reason, int look) {
        long previous = look == 0 ? 0 : LOOKS_MILLIS[look - 1];
        schedule(() -> {
            try {
                InputStream in = socket.getInputStream();
                if (in.available() == 0) {
                    if (look + 1 < LOOKS_MILLIS.length) {
                        look(socket, reason, look + 1);
                    } else {
                        done(socket);
                    }
                    return;
                }
                answer(socket, readAvailable(in), reason);
                socket.shutdownOutput();
                schedule(() -> done(socket), LINGER_MILLIS, socket);
            } catch (IOException | TException | RuntimeException e) {
                done(socket); // the client went away, or sent what we cannot answer
            }
        }, LOOKS_MILLIS[look] - previous, socket);
    }

    private void schedule(Runnable task, long millis, Socket socket) {
        try {
            timer.schedule(task, millis, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            done(socket); // the endpoint is stopping
        }
    }

    /** What the client has sent so far, without blocking: every read is of bytes already there. */
    private static ByteBuffer readAvailable(InputStream in) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        byte[] buffer = new byte[4096];
        for (int n; bytes.size() < MAX_READ && (n = Math.min(in.available(), buffer.length)) > 0; ) {
            bytes.write(buffer, 0, in.read(buffer, 0, n));
        }
        return ByteBuffer.wrap(bytes.toByteArray());
    }

    private static void answer(Socket socket, ByteBuffer sent, String reason) throws IOException, TException {
        int first = sent.get(0) & 0xff;
        if (first == SASL_START) {
            byte[] message = reason.getBytes(StandardCharsets.UTF_8);
            ByteBuffer frame = ByteBuffer.allocate(5 + message.length).put((byte) SASL_ERROR).putInt(message.length).put(message);
            socket.getOutputStream().write(frame.array());
            socket.getOutputStream().flush();
        } else if (first == THRIFT_STRICT_HEADER) {
            answerThriftCall(socket, sent, reason);
        }
    }

    /** Replies to the call whose header the client sent with a TApplicationException. */
    private static void answerThriftCall(Socket socket, ByteBuffer sent, String reason) throws IOException, TException {
        String method;
        int seqId;
        try {
            sent.position(4); // the version word
            byte[] name = new byte[sent.getInt()];
            sent.get(name);
            method = new String(name, StandardCharsets.UTF_8);
            seqId = sent.getInt();
        } catch (BufferUnderflowException | IllegalArgumentException | NegativeArraySizeException e) {
            return; // not a whole call header: nothing to reply to
        }
        TBinaryProtocol out = new TBinaryProtocol(new TIOStreamTransport(socket.getOutputStream()));
        out.writeMessageBegin(new TMessage(method, TMessageType.EXCEPTION, seqId));
        new TApplicationException(TApplicationException.INTERNAL_ERROR, reason).write(out);
        out.writeMessageEnd();
        out.getTransport().flush();
    }

    private void done(Socket socket) {
        pending.decrementAndGet();
        try {
            socket.close();
        } catch (IOException e) {
            // closing anyway
        }
    }
}
