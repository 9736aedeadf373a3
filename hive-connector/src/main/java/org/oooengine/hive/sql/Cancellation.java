package org.oooengine.hive.sql;

import org.oooengine.core.sql.SqlException;

/** Set by whoever cancels a statement; checked by the statement's operators between batches. */
public final class Cancellation {
    private volatile boolean cancelled;

    public void cancel() {
        cancelled = true;
    }

    public boolean isCancelled() {
        return cancelled;
    }

    /** Throws the user-facing cancellation error once cancelled. */
    public void check() {
        if (cancelled) {
            throw new SqlException(SqlException.CANCELLED, "the statement was cancelled");
        }
    }
}
