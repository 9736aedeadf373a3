package org.oooengine.hive.server;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.oooengine.core.settings.CoordinatorSettings;
import org.oooengine.core.settings.Setting;
import org.oooengine.core.settings.Settings;
import org.oooengine.core.units.Durations;

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
 * @param defaultFetchSize rows per fetch the driver uses unless the client asks otherwise
 * @param limits how many clients connect, how long they may take to log in or stay idle, and how
 *               failed logins are slowed down
 * @param http the HTTP transport beside the binary one, or null for none
 */
public record EndpointConfig(String host, int port, boolean allowUnauthenticated, Path passwordFile,
                             int defaultFetchSize, Limits limits, Http http) {
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
        if (defaultFetchSize < 1) {
            throw new IllegalArgumentException("defaultFetchSize must be positive");
        }
        if (limits == null) {
            throw new IllegalArgumentException("limits are required");
        }
    }

    /** The local/embedded default: anyone who can reach the port gets in. */
    public static EndpointConfig unauthenticated(String host, int port) {
        return new EndpointConfig(host, port, true, null, DEFAULT_FETCH_SIZE, Limits.DEFAULTS, null);
    }

    /** SASL PLAIN against a {@code user:password} file; raw-transport clients are refused. */
    public static EndpointConfig withPasswordFile(String host, int port, Path passwordFile) {
        return new EndpointConfig(host, port, false, passwordFile, DEFAULT_FETCH_SIZE, Limits.DEFAULTS, null);
    }

    /** This configuration with other limits. */
    public EndpointConfig withLimits(Limits newLimits) {
        return new EndpointConfig(host, port, allowUnauthenticated, passwordFile, defaultFetchSize, newLimits, http);
    }

    /** This configuration serving HTTP as {@code newHttp} says too (null: binary only). */
    public EndpointConfig withHttp(Http newHttp) {
        return new EndpointConfig(host, port, allowUnauthenticated, passwordFile, defaultFetchSize, limits, newHttp);
    }

    /** This configuration letting raw (noSasl) clients in beside password logins, or not. */
    public EndpointConfig withUnauthenticated(boolean allow) {
        return new EndpointConfig(host, port, allow, passwordFile, defaultFetchSize, limits, http);
    }

    /**
     * HiveServer2's HTTP transport ({@code transportMode=http;httpPath=cliservice} in a JDBC URL):
     * each Thrift call is one POST to {@code path} on {@code port}, the login travels with every
     * request as HTTP Basic credentials, and sessions are named by their handles, not by connections.
     * Set with Hive's keys: {@link #TRANSPORT_MODE} {@code http} (or {@code all}; either keeps the
     * binary port open as well), {@link #PORT} (default {@value #DEFAULT_PORT}; 0 picks a free one)
     * and {@link #PATH} (default {@value #DEFAULT_PATH}).
     */
    public record Http(int port, String path) {
        public static final String TRANSPORT_MODE = CoordinatorSettings.HTTP_TRANSPORT_MODE.name();
        public static final String PORT = CoordinatorSettings.HTTP_PORT.name();
        public static final String PATH = CoordinatorSettings.HTTP_PATH.name();
        public static final int DEFAULT_PORT = Math.toIntExact(CoordinatorSettings.HTTP_PORT.defaultValue());
        public static final String DEFAULT_PATH = CoordinatorSettings.HTTP_PATH.defaultValue();

        public Http {
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException("HTTP port out of range: " + port);
            }
            path = path == null ? "" : path.replaceAll("^/+|/+$", "");
            if (path.isEmpty() || path.contains("?") || path.contains("#")) {
                throw new IllegalArgumentException("HTTP path must be a plain path such as cliservice, got '" + path + "'");
            }
        }

        /** The HTTP transport {@code settings} ask for, or null when the mode is binary (the default). */
        public static Http fromSettings(Map<String, String> settings) {
            if (CoordinatorSettings.HTTP_TRANSPORT_MODE.get(settings).equals("binary")) {
                return null;
            }
            return new Http(Math.toIntExact(CoordinatorSettings.HTTP_PORT.get(settings)),
                    CoordinatorSettings.HTTP_PATH.get(settings));
        }
    }

    boolean checksPasswords() {
        return passwordFile != null;
    }

    /**
     * What keeps one client (or a crowd of idle ones) from starving the others. Every setting has a
     * coordinator key ({@code --conf key=value} or {@code coordinator.properties}); see
     * {@link #fromSettings}.
     *
     * @param maxConnections connections served at once, each with its own worker thread; one more
     *                       is refused at once with a message saying so ({@link #MAX_CONNECTIONS})
     * @param maxConnectionsPerAddress connections one client address may hold at once, so a single
     *                                 host cannot take every slot ({@link #MAX_CONNECTIONS_PER_ADDRESS})
     * @param handshakeTimeout time a new connection has to choose its transport and log in; then it
     *                         is closed ({@link #HANDSHAKE_TIMEOUT})
     * @param idleConnectionTimeout a logged-in connection that sends no request for this long is
     *                              closed with its sessions; zero: never ({@link #IDLE_CONNECTION_TIMEOUT})
     * @param idleSessionTimeout a session with no call and no running statement for this long is
     *                           closed, freeing its results; zero: never ({@link #IDLE_SESSION_TIMEOUT})
     * @param loginFailureDelay the wait after a first failed login; it doubles with each further
     *                          failure of the same address or user ({@link #LOGIN_FAILURE_DELAY})
     * @param loginFailureMaxDelay the most a login waits; an address whose turn is further away is
     *                             refused at once. One failure is forgotten per this much quiet time
     *                             ({@link #LOGIN_FAILURE_MAX_DELAY})
     * @param loginChecksPerSecond password checks a second over all users and addresses, on both
     *                             transports; 0: no limit ({@link #LOGIN_CHECKS_PER_SECOND})
     */
    public record Limits(int maxConnections, int maxConnectionsPerAddress, Duration handshakeTimeout,
                         Duration idleConnectionTimeout, Duration idleSessionTimeout, Duration loginFailureDelay,
                         Duration loginFailureMaxDelay, int loginChecksPerSecond) {
        public static final String MAX_CONNECTIONS = CoordinatorSettings.ENDPOINT_MAX_CONNECTIONS.name();
        public static final String MAX_CONNECTIONS_PER_ADDRESS = CoordinatorSettings.ENDPOINT_MAX_CONNECTIONS_PER_ADDRESS.name();
        public static final String HANDSHAKE_TIMEOUT = CoordinatorSettings.ENDPOINT_HANDSHAKE_TIMEOUT.name();
        public static final String IDLE_CONNECTION_TIMEOUT = CoordinatorSettings.ENDPOINT_IDLE_CONNECTION_TIMEOUT.name();
        public static final String IDLE_SESSION_TIMEOUT = CoordinatorSettings.ENDPOINT_IDLE_SESSION_TIMEOUT.name();
        public static final String LOGIN_FAILURE_DELAY = CoordinatorSettings.ENDPOINT_LOGIN_FAILURE_DELAY.name();
        public static final String LOGIN_FAILURE_MAX_DELAY = CoordinatorSettings.ENDPOINT_LOGIN_FAILURE_MAX_DELAY.name();
        public static final String LOGIN_CHECKS_PER_SECOND = CoordinatorSettings.ENDPOINT_LOGIN_CHECKS_PER_SECOND.name();
        private static final String PREFIX = "ooo.endpoint.";
        private static final List<Setting<?>> KEYS = CoordinatorSettings.all().stream()
                .filter(s -> s.name().startsWith(PREFIX)).toList();

        /**
         * A coordinator serves a few BI tools' connection pools (tens of connections each) and
         * people; an attacker's idle sockets are cut at 50 per address and after 10 s. 100 password
         * checks a second let every connection of a full endpoint log in again within its longest
         * login delay (an HTTP client's later requests skip the check: {@link RecentLogins}).
         */
        public static final Limits DEFAULTS = new Limits(
                Math.toIntExact(CoordinatorSettings.ENDPOINT_MAX_CONNECTIONS.defaultValue()),
                Math.toIntExact(CoordinatorSettings.ENDPOINT_MAX_CONNECTIONS_PER_ADDRESS.defaultValue()),
                CoordinatorSettings.ENDPOINT_HANDSHAKE_TIMEOUT.defaultValue(),
                CoordinatorSettings.ENDPOINT_IDLE_CONNECTION_TIMEOUT.defaultValue(),
                CoordinatorSettings.ENDPOINT_IDLE_SESSION_TIMEOUT.defaultValue(),
                CoordinatorSettings.ENDPOINT_LOGIN_FAILURE_DELAY.defaultValue(),
                CoordinatorSettings.ENDPOINT_LOGIN_FAILURE_MAX_DELAY.defaultValue(),
                Math.toIntExact(CoordinatorSettings.ENDPOINT_LOGIN_CHECKS_PER_SECOND.defaultValue()));

        public Limits {
            if (maxConnections < 1 || maxConnectionsPerAddress < 1) {
                throw new IllegalArgumentException("connection limits must be positive");
            }
            if (loginChecksPerSecond < 0) {
                throw new IllegalArgumentException("the rate of password checks must not be negative");
            }
            if (positive(handshakeTimeout) == null || positive(loginFailureMaxDelay) == null) {
                throw new IllegalArgumentException("the handshake timeout and the longest login delay must be positive");
            }
            if (idleConnectionTimeout == null || idleConnectionTimeout.isNegative()
                    || idleSessionTimeout == null || idleSessionTimeout.isNegative()
                    || loginFailureDelay == null || loginFailureDelay.isNegative()) {
                throw new IllegalArgumentException("idle timeouts and the login delay must not be negative");
            }
            if (loginFailureDelay.compareTo(loginFailureMaxDelay) > 0) {
                throw new IllegalArgumentException("the login delay " + loginFailureDelay
                        + " is longer than the longest login delay " + loginFailureMaxDelay);
            }
        }

        /** {@code d} as the settings write it: 500ms, 10s, 5m, 1h. */
        static String format(Duration d) {
            return Durations.format(Duration.ofMillis(d.toMillis()));
        }

        private static Duration positive(Duration d) {
            return d != null && !d.isNegative() && !d.isZero() ? d : null;
        }

        /**
         * The {@code ooo.endpoint.*} keys of {@code settings} over {@link #DEFAULTS}; other keys are
         * not ours and are ignored. Counts are integers, durations a number with a unit
         * ({@code ms}, {@code s}, {@code m}, {@code h}), e.g. {@code 10s}; 0 turns an idle timeout off.
         *
         * @throws IllegalArgumentException for an unknown {@code ooo.endpoint.} key or a bad value,
         *                                  naming the key
         */
        public static Limits fromSettings(Map<String, String> settings) {
            Map<String, String> ours = new TreeMap<>();
            settings.forEach((key, value) -> {
                if (key.startsWith(PREFIX)) {
                    if (KEYS.stream().noneMatch(s -> s.names(key))) {
                        throw new IllegalArgumentException("unknown endpoint setting " + key + "; did you mean "
                                + Settings.nearest(key) + "? known: " + String.join(", ", KEYS.stream().map(Setting::name).toList()));
                    }
                    ours.put(key, value.strip());
                }
            });
            try {
                return new Limits(count(ours, CoordinatorSettings.ENDPOINT_MAX_CONNECTIONS),
                        count(ours, CoordinatorSettings.ENDPOINT_MAX_CONNECTIONS_PER_ADDRESS),
                        CoordinatorSettings.ENDPOINT_HANDSHAKE_TIMEOUT.get(ours),
                        CoordinatorSettings.ENDPOINT_IDLE_CONNECTION_TIMEOUT.get(ours),
                        CoordinatorSettings.ENDPOINT_IDLE_SESSION_TIMEOUT.get(ours),
                        CoordinatorSettings.ENDPOINT_LOGIN_FAILURE_DELAY.get(ours),
                        CoordinatorSettings.ENDPOINT_LOGIN_FAILURE_MAX_DELAY.get(ours),
                        count(ours, CoordinatorSettings.ENDPOINT_LOGIN_CHECKS_PER_SECOND));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("endpoint settings " + ours + ": " + e.getMessage(), e);
            }
        }

        /** A count; one past what an int holds is as good as no bound. */
        private static int count(Map<String, String> settings, Setting<Long> setting) {
            return (int) Math.min(setting.get(settings), Integer.MAX_VALUE);
        }
    }
}
