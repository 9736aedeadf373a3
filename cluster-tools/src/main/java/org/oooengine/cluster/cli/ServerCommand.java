package org.oooengine.cluster.cli;

import java.io.PrintWriter;
import java.net.BindException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.apache.logging.log4j.core.config.Configurator;
import org.oooengine.cluster.launch.LocalCluster;
import org.oooengine.cluster.launch.PidFile;
import org.oooengine.core.cluster.GcWatchdog;
import org.oooengine.core.cluster.NodeDaemon;
import org.oooengine.hive.engine.ClusterSqlEngine;
import org.oooengine.hive.security.AdminUsersAccessControl;
import org.oooengine.hive.server.EndpointConfig;
import org.oooengine.hive.server.HiveServer2Endpoint;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code ooo server}: the coordinator, a HiveServer2 endpoint over a running cluster, in the foreground. */
@Command(name = "server", mixinStandardHelpOptions = true,
        description = {"Serve SQL over a running cluster on the HiveServer2 protocol (Hive JDBC driver, beeline, "
                + "ooo sql) until killed.",
                "Without --users-file anyone who can reach the port gets in: keep the default host 127.0.0.1 "
                        + "then. 'ooo cluster start' runs this in the background.",
                "Refuses to run as root unless given --allow-root."})
final class ServerCommand implements Callable<Integer> {
    static final int DEFAULT_PORT = 10000;
    private static final Logger LOG = LogManager.getLogger(ServerCommand.class);

    @Spec
    CommandSpec spec;

    @Mixin
    RootCheck root;

    @Option(names = "--cluster", required = true, paramLabel = "<cluster-dir>", description = "directory of a running cluster")
    Path cluster;

    @Option(names = "--port", defaultValue = "" + DEFAULT_PORT, paramLabel = "P",
            description = "port to listen on; 0 picks a free one (default: ${DEFAULT-VALUE})")
    int port;

    @Option(names = "--host", defaultValue = "127.0.0.1", paramLabel = "<address>",
            description = "address to listen on, e.g. 0.0.0.0 for every interface (default: ${DEFAULT-VALUE})")
    String host;

    @Option(names = {"--users-file", "--password-file"}, paramLabel = "<file>",
            description = "admit only SASL PLAIN clients listed in this file of user:password lines "
                    + "(default: admit everyone, also over noSasl)")
    Path passwordFile;

    @Option(names = "--conf", paramLabel = "<key>=<value>",
            description = "a coordinator setting, over those of <cluster-dir>/" + ClusterSqlEngine.SETTINGS_FILE
                    + ", e.g. --conf ooo.catalog=hms --conf ooo.catalog.hms.uris=thrift://metastore:9083; "
                    + "the endpoint's limits too, e.g. --conf ooo.endpoint.max.connections.per.address=20 "
                    + "(docs/security.md), and the HTTP transport: --conf hive.server2.transport.mode=http "
                    + "[--conf hive.server2.thrift.http.port=10001]; every setting: docs/configuration.md")
    Map<String, String> conf = new LinkedHashMap<>();

    @Override
    public Integer call() throws Exception {
        root.check("ooo server", "the coordinator");
        if (port < 0 || port > 65535) {
            throw new ParameterException(spec.commandLine(), "--port must be in 0..65535, got " + port);
        }
        if (passwordFile != null && !Files.isReadable(passwordFile)) {
            throw new ParameterException(spec.commandLine(), "--users-file " + passwordFile + " is not a readable file");
        }
        Map<String, String> settings = ClusterSqlEngine.settings(cluster, conf);
        EndpointConfig config = (passwordFile == null ? EndpointConfig.unauthenticated(host, port)
                : EndpointConfig.withPasswordFile(host, port, passwordFile))
                .withLimits(endpointLimits(settings))
                .withHttp(httpTransport(settings));
        if (passwordFile != null && settings.getOrDefault(AdminUsersAccessControl.ADMIN_USERS_SETTING, "").isBlank()) {
            LOG.warn("no admin users: every user of {} may read but none may create, drop, insert or load; name them "
                    + "with --conf {}=<user>,...", passwordFile, AdminUsersAccessControl.ADMIN_USERS_SETTING);
        }
        ClusterSqlEngine engine = ClusterSqlEngine.open(cluster, NodeDaemon.DEFAULT_TIMEOUT, conf);
        quietThriftLogins();
        HiveServer2Endpoint endpoint;
        try {
            endpoint = HiveServer2Endpoint.start(engine, config);
        } catch (BindException e) {
            engine.close();
            throw new IllegalArgumentException("cannot listen on " + host + ":" + port + " (" + e.getMessage()
                    + "); pick another port with --port");
        } catch (Exception e) {
            engine.close();
            throw e;
        }
        // A heap so full that collections follow each other with little work between ends this process, as
        // -XX:+ExitOnOutOfMemoryError does on an OutOfMemoryError: its clients' connections drop.
        Path gcReport = cluster.toAbsolutePath().normalize().resolve("run").resolve("coordinator.gc");
        boolean localCluster = Files.isDirectory(gcReport.getParent());
        GcWatchdog.start("the coordinator", localCluster ? gcReport : null, why -> { });
        // In a local cluster's directory: listening, it says so as a node does (its supervisor and
        // 'ooo cluster status' and 'stop' read run/coordinator.pid).
        PidFile pidFile = localCluster ? new PidFile(cluster.toAbsolutePath().normalize(), LocalCluster.COORDINATOR) : null;
        if (pidFile != null) {
            pidFile.write(ProcessHandle.current());
        }
        CountDownLatch stopped = new CountDownLatch(1);
        // Ctrl-C or SIGTERM (ooo cluster stop): drop the clients and the node connections in order.
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            endpoint.close();
            engine.close();
            try {
                Files.deleteIfExists(gcReport);
                if (pidFile != null) {
                    pidFile.deleteIfNames(ProcessHandle.current());
                }
            } catch (java.io.IOException e) {
                // a stale report is ignored once it is old; a stale pid file names a process that ended
            }
            stopped.countDown();
        }, "ooo-server-shutdown"));

        PrintWriter out = spec.commandLine().getOut();
        String url = HiveJdbc.url(host, endpoint.port(), passwordFile != null);
        out.printf("SQL over cluster %s on %s:%d%n", cluster.toAbsolutePath().normalize(), host, endpoint.port());
        out.println(passwordFile == null
                ? "no --users-file: any client that reaches this port gets in, without a password"
                : "clients must log in with a user and password from " + passwordFile);
        out.println("connect with: " + url);
        if (endpoint.httpPort() >= 0) {
            out.println("over HTTP: " + HiveJdbc.httpUrl(host, endpoint.httpPort(), config.http().path(), passwordFile != null));
        }
        out.flush();
        stopped.await();
        return 0;
    }

    /** The endpoint's {@code ooo.endpoint.*} settings; a wrong one is refused before anything starts. */
    private EndpointConfig.Limits endpointLimits(Map<String, String> settings) {
        try {
            return EndpointConfig.Limits.fromSettings(settings);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
    }

    /** The HTTP transport Hive's {@code hive.server2.transport.mode} keys ask for, or null. */
    private EndpointConfig.Http httpTransport(Map<String, String> settings) {
        try {
            return EndpointConfig.Http.fromSettings(settings);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
    }

    /**
     * Thrift logs every failed login as two errors with stack traces; the endpoint already warns in
     * one line who failed. Kept at debug level (OOO_LOG_LEVEL=debug).
     */
    private static void quietThriftLogins() {
        if (!LOG.isDebugEnabled()) {
            Configurator.setLevel("org.apache.thrift.transport.TSaslTransport", Level.OFF);
            Configurator.setLevel("org.apache.thrift.server.TThreadPoolServer", Level.OFF);
        }
    }
}
