package org.oooengine.core.store;

/**
 * How a store is opened.
 *
 * @param bufferPoolBytes capacity of the page cache
 * @param directIo        read with O_DIRECT so the OS page cache is bypassed (cold measurements)
 * @param ioThreads       threads issuing blocking positional reads: the deepest queue the device can see;
 *                        0 reads synchronously on the thread that needs the page (a classic blocking
 *                        engine, with no hand-over between threads, and never more than one read per thread)
 * @param computeThreads  threads running the work that page completions unblock
 */
public record StoreOptions(long bufferPoolBytes, boolean directIo, int ioThreads, int computeThreads) {
    public static final long DEFAULT_BUFFER_POOL_BYTES = 256L << 20;
    public static final int DEFAULT_IO_THREADS = 128;

    public StoreOptions {
        if (bufferPoolBytes <= 0 || ioThreads < 0 || computeThreads < 1) {
            throw new IllegalArgumentException("buffer pool and compute threads must be positive, I/O threads not negative");
        }
    }

    public static StoreOptions defaults() {
        return new StoreOptions(DEFAULT_BUFFER_POOL_BYTES, false, DEFAULT_IO_THREADS,
                Runtime.getRuntime().availableProcessors());
    }

    public StoreOptions withBufferPoolBytes(long bytes) {
        return new StoreOptions(bytes, directIo, ioThreads, computeThreads);
    }

    public StoreOptions withDirectIo(boolean direct) {
        return new StoreOptions(bufferPoolBytes, direct, ioThreads, computeThreads);
    }

    public boolean synchronousReads() {
        return ioThreads == 0;
    }

    public StoreOptions withIoThreads(int n) {
        return new StoreOptions(bufferPoolBytes, directIo, n, computeThreads);
    }
}
