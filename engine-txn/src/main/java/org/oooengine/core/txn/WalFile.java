package org.oooengine.core.txn;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * A WAL buffer and the file it is flushed to. Records are framed and checksummed in memory by
 * {@link #append}; {@link #flush} hands the buffered bytes to the log device. Not thread-safe:
 * each worker owns one (the shared-WAL baseline serialises access itself).
 */
final class WalFile implements AutoCloseable {
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
    static final int FRAME_BYTES = 8;

    private final Path path;
    private final WalDevice device;
    private final CRC32C crc = new CRC32C();
    private byte[] buf = new byte[64 * 1024];
    private int size;

    private WalFile(Path path, WalDevice device) {
        this.path = path;
        this.device = device;
    }

    static WalFile create(Path path, WalHeader header, Durability durability) {
        try {
            WalDevice device = WalDevice.create(path, durability);
            byte[] h = header.encode();
            device.write(h, 0, h.length);
            device.sync();
            return new WalFile(path, device);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create WAL file " + path, e);
        }
    }

    Path path() {
        return path;
    }

    boolean isEmpty() {
        return size == 0;
    }

    /** Buffers one framed commit record: the transaction's writes under its commit timestamp or LSN. */
    void append(long order, List<Transaction.Write> writes) {
        append(WalRecord.Kind.COMMIT, order, null, List.of(), writes);
    }

    /** Buffers one framed record of any kind (see {@link WalRecord}). */
    void append(WalRecord.Kind kind, long order, TransactionId txn, List<String> nodes, List<Transaction.Write> writes) {
        int start = size;
        reserve(FRAME_BYTES);
        size += FRAME_BYTES;
        encodePayload(kind, order, txn, nodes, writes);
        int payload = size - start - FRAME_BYTES;
        crc.reset();
        crc.update(buf, start + FRAME_BYTES, payload);
        INT.set(buf, start, payload);
        INT.set(buf, start + 4, (int) crc.getValue());
    }

    /** The payload of one record, unframed: what a checkpoint keeps of a transaction still in two-phase commit. */
    static byte[] payload(WalRecord.Kind kind, long order, TransactionId txn, List<String> nodes,
                          List<Transaction.Write> writes) {
        WalFile f = new WalFile(null, null);
        f.encodePayload(kind, order, txn, nodes, writes);
        return Arrays.copyOf(f.buf, f.size);
    }

    /** The payload as {@link WalHeader} describes it (format version 2). */
    private void encodePayload(WalRecord.Kind kind, long order, TransactionId txn, List<String> nodes,
                               List<Transaction.Write> writes) {
        reserve(1 + 8 + 16 + 2);
        buf[size++] = (byte) kind.ordinal();
        LONG.set(buf, size, order);
        size += 8;
        if (kind != WalRecord.Kind.COMMIT) {
            LONG.set(buf, size, txn.high());
            LONG.set(buf, size + 8, txn.low());
            buf[size + 16] = (byte) (nodes.size() >>> 8);
            buf[size + 17] = (byte) nodes.size();
            size += 18;
            for (String node : nodes) {
                putShortBytes(node.getBytes(StandardCharsets.UTF_8));
            }
        }
        reserve(4);
        INT.set(buf, size, writes.size());
        size += 4;
        for (Transaction.Write w : writes) {
            byte[] key = w.key().bytes();
            byte[] value = w.value();
            putShortBytes(w.table().nameBytes());
            reserve(8 + key.length + (value == null ? 0 : value.length));
            INT.set(buf, size, key.length);
            System.arraycopy(key, 0, buf, size + 4, key.length);
            size += 4 + key.length;
            if (value == null) {
                INT.set(buf, size, -1);
                size += 4;
            } else {
                INT.set(buf, size, value.length);
                System.arraycopy(value, 0, buf, size + 4, value.length);
                size += 4 + value.length;
            }
        }
    }

    private void putShortBytes(byte[] b) {
        reserve(2 + b.length);
        buf[size] = (byte) (b.length >>> 8);
        buf[size + 1] = (byte) b.length;
        System.arraycopy(b, 0, buf, size + 2, b.length);
        size += 2 + b.length;
    }

    /** Writes the buffered records to the log device and waits for its durability. */
    void flush() {
        if (size == 0) {
            return;
        }
        try {
            device.write(buf, 0, size);
            device.sync();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write WAL file " + path, e);
        }
        size = 0;
    }

    private void reserve(int n) {
        if (size + n > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, size + n));
        }
    }

    /** Closes without flushing the buffer, leaving the file as a crash would. */
    void abandon() {
        try {
            device.abandon();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot close WAL file " + path, e);
        }
    }

    @Override
    public void close() {
        try {
            flush();
        } finally {
            try {
                device.close();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot close WAL file " + path, e);
            }
        }
    }
}
