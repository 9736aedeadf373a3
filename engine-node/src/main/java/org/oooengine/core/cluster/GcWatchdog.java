package org.oooengine.core.cluster;

import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.IntConsumer;
import java.util.function.LongSupplier;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.oooengine.core.storage.Directories;

/**
 * Ends this process when it spends nearly all its time in garbage collection: a heap so full that
 * each collection frees only enough for a moment's work, so that the JVM neither throws an
 * OutOfMemoryError (which -XX:+ExitOnOutOfMemoryError turns into an exit) nor answers anyone. G1,
 * the nodes' default collector, has no limit of its own on that (the parallel collector's
 * -XX:+UseGCOverheadLimit has one, of 98%).
 *
 * <p>A thread samples the collectors' accumulated time (their stop-the-world pauses) every second.
 * When they took at least {@link #LIMIT} of the last {@link #WINDOW}, the process logs why, gives
 * its farewell (a node answers the requests it holds with an out-of-memory error naming itself),
 * and halts with {@link #EXIT_CODE}, the code the JVM's own exit on out of memory has, so that its
 * supervisor restarts it. The share of the last window is also what {@link #share()} tells (a
 * node's status answer) and, every few seconds, what the report file says: {@code ooo cluster
 * status} reads it when the process does not answer.
 *
 * <p>Only a process that runs as a cluster member starts one ({@code ooo node}, {@code ooo server}):
 * it halts the whole JVM.
 */
public final class GcWatchdog implements AutoCloseable {
    private static final Logger LOG = LogManager.getLogger(GcWatchdog.class);
    /** The time over which the share of garbage collection is measured. */
    public static final Duration WINDOW = Duration.ofSeconds(30);
    /** The share of {@link #WINDOW} in garbage collection at which the process ends. */
    public static final double LIMIT = 0.9;
    /** The exit code of a process the watchdog ended: that of -XX:+ExitOnOutOfMemoryError. */
    public static final int EXIT_CODE = 3;
    static final Duration SAMPLE = Duration.ofSeconds(1);
    private static final Duration REPORT_EVERY = Duration.ofSeconds(5);
    /** How long the farewell may take before the process halts anyway. */
    private static final Duration FAREWELL = Duration.ofSeconds(3);

    private static volatile GcWatchdog running;

    private final String member;
    private final LongSupplier gcMillis;
    private final LongSupplier nanoTime;
    private final Path report;
    private final Consumer<String> farewell;
    private final IntConsumer halt;
    /** {nanoTime, accumulated GC milliseconds}, oldest first: the last window and the sample just before it. */
    private final ArrayDeque<long[]> samples = new ArrayDeque<>();
    private volatile double share;
    private volatile long observedNanos;
    private long reportedAt = Long.MIN_VALUE;
    private volatile boolean ending;
    private volatile Thread thread;

    GcWatchdog(String member, LongSupplier gcMillis, LongSupplier nanoTime, Path report, Consumer<String> farewell,
               IntConsumer halt) {
        this.member = member;
        this.gcMillis = gcMillis;
        this.nanoTime = nanoTime;
        this.report = report;
        this.farewell = farewell;
        this.halt = halt;
    }

    /**
     * Starts the watchdog of this process.
     *
     * @param member   how the log names this process, e.g. "node n2"
     * @param report   the file to write the share to every few seconds, or null for none
     * @param farewell what to do, with the reason, before the process halts (bounded in time)
     */
    public static synchronized GcWatchdog start(String member, Path report, Consumer<String> farewell) {
        if (running != null) {
            throw new IllegalStateException("a garbage collection watchdog runs already in this process");
        }
        GcWatchdog w = new GcWatchdog(member, GcWatchdog::collectorMillis, System::nanoTime, report, farewell,
                code -> Runtime.getRuntime().halt(code));
        Thread t = new Thread(w::run, "ooo-gc-watchdog");
        t.setDaemon(true);
        // Above the work that fills the heap: it must get its turn between collections.
        t.setPriority(Thread.MAX_PRIORITY);
        w.thread = t;
        running = w;
        t.start();
        return w;
    }

    /** The watchdog of this process, if one runs. */
    public static Optional<GcWatchdog> running() {
        return Optional.ofNullable(running);
    }

    /** The share (0 to 1) of the time observed, at most about the last {@link #WINDOW}, spent in garbage collection. */
    public double share() {
        return share;
    }

    /** How much time {@link #share()} covers: {@link #WINDOW} once the process has run that long. */
    public Duration observed() {
        return Duration.ofNanos(observedNanos);
    }

    private void run() {
        while (!Thread.currentThread().isInterrupted()) {
            try {
                Thread.sleep(SAMPLE.toMillis());
            } catch (InterruptedException e) {
                return;
            }
            try {
                if (sample()) {
                    end();
                    return;
                }
            } catch (Throwable t) {
                // An OutOfMemoryError here ends the JVM by its own flag; anything else must not stop the watch.
                LOG.warn("{}: garbage collection watchdog: {}", member, t.toString());
            }
        }
    }

    /** Takes one sample; true when the process must end. */
    synchronized boolean sample() {
        long now = nanoTime.getAsLong();
        long gc = gcMillis.getAsLong();
        samples.addLast(new long[] {now, gc});
        // The base is the newest sample at least a window old, or the oldest there is.
        long windowStart = now - WINDOW.toNanos();
        while (samples.size() > 2) {
            long[] second = samples.stream().skip(1).findFirst().orElseThrow();
            if (second[0] - windowStart > 0) {
                break;
            }
            samples.removeFirst();
        }
        long[] base = samples.peekFirst();
        long span = now - base[0];
        double s = span <= 0 ? 0 : Math.min(1.0, Math.max(0.0, (gc - base[1]) * 1_000_000.0 / span));
        share = s;
        observedNanos = span;
        writeReport(now);
        return span >= WINDOW.toNanos() && s >= LIMIT;
    }

    /** What the process says when it ends. */
    String reason() {
        return String.format(Locale.ROOT, "%s ran out of memory: it spent %d%% of the last %d s in garbage collection",
                member, Math.round(share * 100), Math.round(observedNanos / 1e9));
    }

    /** Logs why, gives the farewell (for {@link #FAREWELL} at most) and halts. */
    void end() {
        ending = true;
        String why = reason();
        // The line the supervisor quotes as the cause (and which 'out of memory' finds in the log).
        System.err.println("out of memory: " + why + "; ending the process (exit code " + EXIT_CODE + ")");
        System.err.flush();
        Thread farewellThread = new Thread(() -> {
            try {
                farewell.accept(why);
            } catch (Throwable t) {
                // halting all the same
            }
        }, "ooo-gc-farewell");
        farewellThread.setDaemon(true);
        farewellThread.start();
        try {
            farewellThread.join(FAREWELL.toMillis());
            // The answers it wrote leave on the network threads: give them a moment between collections.
            Thread.sleep(500);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        halt.accept(EXIT_CODE);
    }

    private void writeReport(long now) {
        if (report == null || (reportedAt != Long.MIN_VALUE && now - reportedAt < REPORT_EVERY.toNanos())) {
            return;
        }
        reportedAt = now;
        try {
            Path tmp = report.resolveSibling(report.getFileName() + ".tmp");
            Directories.writePrivate(tmp, new Report(share, Math.round(observedNanos / 1e9), Instant.now()).line() + "\n");
            Files.move(tmp, report, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException | RuntimeException e) {
            LOG.debug("{}: cannot write {}: {}", member, report, e.toString());
        }
    }

    /** The accumulated pause time of every collector of this JVM, in milliseconds. */
    static long collectorMillis() {
        long total = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            total += Math.max(0, gc.getCollectionTime());
        }
        return total;
    }

    /** What a report file says: the share of the last {@code seconds} in garbage collection, measured {@code at}. */
    public record Report(double share, long seconds, Instant at) {
        String line() {
            return String.format(Locale.ROOT, "%.4f %d %s", share, seconds, at);
        }

        /** The report in {@code file}, if there is a readable one. */
        public static Optional<Report> read(Path file) {
            try {
                String[] f = Files.readString(file).strip().split("\\s+");
                return Optional.of(new Report(Double.parseDouble(f[0]), Long.parseLong(f[1]), Instant.parse(f[2])));
            } catch (IOException | RuntimeException e) {
                return Optional.empty();
            }
        }

        /** E.g. "97% of the last 30 s in garbage collection". */
        public String describe() {
            return String.format(Locale.ROOT, "%d%% of the last %d s in garbage collection", Math.round(share * 100), seconds);
        }
    }

    /** Stops watching (the process goes on). */
    @Override
    public synchronized void close() {
        Thread t = thread;
        if (t != null && !ending) {
            t.interrupt();
        }
        if (running == this) {
            running = null;
        }
    }
}
