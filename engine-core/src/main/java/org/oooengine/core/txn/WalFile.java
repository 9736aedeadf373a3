package org.oooengine.core.txn;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
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

    /** Buffers one framed record: the transaction's writes under its commit timestamp or LSN. */
    void append(long order, List<Transaction.Write> writes) {
        int start = size;
        reserve(FRAME_BYTES + 12);
        size += FRAME_BYTES;
        LONG.set(buf, size, order);
        INT.set(buf, size + 8, writes.size());
        size += 12;
        for (Transaction.Write w : writes) {
            byte[] name = w.table().nameBytes();
            byte[] key = w.key().bytes();
            byte[] value = w.value();
            reserve(2 + name.length + 8 + key.length + (value == null ? 0 : value.length));
            buf[size] = (byte) (name.length >>> 8);
            buf[size + 1] = (byte) name.length;
            System.arraycopy(name, 0, buf, size + 2, name.length);
            size += 2 + name.length;
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
        int payload = size - start - FRAME_BYTES;
        crc.reset();
        crc.update(buf, start + FRAME_BYTES, payload);
        INT.set(buf, start, payload);
        INT.set(buf, start + 4, (int) crc.getValue());
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
