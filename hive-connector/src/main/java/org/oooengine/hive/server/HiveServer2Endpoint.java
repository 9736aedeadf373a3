package org.oooengine.hive.server;

import org.oooengine.core.net.ThrottledLog;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hive.service.rpc.thrift.TCLIService;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.server.TThreadPoolServer;
import org.oooengine.hive.sql.SqlEngine;

/**
 * A HiveServer2-compatible endpoint (TCLIService over the binary Thrift transport), so the Hive
 * JDBC driver and beeline can talk to our engine. One thread per client connection; statements
 * run on a separate pool so a client can poll and cancel them. Connections are admitted, timed
 * and throttled by {@link EndpointConfig.Limits}, so idle sockets and password guessers cannot
 * starve other clients.
 */
public final class HiveServer2Endpoint implements AutoCloseable {
    /** Hive's cap on rows per fetch; also keeps a response well below the client's message limit. */
    public static final int MAX_FETCH_ROWS = 10_000;

    private static final Logger LOG = LogManager.getLogger(HiveServer2Endpoint.class);
    private static final long START_TIMEOUT_MILLIS = 10_000;

    private final InetSocketAddress address;
    private final TThreadPoolServer server;
    private final Thread acceptor;
    private final ConnectionEventHandler connections;
    private final SessionRegistry registry;
    private final ExecutorService statements;
    private final ScheduledExecutorService timer;
    private final ConnectionAdmission admission;
    /** The HTTP transport, or null when the endpoint serves the binary one only. */
    private final ThriftHttpServer http;
    private final AtomicBoolean closed = new AtomicBoolean();

    private HiveServer2Endpoint(InetSocketAddress address, TThreadPoolServer server, ConnectionEventHandler connections,
                                SessionRegistry registry, ExecutorService statements, ScheduledExecutorService timer,
                                ConnectionAdmission admission, ThriftHttpServer http) {
        this.address = address;
        this.server = server;
        this.connections = connections;
        this.registry = registry;
        this.statements = statements;
        this.timer = timer;
        this.admission = admission;
        this.http = http;
        this.acceptor = daemonThreads("hs2-acceptor-" + address.getPort()).newThread(server::serve);
    }

    /** Binds the port and starts serving; returns once clients can connect. */
    public static HiveServer2Endpoint start(SqlEngine engine, EndpointConfig config) throws IOException {
        PlainCredentialsHandler.Authenticator authenticator = config.checksPasswords()
                ? PasswordFile.load(config.passwordFile())
                : PlainCredentialsHandler.Authenticator.ANYONE;
        EndpointConfig.Limits limits = config.limits();

        ServerSocket socket = new ServerSocket();
        socket.setReuseAddress(true);
        socket.bind(new InetSocketAddress(config.host(), config.port()), 128);
        InetSocketAddress bound = new InetSocketAddress(config.host(), socket.getLocalPort());

        SessionRegistry registry = new SessionRegistry();
        ExecutorService statements = Executors.newCachedThreadPool(daemonThreads("hs2-statement"));
        ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1, daemonThreads("hs2-timeout"));
        timer.setRemoveOnCancelPolicy(true); // every connection schedules a handshake deadline and cancels it
        ThriftCliService service = new ThriftCliService(engine, registry, statements, timer, config.defaultFetchSize(),
                config.checksPasswords());
        ConnectionEventHandler connections = new ConnectionEventHandler(registry);
        // A connection holds its worker thread for its lifetime (TThreadPoolServer's model). The
        // admission limits bound the connections, so the pool itself never refuses one: a full
        // pool would make the accept loop wait and retry, which is how idle sockets starved
        // everyone.
        ExecutorService workers = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 60, TimeUnit.SECONDS,
                new SynchronousQueue<>(), daemonThreads("hs2-connection"));
        ConnectionRefuser refuser = new ConnectionRefuser(timer);
        ConnectionAdmission admission = new ConnectionAdmission(limits.maxConnections(), limits.maxConnectionsPerAddress());
        AdmittingServerTransport listener = new AdmittingServerTransport(socket, admission, refuser, timer,
                limits.handshakeTimeout());
        // One throttle for both transports: switching to HTTP does not reset a password guesser's delay.
        LoginThrottle throttle = new LoginThrottle(limits.loginFailureDelay(), limits.loginFailureMaxDelay(),
                limits.loginChecksPerSecond());
        AuthenticatingTransportFactory transports = new AuthenticatingTransportFactory(config.allowUnauthenticated(),
                authenticator, throttle, limits.idleConnectionTimeout());
        ConnectionGuardProcessor processor = new ConnectionGuardProcessor(new TCLIService.Processor<>(service),
                limits.idleConnectionTimeout());

        TThreadPoolServer.Args args = new TThreadPoolServer.Args(listener);
        args.processor(processor)
                .transportFactory(transports)
                .protocolFactory(new TBinaryProtocol.Factory(true, true))
                .executorService(workers)
                .stopTimeoutVal(2)
                .stopTimeoutUnit(TimeUnit.SECONDS);
        TThreadPoolServer server = new TThreadPoolServer(args);
        server.setServerEventHandler(connections);
        ThriftHttpServer http = null;
        if (config.http() != null) {
            try {
                http = ThriftHttpServer.start(config.host(), config.http(), new TCLIService.Processor<>(service),
                        new HttpLogins(config.checksPasswords(), config.allowUnauthenticated(), authenticator, throttle),
                        admission, limits, workers);
            } catch (IOException e) {
                socket.close();
                statements.shutdown();
                timer.shutdownNow();
                throw e;
            }
        }
        ThriftHttpServer httpServer = http;

        long logEvery = ThrottledLog.INTERVAL.toMillis();
        timer.scheduleAtFixedRate(() -> {
            listener.flushLog();
            transports.flushLog();
            processor.flushLog();
            if (httpServer != null) {
                httpServer.flushLog();
            }
        }, logEvery, logEvery, TimeUnit.MILLISECONDS);
        if (!limits.idleSessionTimeout().isZero()) {
            IdleSessions idle = new IdleSessions(registry, limits.idleSessionTimeout());
            // Closing an engine session may wait for the nodes: not on the timer, which keeps the deadlines.
            timer.scheduleWithFixedDelay(() -> statements.execute(idle::closeIdle), idle.checkMillis(), idle.checkMillis(),
                    TimeUnit.MILLISECONDS);
        }

        HiveServer2Endpoint endpoint = new HiveServer2Endpoint(bound, server, connections, registry, statements, timer,
                admission, http);
        endpoint.acceptor.start();
        endpoint.awaitServing();
        endpoint.logStarted(config);
        return endpoint;
    }

    private void awaitServing() throws IOException {
        long deadline = System.currentTimeMillis() + START_TIMEOUT_MILLIS;
        while (!server.isServing()) {
            if (!acceptor.isAlive() || System.currentTimeMillis() > deadline) {
                close();
                throw new IOException("HiveServer2 endpoint on " + address + " did not start");
            }
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                close();
                throw new IOException("interrupted while starting the HiveServer2 endpoint", e);
            }
        }
    }

    private void logStarted(EndpointConfig config) {
        if (config.allowUnauthenticated()) {
            LOG.warn("HiveServer2 endpoint on {} accepts unauthenticated clients: {}", address,
                    config.checksPasswords()
                            ? "noSasl connections get in without a password"
                            : "noSasl connections and SASL PLAIN with any user and password get in");
        }
        EndpointConfig.Limits limits = config.limits();
        LOG.info("HiveServer2 endpoint listening on {} (SASL PLAIN{}{}; at most {} connections, {} per address; "
                        + "login within {}; idle connections closed after {}, idle sessions after {})", address,
                config.checksPasswords() ? " checked against " + config.passwordFile() : " unchecked",
                config.allowUnauthenticated() ? ", noSasl allowed" : "", limits.maxConnections(),
                limits.maxConnectionsPerAddress(), EndpointConfig.Limits.format(limits.handshakeTimeout()),
                never(limits.idleConnectionTimeout()), never(limits.idleSessionTimeout()));
        if (config.checksPasswords()) {
            LOG.info("HiveServer2 endpoint on {}: after a wrong password, logins from its address and for its user wait "
                            + "{} doubling up to {}; one check of a user's password at a time; {} checks a second at most",
                    address, EndpointConfig.Limits.format(limits.loginFailureDelay()),
                    EndpointConfig.Limits.format(limits.loginFailureMaxDelay()),
                    limits.loginChecksPerSecond() == 0 ? "no limit of" : String.valueOf(limits.loginChecksPerSecond()));
        }
        if (http != null) {
            LOG.info("HiveServer2 HTTP transport on {}:{}/{} (HTTP Basic logins{}; same limits)", address.getHostString(),
                    http.port(), config.http().path(), config.checksPasswords() ? " checked" : " unchecked");
        }
    }

    private static String never(Duration timeout) {
        return timeout.isZero() ? "never" : EndpointConfig.Limits.format(timeout);
    }

    /** The port clients connect to (the one picked when the config asked for port 0). */
    public int port() {
        return address.getPort();
    }

    /** The port of the HTTP transport; -1 when the endpoint serves the binary transport only. */
    public int httpPort() {
        return http == null ? -1 : http.port();
    }

    public InetSocketAddress address() {
        return address;
    }

    /** Client connections holding a slot now, logged in or still in their handshake. */
    int openConnections() {
        return admission.open();
    }

    /** Stops accepting, drops connected clients and closes all sessions. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        server.stop();
        if (http != null) {
            http.close();
        }
        connections.disconnectAll();
        try {
            acceptor.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        registry.closeAll();
        statements.shutdown();
        timer.shutdownNow();
        LOG.info("HiveServer2 endpoint on {} stopped", address);
    }

    private static ThreadFactory daemonThreads(String prefix) {
        AtomicInteger n = new AtomicInteger();
        return runnable -> {
            Thread thread = new Thread(runnable, prefix + "-" + n.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }
}
