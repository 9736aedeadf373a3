package org.oooengine.hive.server;

import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.apache.hive.service.rpc.thrift.TOperationType;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.oooengine.hive.sql.Cancellation;
import org.oooengine.core.sql.SqlException;
import org.oooengine.hive.sql.StatementResult;

/** A SQL statement run on the engine, on the caller's thread or in the background. */
final class StatementOperation extends Operation {
    private static final Logger LOG = LogManager.getLogger(StatementOperation.class);

    private final String sql;
    private final Cancellation cancellation = new Cancellation();
    private volatile ScheduledFuture<?> timeout;

    StatementOperation(ServerSession session, String sql) {
        super(session, TOperationType.EXECUTE_STATEMENT);
        this.sql = sql;
    }

    /** runAsync: the client polls GetOperationStatus; {@code timeoutSeconds} 0 means none. */
    void start(Executor executor, ScheduledExecutorService timer, long timeoutSeconds) {
        scheduleTimeout(timer, timeoutSeconds);
        executor.execute(this::run);
    }

    /** Runs on the caller's thread, for clients that do not poll. */
    void runHere(ScheduledExecutorService timer, long timeoutSeconds) {
        scheduleTimeout(timer, timeoutSeconds);
        run();
    }

    private void scheduleTimeout(ScheduledExecutorService timer, long timeoutSeconds) {
        if (timeoutSeconds > 0) {
            timeout = timer.schedule(this::timeOut, timeoutSeconds, TimeUnit.SECONDS);
        }
    }

    private void run() {
        if (!markRunning()) {
            return;
        }
        LOG.debug("Running {} for {}: {}", this, session().user(), sql);
        try {
            StatementResult result = session().exclusive(() -> session().sql().execute(sql, cancellation));
            ResultCursor cursor = result.hasResultSet()
                    ? ResultCursor.streaming(result.columns().stream().map(WireColumn::of).toList(), result.rows())
                    : null;
            if (!finishedWith(cursor, result.updateCount()) && cursor != null) {
                cursor.close(); // cancelled or closed while it ran: nobody will read these rows
            }
        } catch (SqlException e) {
            LOG.debug("{} failed: {} ({})", this, e.getMessage(), e.sqlState());
            failed(e);
        } catch (RuntimeException e) {
            failed(Statuses.asSqlException(e));
        } catch (Error e) {
            failed(Statuses.asSqlException(e));
            throw e;
        } finally {
            ScheduledFuture<?> t = timeout;
            if (t != null) {
                t.cancel(false);
            }
        }
    }

    private void timeOut() {
        if (timedOut()) {
            LOG.info("{} timed out; cancelling it", this);
            cancellation.cancel();
        }
    }

    @Override
    boolean cancel() {
        // Flag first, without the operation's lock: work in progress stops at its next check.
        // For a statement that is over anyway the flag is never looked at again.
        cancellation.cancel();
        boolean cancelled = super.cancel();
        if (cancelled) {
            LOG.debug("{} cancelled", this);
        }
        return cancelled;
    }

    @Override
    void close() {
        cancellation.cancel(); // stops work still running for a statement nobody waits for
        super.close();
    }
}
