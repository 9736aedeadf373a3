package org.oooengine.core.net;

import java.time.Duration;
import java.util.function.LongSupplier;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.Logger;
import org.apache.logging.log4j.message.ParameterizedMessage;

/**
 * Log lines about events a peer can cause as often as it likes (refused connections, failed
 * logins, handshake deadlines): the first is written at once, the ones after it within an interval
 * are only counted (and written at DEBUG), and the next line written (or {@link #flush}) says how
 * many were left out. So an attack shows in the log as a few lines with counts, not as one line per
 * attempt. Used by every port that strangers reach: the nodes' and the SQL endpoint's.
 */
public final class ThrottledLog {
    /** How often each kind of event may write a line, unless told otherwise. */
    public static final Duration INTERVAL = Duration.ofMinutes(1);

    private final Logger log;
    private final Level level;
    private final String what;
    private final long intervalNanos;
    private final LongSupplier clock;
    private long lastWrittenNanos;
    private boolean writtenOnce;
    private int leftOut;
    private String lastLeftOut;
    private long written;

    /** {@code what} names the events in the summary, e.g. "refused connections". */
    public ThrottledLog(Logger log, Level level, String what) {
        this(log, level, what, INTERVAL);
    }

    public ThrottledLog(Logger log, Level level, String what, Duration interval) {
        this(log, level, what, interval, System::nanoTime);
    }

    ThrottledLog(Logger log, Level level, String what, Duration interval, LongSupplier clock) {
        this.log = log;
        this.level = level;
        this.what = what;
        this.intervalNanos = interval.toNanos();
        this.clock = clock;
    }

    /** Writes the event now, or counts it when a line was written less than an interval ago. */
    public void log(String format, Object... args) {
        if (!log.isEnabled(level)) {
            return;
        }
        String message = ParameterizedMessage.format(format, args);
        long now = clock.getAsLong();
        int skipped;
        synchronized (this) {
            if (writtenOnce && now - lastWrittenNanos < intervalNanos) {
                leftOut++;
                lastLeftOut = message;
                log.debug("{}", message);
                return;
            }
            skipped = leftOut;
            leftOut = 0;
            lastLeftOut = null;
            writtenOnce = true;
            lastWrittenNanos = now;
            written++;
        }
        if (skipped == 0) {
            log.log(level, "{}", message);
        } else {
            log.log(level, "{} (and {} more {} since the previous such line)", message, skipped, what);
        }
    }

    /** Writes the count of events left out, once an interval has passed since the last line. */
    public void flush() {
        String message;
        int skipped;
        synchronized (this) {
            long now = clock.getAsLong();
            if (leftOut == 0 || now - lastWrittenNanos < intervalNanos) {
                return;
            }
            message = lastLeftOut;
            skipped = leftOut;
            leftOut = 0;
            lastLeftOut = null;
            lastWrittenNanos = now;
            written++;
        }
        log.log(level, "{} more {} since the previous such line; the latest: {}", skipped, what, message);
    }

    /** Lines written at the log's level so far. */
    public synchronized long linesWritten() {
        return written;
    }
}
