package org.oooengine.hive.sql.analyze;

import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.function.Supplier;

/**
 * The instant a statement started, which {@code current_timestamp}, {@code current_date} and
 * {@code unix_timestamp()} read wherever they appear in it: as in Hive, every call in one statement
 * gives the same value. Analysis runs on the thread that executes the statement, so the instant is
 * that thread's while the statement runs; outside one (a test binding an expression) it is now.
 */
public final class StatementClock {
    private static final ThreadLocal<LocalDateTime> STARTED = new ThreadLocal<>();

    private StatementClock() {
    }

    /** What {@code statement} returns, its calls of the clock reading one instant, now (UTC, to the millisecond). */
    public static <T> T during(Supplier<T> statement) {
        LocalDateTime outer = STARTED.get();
        if (outer != null) {
            return statement.get(); // a statement within one (a view's query) keeps its instant
        }
        STARTED.set(utcNow());
        try {
            return statement.get();
        } finally {
            STARTED.remove();
        }
    }

    /** The running statement's instant, or now outside one. */
    static LocalDateTime now() {
        LocalDateTime started = STARTED.get();
        return started != null ? started : utcNow();
    }

    private static LocalDateTime utcNow() {
        return LocalDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.MILLIS);
    }
}
