package org.oooengine.hive.engine;

import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import org.oooengine.core.cluster.ClusterException;
import org.oooengine.core.cluster.CommitOutcomeUnknownException;
import org.oooengine.core.cluster.NodeRanOutOfMemoryException;
import org.oooengine.core.txn.TransactionAbortedException;
import org.oooengine.core.fragment.MemoryLimitExceededException;
import org.oooengine.core.net.ErrorCode;
import org.oooengine.core.net.RemoteException;
import org.oooengine.core.storage.DataCorruptedException;
import org.oooengine.core.sql.SqlException;

/**
 * The one place where a failure of the cluster becomes a SQLSTATE, so that a fault gets the same
 * state whichever path met it (a scan, an index join, a MapReduce job, a DDL or DML statement).
 * The table of states is in docs/sql.md, "Errors".
 */
public final class Faults {
    private Faults() {
    }

    /**
     * {@code failure} as the user sees it: a SqlException passes unchanged, anything else gets the
     * state of its fault class and {@code context} (e.g. "scan of lineitem failed: "; empty for
     * none) before its message, which keeps every detail (node, file, page, checksum).
     */
    public static SqlException of(String context, Throwable failure) {
        Throwable cause = unwrap(failure);
        if (cause instanceof SqlException e) {
            return e;
        }
        String message = cause.getMessage() != null ? cause.getMessage() : cause.getClass().getName();
        if (conflict(cause)) {
            return new ConflictException(context + message, cause);
        }
        return new SqlException(state(cause), context + message, cause);
    }

    /**
     * Whether {@code failure} is a conflict with a concurrent transaction, whatever path met it (a
     * node's read or commit answering CONFLICT, a local abort): the statement may run again.
     */
    public static boolean conflict(Throwable failure) {
        Throwable cause = unwrap(failure);
        return cause instanceof ConflictException || cause instanceof TransactionAbortedException
                || cause instanceof RemoteException re && re.code() == ErrorCode.CONFLICT;
    }

    /**
     * The node {@code failure} says was lost — unreachable, its connection dropped, or silent past
     * its deadline — or null when it names no such node.
     */
    public static String lostNode(Throwable failure) {
        return RemoteException.lostNode(failure);
    }

    /** The SQLSTATE of {@code failure}'s fault class. */
    public static String state(Throwable failure) {
        Throwable cause = unwrap(failure);
        if (cause instanceof SqlException e) {
            return e.sqlState();
        }
        for (Throwable t = cause; t != null; t = t.getCause()) {
            if (t instanceof DataCorruptedException) {
                return SqlException.DATA_CORRUPTED; // also when met in this process, e.g. by a MapReduce task
            }
            // (a node that ran out of memory and was restarted: its connection's loss is the cause, not the fault)
            if (t instanceof OutOfMemoryError || t instanceof MemoryLimitExceededException
                    || t instanceof NodeRanOutOfMemoryException) {
                return SqlException.OUT_OF_MEMORY;
            }
            if (t instanceof org.oooengine.core.fragment.SpillLimitExceededException) {
                return SqlException.DISK_FULL;
            }
        }
        if (cause instanceof RemoteException re) {
            return of(re.code());
        }
        if (cause instanceof TransactionAbortedException) {
            return SqlException.SERIALIZATION_FAILURE;
        }
        if (cause instanceof CommitOutcomeUnknownException) {
            return SqlException.COMPLETION_UNKNOWN;
        }
        if (cause instanceof CancellationException || cause instanceof InterruptedException) {
            return SqlException.CANCELLED;
        }
        if (cause instanceof ClusterException c && c.getCause() != null && c.getCause() != c) {
            return state(c.getCause());
        }
        return SqlException.GENERAL;
    }

    /** The SQLSTATE of a node's error frame. */
    static String of(ErrorCode code) {
        return switch (code) {
            case DATA_CORRUPTED -> SqlException.DATA_CORRUPTED;
            // the node is unreachable, closed the connection or missed its deadline
            case NODE_UNAVAILABLE, TIMEOUT -> SqlException.NODE_FAILURE;
            case OUT_OF_MEMORY -> SqlException.OUT_OF_MEMORY;
            case DISK_FULL -> SqlException.DISK_FULL;
            case CANCELLED -> SqlException.CANCELLED;
            case CONFLICT -> SqlException.SERIALIZATION_FAILURE;
            case CONSTRAINT -> SqlException.CONSTRAINT;
            case MALFORMED_REQUEST, AUTH_FAILED, NOT_FOUND, TOO_MANY_REQUESTS, INTERNAL -> SqlException.GENERAL;
        };
    }

    private static Throwable unwrap(Throwable failure) {
        Throwable cause = failure;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException)
                && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }
}
