package org.oooengine.hive.server;

import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import org.apache.hive.service.rpc.thrift.TProtocolVersion;
import org.oooengine.hive.sql.SqlSession;

/** A client session: the engine's session plus the operations the client has not closed yet. */
final class ServerSession {
    private final HandleId id;
    private final SqlSession sql;
    private final String peer;
    /** The protocol version agreed at OpenSession; it decides the layout of every row set. */
    private final TProtocolVersion protocol;
    private final Set<UUID> operations = ConcurrentHashMap.newKeySet();
    /** The engine runs one statement of a session at a time; statement runs and row pulls take turns. */
    private final ReentrantLock engineLock = new ReentrantLock();
    private volatile long lastUsedNanos = System.nanoTime();

    ServerSession(HandleId id, SqlSession sql, String peer, TProtocolVersion protocol) {
        this.id = id;
        this.sql = sql;
        this.peer = peer;
        this.protocol = protocol;
    }

    TProtocolVersion protocol() {
        return protocol;
    }

    HandleId id() {
        return id;
    }

    SqlSession sql() {
        return sql;
    }

    String user() {
        return sql.user();
    }

    String peer() {
        return peer;
    }

    /** Calls into the engine for this session, one caller at a time. */
    <T> T exclusive(Supplier<T> call) {
        engineLock.lock();
        try {
            return call.get();
        } finally {
            engineLock.unlock();
        }
    }

    /** A client call named this session or one of its operations. */
    void used() {
        lastUsedNanos = System.nanoTime();
    }

    long idleNanos() {
        return System.nanoTime() - lastUsedNanos;
    }

    void operationAdded(UUID operation) {
        operations.add(operation);
    }

    void operationRemoved(UUID operation) {
        operations.remove(operation);
    }

    Set<UUID> operations() {
        return Set.copyOf(operations);
    }
}
