package org.oooengine.core.net;

import java.time.Duration;
import java.util.function.LongSupplier;
import org.apache.logging.log4j.Logger;

/**
 * Logs the connections a node refuses or drops before they authenticate, without letting a flood
 * of them flood the log: at most one WARN line per interval, naming the peer and counting the
 * refusals since the last WARN; the others go to DEBUG.
 */
final class RefusalLog {
    static final Duration INTERVAL = Duration.ofSeconds(10);

    private final Logger log;
    private final String nodeName;
    private final long intervalNanos;
    private final LongSupplier clock;
    private boolean warned;
    private long lastWarn;
    private int quiet;
    private long warnings;

    RefusalLog(Logger log, String nodeName) {
        this(log, nodeName, INTERVAL, System::nanoTime);
    }

    RefusalLog(Logger log, String nodeName, Duration interval, LongSupplier clock) {
        this.log = log;
        this.nodeName = nodeName;
        this.intervalNanos = interval.toNanos();
        this.clock = clock;
    }

    /** Logs one refusal; {@code why} names the peer. */
    void refused(String why) {
        long now = clock.getAsLong();
        int before;
        long seconds;
        synchronized (this) {
            if (warned && now - lastWarn < intervalNanos) {
                quiet++;
                before = -1;
                seconds = 0;
            } else {
                before = quiet;
                seconds = (now - lastWarn) / 1_000_000_000L;
                quiet = 0;
                warned = true;
                lastWarn = now;
                warnings++;
            }
        }
        if (before < 0) {
            log.debug("node {} refused a connection: {}", nodeName, why);
        } else if (before == 0) {
            log.warn("node {} refused a connection: {}", nodeName, why);
        } else {
            log.warn("node {} refused a connection: {} ({} more refused in the last {} s, logged at DEBUG)", nodeName,
                    why, before, seconds);
        }
    }

    /** WARN lines written so far. */
    synchronized long warnings() {
        return warnings;
    }
}
