package org.oooengine.cluster.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.oooengine.hive.sql.Cancellation;
import org.oooengine.hive.sql.SqlSession;
import org.oooengine.hive.sql.StatementResult;

/**
 * Runs each statement in a session of its own on a thread of its own and cancels it at a time
 * limit, so that one query of a benchmark cannot hold up the others.
 */
public final class TimedStatements implements AutoCloseable {
    /** How long a cancelled statement has to stop before the run moves on without it. */
    private static final Duration CANCEL_GRACE = Duration.ofSeconds(30);

    /** What a statement returned (its rows when they were kept) and how long it took. */
    public record Run(List<Object[]> rows, double seconds) {
    }

    private final Supplier<SqlSession> sessions;
    private final Duration timeout;
    private final ExecutorService runner = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "timed-statement");
        t.setDaemon(true);
        return t;
    });

    public TimedStatements(Supplier<SqlSession> sessions, Duration timeout) {
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("the timeout must be positive, got " + timeout);
        }
        this.sessions = sessions;
        this.timeout = timeout;
    }

    public Duration timeout() {
        return timeout;
    }

    /** Runs a query to its last row; throws TimeoutException once it was cancelled at the time limit. */
    public Run execute(String sql, boolean keepRows) throws TimeoutException {
        Cancellation cancellation = new Cancellation();
        Future<Run> f = runner.submit(() -> {
            try (SqlSession session = sessions.get()) {
                long t0 = System.nanoTime();
                StatementResult r = session.execute(sql, cancellation);
                if (!r.hasResultSet()) {
                    throw new IllegalStateException("the statement returned no result set");
                }
                List<Object[]> rows = new ArrayList<>();
                for (Iterator<Object[]> it = r.rows(); it.hasNext(); ) {
                    Object[] row = it.next();
                    if (keepRows) {
                        rows.add(row);
                    }
                }
                return new Run(rows, (System.nanoTime() - t0) / 1e9);
            }
        });
        try {
            return f.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            cancellation.cancel();
            try {
                f.get(CANCEL_GRACE.toMillis(), TimeUnit.MILLISECONDS);
            } catch (Exception stopped) {
                // cancelled, failed or still running: the query is over for this run either way
            }
            throw new TimeoutException("still running after " + timeout.toSeconds() + " s: cancelled");
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            cancellation.cancel();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    @Override
    public void close() {
        runner.shutdownNow();
    }
}
