package org.oooengine.hive.server;

import java.nio.ByteBuffer;
import java.security.SecureRandom;
import java.util.UUID;
import org.apache.hive.service.rpc.thrift.THandleIdentifier;
import org.oooengine.core.sql.SqlException;

/**
 * A session or operation handle: a public id plus a random secret. Handles are global (a driver
 * may fetch on extra connections with handles from another one), so the unguessable secret is
 * what keeps one client from using another's handles.
 */
record HandleId(UUID guid, UUID secret) {
    private static final SecureRandom RANDOM = new SecureRandom();

    static HandleId random() {
        return new HandleId(UUID.randomUUID(), new UUID(RANDOM.nextLong(), RANDOM.nextLong()));
    }

    THandleIdentifier toThrift() {
        return new THandleIdentifier(bytes(guid), bytes(secret));
    }

    /** Parses a client's handle; the caller still checks the secret against the registered one. */
    static HandleId fromThrift(THandleIdentifier id, String what) {
        if (id == null || id.getGuid() == null || id.getSecret() == null
                || id.getGuid().length != 16 || id.getSecret().length != 16) {
            throw new SqlException(SqlException.GENERAL, "Invalid " + what + ": malformed handle");
        }
        return new HandleId(uuid(id.getGuid()), uuid(id.getSecret()));
    }

    private static ByteBuffer bytes(UUID uuid) {
        return ByteBuffer.allocate(16).putLong(uuid.getMostSignificantBits()).putLong(uuid.getLeastSignificantBits()).flip();
    }

    private static UUID uuid(byte[] bytes) {
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        return new UUID(buffer.getLong(), buffer.getLong());
    }

    @Override
    public String toString() {
        return guid.toString();
    }
}
