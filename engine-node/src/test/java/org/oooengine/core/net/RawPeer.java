package org.oooengine.core.net;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import org.oooengine.core.wire.PayloadReader;
import org.oooengine.core.wire.PayloadWriter;

/**
 * A peer of a node over a plain socket, writing exactly the bytes a test (or an attacker) wants:
 * whole frames, bare frame headers, parts of bodies.
 */
final class RawPeer implements AutoCloseable {
    private final Socket socket;
    private final DataInputStream in;
    private final OutputStream out;

    RawPeer(int port) throws IOException {
        socket = new Socket();
        socket.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
        socket.setSoTimeout(10_000);
        in = new DataInputStream(socket.getInputStream());
        out = socket.getOutputStream();
    }

    /** The next frame from the node. */
    Frame read() throws IOException {
        byte[] frame = new byte[in.readInt()];
        in.readFully(frame);
        return FrameFormat.decode(Unpooled.wrappedBuffer(frame));
    }

    void write(Frame frame) throws IOException {
        write(encode(frame));
    }

    void write(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    /** A frame as it goes on the wire. */
    static byte[] encode(Frame frame) {
        ByteBuf buf = Unpooled.buffer(FrameFormat.wireSize(frame.payload().length));
        FrameFormat.encode(frame, buf);
        byte[] bytes = new byte[buf.readableBytes()];
        buf.readBytes(bytes);
        return bytes;
    }

    /** The AUTH frame answering the node's challenge with this secret. */
    Frame answer(ClusterSecret secret) throws IOException {
        Frame challenge = read();
        if (challenge.op() != OpCode.CHALLENGE) {
            throw new IOException("expected a challenge, got " + challenge);
        }
        PayloadReader r = challenge.reader();
        r.getString();
        byte[] signed = secret.sign(r.getBytes());
        return new Frame(OpCode.AUTH, 0, new PayloadWriter().putString("raw-peer").putBytes(signed).toByteArray());
    }

    /** Proves the secret and waits for the node's AUTH_OK. */
    void authenticate(ClusterSecret secret) throws IOException {
        write(answer(secret));
        Frame ok = read();
        if (ok.op() != OpCode.AUTH_OK) {
            throw new IOException("expected AUTH_OK, got " + ok);
        }
    }

    /**
     * Whether the node closes the connection within {@code wait}, skipping what it sends first; a
     * reset (the node closed with our bytes unread) counts as closed.
     */
    boolean closedWithin(Duration wait) throws IOException {
        long end = System.nanoTime() + wait.toNanos();
        try {
            while (true) {
                socket.setSoTimeout((int) Math.max(1, (end - System.nanoTime()) / 1_000_000));
                read();
            }
        } catch (EOFException e) {
            return true;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (SocketException e) {
            return true;
        } finally {
            socket.setSoTimeout(10_000);
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
