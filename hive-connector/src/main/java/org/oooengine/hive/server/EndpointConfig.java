package org.oooengine.hive.server;

import java.nio.file.Path;

/**
 * How a {@link HiveServer2Endpoint} listens and whom it lets in.
 *
 * <p>{@code allowUnauthenticated} admits raw-transport clients ({@code ;auth=noSasl}) and, when
 * there is no password file, SASL PLAIN clients with any credentials. With a {@code passwordFile}
 * SASL PLAIN clients must present a user and password listed there. At least one of the two must
 * be given, so an endpoint never ends up open by accident.
 *
 * @param host the address to bind, e.g. {@code 127.0.0.1} or {@code 0.0.0.0}
 * @param port the port to bind; 0 picks a free one (see {@link HiveServer2Endpoint#port()})
 * @param maxConnections connections served at once (one worker thread each)
 * @param defaultFetchSize rows per fetch the driver uses unless the client asks otherwise
 */
public record EndpointConfig(String host, int port, boolean allowUnauthenticated, Path passwordFile,
                             int maxConnections, int defaultFetchSize) {
    public static final int DEFAULT_MAX_CONNECTIONS = 200;
    public static final int DEFAULT_FETCH_SIZE = 1000;

    public EndpointConfig {
        if (host == null || host.isEmpty()) {
            throw new IllegalArgumentException("host is required");
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port out of range: " + port);
        }
        if (!allowUnauthenticated && passwordFile == null) {
            throw new IllegalArgumentException("an endpoint needs a password file unless it allows unauthenticated clients");
        }
        if (maxConnections < 1 || defaultFetchSize < 1) {
            throw new IllegalArgumentException("maxConnections and defaultFetchSize must be positive");
        }
    }

    /** The local/embedded default: anyone who can reach the port gets in. */
    public static EndpointConfig unauthenticated(String host, int port) {
        return new EndpointConfig(host, port, true, null, DEFAULT_MAX_CONNECTIONS, DEFAULT_FETCH_SIZE);
    }

    /** SASL PLAIN against a {@code user:password} file; raw-transport clients are refused. */
    public static EndpointConfig withPasswordFile(String host, int port, Path passwordFile) {
        return new EndpointConfig(host, port, false, passwordFile, DEFAULT_MAX_CONNECTIONS, DEFAULT_FETCH_SIZE);
    }

    boolean checksPasswords() {
        return passwordFile != null;
    }
}
