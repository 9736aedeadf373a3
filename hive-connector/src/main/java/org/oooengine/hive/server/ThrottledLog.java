package org.oooengine.hive.server;

import java.time.Duration;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.Logger;
import org.apache.logging.log4j.message.ParameterizedMessage;

/**
 * Log lines about events a client can cause as often as it likes (refused connections, failed
 * logins): the first is written at once, the ones after it within an interval are only counted,
 * and the next line written (or {@link #flush}) says how many were left out. So an attack shows in
 * the log as a few lines with counts, not as one line per attempt.
 */
final class ThrottledLog {
    /** How often each kind of event may write a line. */
    static final Duration INTERVAL = Duration.ofMinutes(1);

    private final Logger log;
    private final Level level;
    private final String what;
    private final long intervalNanos;
    private long lastWrittenNanos;
    private boolean writtenOnce;
    private int leftOut;
    private String lastLeftOut;

    /** {@code what} names the events in the summary, e.g. "refused connections". */
    ThrottledLog(Logger log, Level level, String what) {
        this(log, level, what, INTERVAL);
    }

    ThrottledLog(Logger log, Level level, String what, Duration interval) {
        this.log = log;
        this.level = level;
        this.what = what;
        this.intervalNanos = interval.toNanos();
    }

    /** Writes the event now, or counts it when a line was written less than an interval ago. */
    void log(String format, Object... args) {
        if (!log.isEnabled(level)) {
            return;
        }
        String message = ParameterizedMessage.format(format, args);
        long now = System.nanoTime();
        int skipped;
        synchronized (this) {
            if (writtenOnce && now - lastWrittenNanos < intervalNanos) {
                leftOut++;
                lastLeftOut = message;
                return;
            }
            skipped = leftOut;
            leftOut = 0;
            lastLeftOut = null;
            writtenOnce = true;
            lastWrittenNanos = now;
        }
        write(message, skipped);
    }

    /** Writes the count of events left out, once an interval has passed since the last line. */
    void flush() {
        String message;
        int skipped;
        synchronized (this) {
            if (leftOut == 0 || System.nanoTime() - lastWrittenNanos < intervalNanos) {
                return;
            }
            message = lastLeftOut;
            skipped = leftOut;
            leftOut = 0;
            lastLeftOut = null;
            lastWrittenNanos = System.nanoTime();
        }
        log.log(level, "{} more {} since the previous such line; the latest: {}", skipped, what, message);
    }

    private void write(String message, int skipped) {
        if (skipped == 0) {
            log.log(level, "{}", message);
        } else {
            log.log(level, "{} (and {} more {} since the previous such line)", message, skipped, what);
        }
    }
}
