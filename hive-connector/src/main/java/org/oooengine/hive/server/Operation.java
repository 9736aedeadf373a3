package org.oooengine.hive.server;

import java.util.List;
import org.apache.hive.service.rpc.thrift.TOperationHandle;
import org.apache.hive.service.rpc.thrift.TOperationState;
import org.apache.hive.service.rpc.thrift.TOperationType;
import org.oooengine.core.sql.SqlException;

/**
 * Something a client started on a session (a statement or a metadata call) and then polls,
 * fetches from, cancels and closes. Holds the state machine; results come from a ResultCursor.
 */
class Operation {
    enum State {
        PENDING(TOperationState.PENDING_STATE),
        RUNNING(TOperationState.RUNNING_STATE),
        FINISHED(TOperationState.FINISHED_STATE),
        ERROR(TOperationState.ERROR_STATE),
        CANCELED(TOperationState.CANCELED_STATE),
        TIMEDOUT(TOperationState.TIMEDOUT_STATE),
        CLOSED(TOperationState.CLOSED_STATE);

        final TOperationState thrift;

        State(TOperationState thrift) {
            this.thrift = thrift;
        }

        boolean isActive() {
            return this == PENDING || this == RUNNING;
        }
    }

    /** What GetOperationStatus reports; {@code hasResultSet} is null until the statement has run. */
    record Status(State state, Boolean hasResultSet, long updateCount, SqlException error, long startedMillis,
                  long completedMillis) {
    }

    private final HandleId id;
    private final TOperationType type;
    private final ServerSession session;
    private State state = State.PENDING;
    private ResultCursor cursor;
    private long updateCount = -1;
    private SqlException error;
    private final long startedMillis = System.currentTimeMillis();
    private long completedMillis;

    Operation(ServerSession session, TOperationType type) {
        this.id = HandleId.random();
        this.type = type;
        this.session = session;
    }

    /** A metadata operation: already finished, all rows in memory, as the driver expects. */
    static Operation finished(ServerSession session, TOperationType type, List<WireColumn> columns, List<Object[]> rows) {
        Operation operation = new Operation(session, type);
        operation.finishedWith(ResultCursor.inMemory(columns, rows), -1);
        return operation;
    }

    HandleId id() {
        return id;
    }

    ServerSession session() {
        return session;
    }

    TOperationHandle handle() {
        return new TOperationHandle(id.toThrift(), type, Boolean.TRUE.equals(status().hasResultSet()));
    }

    synchronized Status status() {
        Boolean hasResultSet = switch (state) {
            case PENDING, RUNNING -> null;
            case FINISHED -> cursor != null;
            default -> false;
        };
        return new Status(state, hasResultSet, updateCount, error, startedMillis, completedMillis);
    }

    /** Waits up to {@code millis} while the operation is still pending or running (long polling). */
    synchronized Status awaitCompletion(long millis) throws InterruptedException {
        long deadline = System.currentTimeMillis() + millis;
        for (long left = millis; state.isActive() && left > 0; left = deadline - System.currentTimeMillis()) {
            wait(left);
        }
        return status();
    }

    synchronized boolean markRunning() {
        return transition(State.RUNNING, State.PENDING);
    }

    /** Records the result unless the operation was cancelled or closed meanwhile; false then. */
    synchronized boolean finishedWith(ResultCursor result, long count) {
        if (!transition(State.FINISHED, State.PENDING, State.RUNNING)) {
            return false;
        }
        cursor = result;
        updateCount = count;
        return true;
    }

    synchronized void failed(SqlException e) {
        if (transition(State.ERROR, State.PENDING, State.RUNNING, State.FINISHED)) {
            error = e;
        }
    }

    synchronized boolean timedOut() {
        return transition(State.TIMEDOUT, State.PENDING, State.RUNNING);
    }

    /**
     * Stops the operation: one that is pending or running, or finished with rows left to read,
     * ends CANCELED. Cancelling one that is over anyway changes nothing (and is no error).
     */
    synchronized boolean cancel() {
        boolean unreadRows = state == State.FINISHED && cursor != null && !cursor.exhausted();
        if (state.isActive() || unreadRows) {
            transition(State.CANCELED, state);
            return true;
        }
        return false;
    }

    synchronized void close() {
        transition(State.CLOSED, State.values());
    }

    synchronized List<WireColumn> schema() {
        return readableCursor().columns();
    }

    /** The next batch, or from the first row again when {@code fromStart}. */
    RowBatch fetch(boolean fromStart, int maxRows) {
        ResultCursor result;
        synchronized (this) {
            result = readableCursor();
        }
        try {
            // Rows may be computed while read: that is engine work, so it takes the session's turn.
            return session.exclusive(() -> {
                if (fromStart) {
                    result.rewind();
                }
                return result.next(maxRows);
            });
        } catch (SqlException e) {
            if (!"HY106".equals(e.sqlState())) {
                failed(e);
            }
            throw e;
        } catch (RuntimeException e) {
            SqlException error = Statuses.asSqlException(e);
            failed(error);
            throw error;
        }
    }

    private ResultCursor readableCursor() {
        return switch (state) {
            case FINISHED -> {
                if (cursor == null) {
                    throw new SqlException("HY010", "the statement has no result set");
                }
                yield cursor;
            }
            case PENDING, RUNNING -> throw new SqlException("HY010", "the statement is still running; poll its status first");
            case ERROR -> throw error;
            case CANCELED -> throw new SqlException(SqlException.CANCELLED, "the statement was cancelled");
            case TIMEDOUT -> throw new SqlException("HYT00", "the statement timed out");
            case CLOSED -> throw new SqlException(SqlException.GENERAL, "Invalid OperationHandle: the operation was closed");
        };
    }

    /** Moves to {@code target} if the current state is one of {@code from}; wakes pollers. */
    private boolean transition(State target, State... from) {
        for (State allowed : from) {
            if (state == allowed && state != target) {
                state = target;
                if (!target.isActive()) {
                    if (completedMillis == 0) {
                        completedMillis = System.currentTimeMillis();
                    }
                    if (target != State.FINISHED && cursor != null) {
                        cursor.close();
                    }
                }
                notifyAll();
                return true;
            }
        }
        return false;
    }

    @Override
    public String toString() {
        return type + " " + id;
    }
}
