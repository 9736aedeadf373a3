package org.oooengine.hive.server;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hive.service.rpc.thrift.THandleIdentifier;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.oooengine.core.sql.SqlException;

/**
 * All open sessions and operations of an endpoint, keyed by handle. Global rather than per
 * connection: the 4.1 driver may fetch an operation's rows over extra connections.
 */
final class SessionRegistry {
    private static final Logger LOG = LogManager.getLogger(SessionRegistry.class);

    private final Map<UUID, ServerSession> sessions = new ConcurrentHashMap<>();
    private final Map<UUID, Operation> operations = new ConcurrentHashMap<>();

    void add(ServerSession session) {
        sessions.put(session.id().guid(), session);
    }

    ServerSession session(THandleIdentifier handle) {
        HandleId id = HandleId.fromThrift(handle, "SessionHandle");
        ServerSession session = sessions.get(id.guid());
        if (session == null || !session.id().secret().equals(id.secret())) {
            throw new SqlException(SqlException.GENERAL, "Invalid SessionHandle: no open session " + id.guid());
        }
        session.used();
        return session;
    }

    void add(Operation operation) {
        operations.put(operation.id().guid(), operation);
        operation.session().operationAdded(operation.id().guid());
    }

    Operation operation(THandleIdentifier handle) {
        Operation operation = findOperation(handle);
        if (operation == null) {
            throw new SqlException(SqlException.GENERAL, "Invalid OperationHandle: the operation does not exist or was closed");
        }
        return operation;
    }

    /** The operation, or null when the handle is unknown (closing twice is not an error). */
    Operation findOperation(THandleIdentifier handle) {
        HandleId id = HandleId.fromThrift(handle, "OperationHandle");
        Operation operation = operations.get(id.guid());
        if (operation == null || !operation.id().secret().equals(id.secret())) {
            return null;
        }
        operation.session().used();
        return operation;
    }

    void closeOperation(Operation operation) {
        if (operations.remove(operation.id().guid(), operation)) {
            operation.session().operationRemoved(operation.id().guid());
            operation.close();
        }
    }

    /** Closes a session and its operations; unknown ids are ignored. */
    void close(UUID sessionId) {
        ServerSession session = sessions.remove(sessionId);
        if (session == null) {
            return;
        }
        for (UUID op : session.operations()) {
            Operation operation = operations.get(op);
            if (operation != null) {
                closeOperation(operation);
            }
        }
        try {
            session.sql().close();
        } catch (RuntimeException e) {
            LOG.warn("Closing session {} of {} failed", sessionId, session.user(), e);
        }
        LOG.debug("Session {} of {} closed", sessionId, session.user());
    }

    /**
     * Closes the sessions that no call has used for {@code timeout} and that run no statement
     * (a long query keeps its session), with their operations and results.
     *
     * @return the sessions closed
     */
    List<ServerSession> closeIdle(Duration timeout) {
        long timeoutNanos = timeout.toNanos();
        List<ServerSession> idle = new ArrayList<>();
        for (ServerSession session : sessions.values()) {
            if (session.idleNanos() >= timeoutNanos && !runsStatement(session)) {
                close(session.id().guid());
                idle.add(session);
            }
        }
        return idle;
    }

    private boolean runsStatement(ServerSession session) {
        for (UUID op : session.operations()) {
            Operation operation = operations.get(op);
            if (operation != null && operation.status().state().isActive()) {
                return true;
            }
        }
        return false;
    }

    void closeAll() {
        List.copyOf(sessions.keySet()).forEach(this::close);
    }

    int sessionCount() {
        return sessions.size();
    }
}
