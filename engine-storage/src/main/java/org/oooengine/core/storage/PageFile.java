package org.oooengine.core.storage;

import com.sun.nio.file.ExtendedOpenOption;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Supplier;

/**
 * A read-only file of fixed-size pages, read with positional reads so that many threads can have
 * reads outstanding on it at once. With direct I/O the reads bypass the OS page cache (O_DIRECT,
 * aligned buffers), so that what is measured is the device.
 *
 * <p>A {@link BTreeWriter} of the same process may write pages in place: it does so inside
 * {@link #publish}, which no read overlaps (reads share a read lock that a publication takes
 * exclusively), so a read gets each page whole, in one version or the other, and a page read before
 * a publication cannot be cached after it. {@link #version} tells readers that one happened.
 */
public final class PageFile implements Closeable {
    private static final AtomicInteger NEXT_ID = new AtomicInteger();
    /** Sequential scans read this many bytes per request. */
    public static final int SCAN_CHUNK_BYTES = 1 << 20;

    private final int id = NEXT_ID.incrementAndGet();
    private final Path path;
    private final int pageSize;
    private final boolean direct;
    private final int alignment;
    /** Shared with every other opener of the same file in this process ({@link SharedReadChannels}). */
    private final SharedReadChannels.Lease lease;
    private final FileChannel channel;
    /** Pages readable: the file's at open, and more as a writer of the same process grows it ({@link #grewTo}). */
    private volatile long pageCount;
    private final IoStats stats;
    private final ReentrantReadWriteLock publishing = new ReentrantReadWriteLock();
    /** Odd while a writer publishes pages, and one more when it has finished. */
    private volatile long version;

    private PageFile(Path path, int pageSize, boolean direct, int alignment, SharedReadChannels.Lease lease,
                     long pageCount, IoStats stats) {
        this.path = path;
        this.pageSize = pageSize;
        this.direct = direct;
        this.alignment = alignment;
        this.lease = lease;
        this.channel = lease.channel();
        this.pageCount = pageCount;
        this.stats = stats;
    }

    public static PageFile open(Path path, int pageSize, boolean direct, IoStats stats) {
        PageFormat.checkPageSize(pageSize);
        if (!Files.isRegularFile(path)) {
            throw new StorageException("page file " + path + " does not exist");
        }
        SharedReadChannels.Lease ch;
        int alignment = 1;
        try {
            if (direct) {
                alignment = (int) Files.getFileStore(path).getBlockSize();
                if (pageSize % alignment != 0) {
                    throw new StorageException("page size " + pageSize + " is not a multiple of the device block size "
                            + alignment + " that direct I/O on " + path + " requires");
                }
                try {
                    ch = SharedReadChannels.open(path, true, StandardOpenOption.READ, ExtendedOpenOption.DIRECT);
                } catch (OpenFilesExhaustedException e) {
                    throw e;
                } catch (IOException | UnsupportedOperationException e) {
                    throw new DirectIoUnsupportedException(path, e);
                }
            } else {
                ch = SharedReadChannels.open(path, false, StandardOpenOption.READ);
            }
            try {
                long size = ch.channel().size();
                if (size % pageSize != 0) {
                    throw new StorageException(path + " is " + size + " bytes, not a whole number of "
                            + pageSize + "-byte pages: truncated or not a page file of this page size");
                }
                return new PageFile(path, pageSize, direct, alignment, ch, size / pageSize, stats);
            } catch (IOException | RuntimeException e) {
                ch.close();
                throw e;
            }
        } catch (OpenFilesExhaustedException e) {
            throw new UncheckedIOException(e.getMessage(), e);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open " + path + ": " + e.getMessage(), e);
        }
    }

    public int id() {
        return id;
    }

    public Path path() {
        return path;
    }

    public int pageSize() {
        return pageSize;
    }

    /** A writer appended pages: reads may go up to {@code pages} now. */
    void grewTo(long pages) {
        if (pages > pageCount) {
            pageCount = pages;
        }
    }

    /**
     * Runs {@code writes}, which write pages of this file in place, with no read in progress; then
     * readers may read up to {@code pages} pages.
     */
    void publish(long pages, Runnable writes) {
        publishing.writeLock().lock();
        try {
            version++;
            writes.run();
            grewTo(pages);
        } finally {
            version++;
            publishing.writeLock().unlock();
        }
    }

    /** Runs {@code read} (reads of this file and what is done with them) outside any {@link #publish}. */
    <T> T readConsistently(Supplier<T> read) {
        publishing.readLock().lock();
        try {
            return read.get();
        } finally {
            publishing.readLock().unlock();
        }
    }

    /** Whether a writer is publishing pages of this file now. */
    boolean publishing() {
        return (version & 1) != 0;
    }

    /**
     * Counts publications: a reader that saw the same even number before and after reading pages
     * read them all from one version of the file.
     */
    public long version() {
        return version;
    }

    public long pageCount() {
        return pageCount;
    }

    public boolean direct() {
        return direct;
    }

    /** Blocking read of one page, verified. Safe to call from many threads at once. */
    public byte[] readPage(long pageNo) {
        byte[] out = new byte[pageSize];
        readPages(pageNo, 1, out);
        return out;
    }

    /**
     * Blocking read of {@code n} consecutive pages into {@code out} (n * pageSize bytes), each
     * verified. One request to the device, so sequential scans run at the device's streaming rate.
     */
    public void readPages(long firstPage, int n, byte[] out) {
        readConsistently(() -> {
            readPagesNow(firstPage, n, out);
            return null;
        });
    }

    private void readPagesNow(long firstPage, int n, byte[] out) {
        if (firstPage < 0 || firstPage + n > pageCount) {
            throw new StorageException("pages " + firstPage + ".." + (firstPage + n - 1) + " are beyond the end of "
                    + path + " (" + pageCount + " pages)");
        }
        int bytes = n * pageSize;
        ByteBuffer buf = AlignedBuffers.get(bytes, alignment);
        stats.beginRead();
        try {
            long pos = firstPage * pageSize;
            while (buf.hasRemaining()) {
                int r = channel.read(buf, pos + buf.position());
                if (r < 0) {
                    throw new StorageException("unexpected end of " + path + " reading page " + firstPage);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("read of page " + firstPage + " from " + path + " failed", e);
        } finally {
            stats.endRead(n, bytes);
        }
        buf.flip();
        buf.get(out, 0, bytes);
        for (int i = 0; i < n; i++) {
            PageFormat.verify(out, i * pageSize, pageSize, path, firstPage + i);
        }
    }

    @Override
    public void close() {
        try {
            lease.close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot close " + path, e);
        }
    }

    /** Per-thread I/O buffers aligned for O_DIRECT; reused so the hot read path allocates nothing off-heap. */
    static final class AlignedBuffers {
        private static final int MAX_ALIGN = 4096;
        private static final ThreadLocal<ByteBuffer> BUFFERS = new ThreadLocal<>();

        static ByteBuffer get(int size, int alignment) {
            if (alignment > MAX_ALIGN) {
                throw new StorageException("device block size " + alignment + " exceeds " + MAX_ALIGN);
            }
            ByteBuffer b = BUFFERS.get();
            if (b == null || b.capacity() < size) {
                b = ByteBuffer.allocateDirect(size + MAX_ALIGN).alignedSlice(MAX_ALIGN);
                BUFFERS.set(b);
            }
            b.clear().limit(size);
            return b;
        }
    }
}
