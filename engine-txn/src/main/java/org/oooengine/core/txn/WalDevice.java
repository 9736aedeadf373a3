package org.oooengine.core.txn;

import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.oooengine.core.storage.Directories;

/** Where WAL bytes go and what a flush waits for; one implementation per durability mode. */
abstract class WalDevice implements AutoCloseable {
    abstract void write(byte[] b, int off, int len) throws IOException;

    /** Called after each flush's write: makes the written bytes as durable as the mode promises. */
    abstract void sync() throws IOException;

    @Override
    public abstract void close() throws IOException;

    /** Releases the file without tidying it up, as a crash would leave it. */
    void abandon() throws IOException {
        close();
    }

    static WalDevice create(Path path, Durability durability) throws IOException {
        return switch (durability.mode()) {
            case FSYNC -> new Disk(path);
            case NVM_SIM -> new Mapped(path, durability.latencyNanos());
            case NONE -> new Mapped(path, 0);
        };
    }

    /**
     * A plain file forced to disk at every flush, data only, as fdatasync would. The file is
     * extended with zeros ahead of the writes, so a flush does not also change the file size and
     * make the file system commit metadata; the zeros after the last record mark its end.
     */
    private static final class Disk extends WalDevice {
        private static final int EXTENT = 16 << 20;
        private static final ByteBuffer ZEROS = ByteBuffer.allocateDirect(1 << 20);
        private final FileChannel channel;
        private long position;
        private long allocated;

        Disk(Path path) throws IOException {
            channel = Directories.openPrivate(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        }

        @Override
        void write(byte[] b, int off, int len) throws IOException {
            while (position + len > allocated) {
                extend();
            }
            ByteBuffer bb = ByteBuffer.wrap(b, off, len);
            while (bb.hasRemaining()) {
                position += channel.write(bb, position);
            }
        }

        private void extend() throws IOException {
            long end = allocated + EXTENT;
            for (long p = allocated; p < end; ) {
                p += channel.write(ZEROS.duplicate(), p);
            }
            channel.force(true);
            allocated = end;
        }

        @Override
        void sync() throws IOException {
            channel.force(false);
        }

        @Override
        public void close() throws IOException {
            channel.truncate(position);
            channel.close();
        }

        @Override
        void abandon() throws IOException {
            channel.close();
        }
    }

    /**
     * A memory-mapped file standing in for a byte-addressable log device: a write is a copy into
     * the mapping (it survives a killed process in the page cache) plus a fixed busy-wait
     * latency. The file grows in fixed regions; the zeros after the last record mark its end.
     */
    private static final class Mapped extends WalDevice {
        private static final int REGION = 64 << 20;
        private final FileChannel channel;
        private final long latencyNanos;
        private MappedByteBuffer region;
        private long regionStart;

        Mapped(Path path, long latencyNanos) throws IOException {
            channel = Directories.openPrivate(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                    StandardOpenOption.WRITE);
            this.latencyNanos = latencyNanos;
            region = channel.map(FileChannel.MapMode.READ_WRITE, 0, REGION);
        }

        @Override
        void write(byte[] b, int off, int len) throws IOException {
            while (len > 0) {
                if (!region.hasRemaining()) {
                    regionStart += region.capacity();
                    region = channel.map(FileChannel.MapMode.READ_WRITE, regionStart, REGION);
                }
                int n = Math.min(len, region.remaining());
                region.put(b, off, n);
                off += n;
                len -= n;
            }
        }

        @Override
        void sync() {
            if (latencyNanos > 0) {
                long end = System.nanoTime() + latencyNanos;
                while (System.nanoTime() < end) {
                    Thread.onSpinWait();
                }
            }
        }

        @Override
        void abandon() throws IOException {
            region = null;
            channel.close();
        }

        @Override
        public void close() throws IOException {
            long end = regionStart + region.position();
            region = null;
            channel.truncate(end);
            channel.close();
        }
    }
}
