package org.oooengine.cluster.bench;

import org.oooengine.core.store.StoreOptions;

/**
 * How join measurements are taken.
 *
 * @param cold         read with direct I/O into a small, cleared buffer pool so the device is measured
 * @param inflight     task budget of out-of-order runs
 * @param bufferPoolMb buffer pool size, or null for the default of the temperature
 * @param repeat       timed runs per query and mode ({@link #shortRunRepeats} for short runs)
 */
public record BenchSettings(boolean cold, int inflight, Integer bufferPoolMb, int repeat) {
    public static final int DEFAULT_INFLIGHT = 128;
    /**
     * A run shorter than this is repeated {@value #SHORT_RUN_FACTOR} times as often: at a few
     * milliseconds one scheduling hiccup on a busy machine would decide a median of three.
     */
    static final double SHORT_RUN_SECONDS = 0.2;
    static final int SHORT_RUN_FACTOR = 5;
    /** Small enough that a cold run's working set cannot hide in the cache. */
    public static final int COLD_BUFFER_POOL_MB = 32;

    public BenchSettings {
        if (inflight < 1) {
            throw new IllegalArgumentException("the in-flight budget must be at least 1, got " + inflight);
        }
        if (repeat < 1) {
            throw new IllegalArgumentException("the repeat count must be at least 1, got " + repeat);
        }
        if (bufferPoolMb != null && bufferPoolMb < 1) {
            throw new IllegalArgumentException("the buffer pool must be at least 1 MiB, got " + bufferPoolMb);
        }
    }

    /** Whether runs of median {@code seconds} are short enough to be repeated {@link #shortRunRepeats} times. */
    public boolean isShort(double seconds) {
        return seconds < SHORT_RUN_SECONDS;
    }

    /** Timed runs of a measurement whose runs are short. */
    public int shortRunRepeats() {
        return repeat * SHORT_RUN_FACTOR;
    }

    public long bufferPoolBytes() {
        if (bufferPoolMb != null) {
            return (long) bufferPoolMb << 20;
        }
        return cold ? (long) COLD_BUFFER_POOL_MB << 20 : StoreOptions.DEFAULT_BUFFER_POOL_BYTES;
    }

    /** One I/O thread per task that may be in flight, and enough for a scan's read-ahead. */
    private static final int MIN_IO_THREADS = 8;

    public StoreOptions storeOptions() {
        return StoreOptions.defaults()
                .withBufferPoolBytes(bufferPoolBytes())
                .withDirectIo(cold)
                .withIoThreads(Math.max(inflight, MIN_IO_THREADS));
    }
}
