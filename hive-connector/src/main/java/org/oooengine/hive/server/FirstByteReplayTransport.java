package org.oooengine.hive.server;

import org.apache.thrift.TConfiguration;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.TTransportException;

/**
 * A client's socket after its first byte was read to tell SASL from raw Thrift: hands that byte
 * out again before reading on, so the chosen protocol sees the stream from its start.
 */
final class FirstByteReplayTransport extends TTransport {
    private final TTransport socket;
    private final String peer;
    private int firstByte;

    FirstByteReplayTransport(TTransport socket, String peer, byte firstByte) {
        this.socket = socket;
        this.peer = peer;
        this.firstByte = firstByte & 0xff;
    }

    /** The client's address, for log lines. */
    String peer() {
        return peer;
    }

    TTransport socket() {
        return socket;
    }

    @Override
    public int read(byte[] buf, int off, int len) throws TTransportException {
        if (len <= 0) {
            return 0;
        }
        if (firstByte >= 0) {
            buf[off] = (byte) firstByte;
            firstByte = -1;
            return 1;
        }
        return socket.read(buf, off, len);
    }

    @Override
    public void write(byte[] buf, int off, int len) throws TTransportException {
        socket.write(buf, off, len);
    }

    @Override
    public void flush() throws TTransportException {
        socket.flush();
    }

    @Override
    public boolean isOpen() {
        return socket.isOpen();
    }

    @Override
    public boolean peek() {
        return firstByte >= 0 || socket.peek();
    }

    @Override
    public void open() throws TTransportException {
        if (!socket.isOpen()) {
            socket.open();
        }
    }

    @Override
    public void close() {
        socket.close();
    }

    @Override
    public TConfiguration getConfiguration() {
        return socket.getConfiguration();
    }

    @Override
    public void updateKnownMessageSize(long size) throws TTransportException {
        socket.updateKnownMessageSize(size);
    }

    @Override
    public void checkReadBytesAvailable(long numBytes) throws TTransportException {
        socket.checkReadBytesAvailable(numBytes);
    }
}
