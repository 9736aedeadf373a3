package org.oooengine.core.columnar;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A file's spans mapped read-only, unmapped as soon as it is closed and no read is under way, not
 * whenever the collector finds the buffers: a node rewriting tables would otherwise keep the
 * mappings of deleted files (and their disk space) until an old-generation collection.
 *
 * <p>Every read of a region is bracketed by {@link #acquire()} and {@link #release()}; a read after
 * {@link #close()} is refused instead of touching unmapped memory (which would crash the process).
 */
final class MappedRegions implements AutoCloseable {
    private static final long CLOSED = 1L << 62;

    private final ByteBuffer[] regions;
    private final long[] starts;
    /** The reads under way, with {@link #CLOSED} set once closed. */
    private final AtomicLong state = new AtomicLong();

    private MappedRegions(ByteBuffer[] regions, long[] starts) {
        this.regions = regions;
        this.starts = starts;
    }

    /** Maps each span {@code [start, end)} of {@code channel}'s file. */
    static MappedRegions map(FileChannel channel, List<long[]> spans) throws IOException {
        ByteBuffer[] regions = new ByteBuffer[spans.size()];
        long[] starts = new long[spans.size()];
        try {
            for (int r = 0; r < regions.length; r++) {
                long[] span = spans.get(r);
                starts[r] = span[0];
                regions[r] = channel.map(FileChannel.MapMode.READ_ONLY, span[0], span[1] - span[0]);
            }
        } catch (IOException | RuntimeException e) {
            for (ByteBuffer mapped : regions) {
                unmap(mapped);
            }
            throw e;
        }
        return new MappedRegions(regions, starts);
    }

    /** Starts a read; false once closed. */
    boolean acquire() {
        while (true) {
            long s = state.get();
            if ((s & CLOSED) != 0) {
                return false;
            }
            if (state.compareAndSet(s, s + 1)) {
                return true;
            }
        }
    }

    /** Ends a read: the last one after {@link #close()} unmaps. */
    void release() {
        if (state.decrementAndGet() == CLOSED) {
            unmapAll();
        }
    }

    /** {@code length} bytes at {@code offset} of the file, in region {@code region}; only between acquire and release. */
    ByteBuffer slice(int region, long offset, int length) {
        return regions[region].slice((int) (offset - starts[region]), length).order(ByteOrder.LITTLE_ENDIAN);
    }

    @Override
    public void close() {
        long before = state.getAndUpdate(s -> s | CLOSED);
        if (before == 0) {
            unmapAll();
        }
    }

    private void unmapAll() {
        for (ByteBuffer mapped : regions) {
            unmap(mapped);
        }
    }

    private static final Method INVOKE_CLEANER;
    private static final Object UNSAFE;

    static {
        Method m = null;
        Object unsafe = null;
        try { // sun.misc.Unsafe (module jdk.unsupported) frees a mapping at once, as Lucene's MMapDirectory does
            Class<?> type = Class.forName("sun.misc.Unsafe");
            Field f = type.getDeclaredField("theUnsafe");
            f.setAccessible(true);
            unsafe = f.get(null);
            m = type.getMethod("invokeCleaner", ByteBuffer.class);
        } catch (ReflectiveOperationException | RuntimeException unavailable) {
            m = null; // left to the collector
        }
        INVOKE_CLEANER = m;
        UNSAFE = unsafe;
    }

    private static void unmap(ByteBuffer mapped) {
        if (mapped == null || INVOKE_CLEANER == null) {
            return;
        }
        try {
            INVOKE_CLEANER.invoke(UNSAFE, mapped);
        } catch (ReflectiveOperationException | RuntimeException e) {
            // the collector frees it instead
        }
    }
}
