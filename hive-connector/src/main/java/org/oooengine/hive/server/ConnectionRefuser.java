package org.oooengine.hive.server;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
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
 * <p>This runs beside the accept loop, never in it, on two threads with a short queue and short
 * timeouts: when refusals pile up (an attack), the ones that do not fit are closed without a word.
 */
final class ConnectionRefuser implements AutoCloseable {
    private static final int SASL_START = 0x01;
    private static final int SASL_ERROR = 0x04;
    private static final int THRIFT_STRICT_HEADER = 0x80;
    /** How long a refused client has to send its first message, and to read the answer. */
    private static final int TIMEOUT_MILLIS = 1000;
    /** A Thrift method name longer than this is no call of ours. */
    private static final int MAX_METHOD_NAME = 256;
    private static final int MAX_DRAIN_BYTES = 64 * 1024;

    private final ThreadPoolExecutor executor;

    ConnectionRefuser(ThreadFactory threads) {
        this.executor = new ThreadPoolExecutor(2, 2, 0, TimeUnit.SECONDS, new ArrayBlockingQueue<>(64), threads);
    }

    /** Answers and closes {@code socket} in the background, or closes it at once when busy. */
    void refuse(Socket socket, String reason) {
        try {
            executor.execute(() -> answerAndClose(socket, reason));
        } catch (RejectedExecutionException e) {
            closeQuietly(socket);
        }
    }

    private static void answerAndClose(Socket socket, String reason) {
        try (socket) {
            socket.setSoTimeout(TIMEOUT_MILLIS);
            DataInputStream in = new DataInputStream(socket.getInputStream());
            int first = in.read();
            if (first == SASL_START) {
                byte[] message = reason.getBytes(StandardCharsets.UTF_8);
                DataOutputStream out = new DataOutputStream(socket.getOutputStream());
                out.writeByte(SASL_ERROR);
                out.writeInt(message.length);
                out.write(message);
                out.flush();
            } else if (first == THRIFT_STRICT_HEADER) {
                answerThriftCall(socket, in, reason);
            } else {
                return;
            }
            // Read what the client sent until it closes, so our close does not reset the
            // connection before it has read the answer.
            socket.shutdownOutput();
            drain(in);
        } catch (IOException | TException e) {
            // The client sent nothing in time, or went away: there is no one to tell.
        }
    }

    /** Replies to the call whose header starts after the first byte with a TApplicationException. */
    private static void answerThriftCall(Socket socket, DataInputStream in, String reason)
            throws IOException, TException {
        in.readNBytes(3); // the rest of the version word
        int nameLength = in.readInt();
        if (nameLength < 0 || nameLength > MAX_METHOD_NAME) {
            return;
        }
        String method = new String(in.readNBytes(nameLength), StandardCharsets.UTF_8);
        int seqId = in.readInt();
        TBinaryProtocol out = new TBinaryProtocol(new TIOStreamTransport(socket.getOutputStream()));
        out.writeMessageBegin(new TMessage(method, TMessageType.EXCEPTION, seqId));
        new TApplicationException(TApplicationException.INTERNAL_ERROR, reason).write(out);
        out.writeMessageEnd();
        out.getTransport().flush();
    }

    private static void drain(InputStream in) throws IOException {
        byte[] buffer = new byte[4096];
        int total = 0;
        for (int n; total < MAX_DRAIN_BYTES && (n = in.read(buffer)) >= 0; total += n) {
            // discard
        }
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // closing anyway
        }
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }
}
