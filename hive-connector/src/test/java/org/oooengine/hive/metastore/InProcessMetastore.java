package org.oooengine.hive.metastore;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hive.metastore.HMSHandler;
import org.apache.hadoop.hive.metastore.HMSHandlerProxyFactory;
import org.apache.hadoop.hive.metastore.IHMSHandler;
import org.apache.hadoop.hive.metastore.api.ThriftHiveMetastore;
import org.apache.hadoop.hive.metastore.conf.MetastoreConf;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.server.TServer;
import org.apache.thrift.server.TThreadPoolServer;
import org.apache.thrift.transport.TServerSocket;

/**
 * A Hive 4.1 metastore serving Thrift on a loopback port, its catalog in an embedded Derby
 * database under {@code dir}: Hive's own request handler, behind a plain Thrift server rather
 * than HiveMetaStore's, which also starts HTTP endpoints and background services a test does not need.
 */
public final class InProcessMetastore implements AutoCloseable {
    private static InProcessMetastore shared;

    private final TServer server;
    private final TServerSocket socket;
    private final Thread serving;

    /**
     * The one metastore of this JVM, for test classes that share it (each with databases of its
     * own): Hive's object store keeps its database connection in static state, so a second
     * metastore in the same JVM would not start. It stops, and its files go, when the JVM exits.
     */
    public static synchronized InProcessMetastore shared() throws Exception {
        if (shared == null) {
            Path dir = Files.createTempDirectory("ooo-metastore");
            shared = new InProcessMetastore(dir);
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                shared.close();
                try (var files = Files.walk(dir)) {
                    files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
                } catch (java.io.IOException e) {
                    // a temporary directory left behind
                }
            }));
        }
        return shared;
    }

    public InProcessMetastore(Path dir) throws Exception {
        this(dir, Map.of());
    }

    /** @param settings Hadoop and metastore settings on top, e.g. {@code fs.defaultFS} for the file system its tables are on */
    public InProcessMetastore(Path dir, Map<String, String> settings) throws Exception {
        Files.createDirectories(dir);
        System.setProperty("derby.stream.error.file", dir.resolve("derby.log").toString());
        Configuration conf = MetastoreConf.newMetastoreConf();
        settings.forEach(conf::set);
        MetastoreConf.setVar(conf, MetastoreConf.ConfVars.CONNECT_URL_KEY,
                "jdbc:derby:" + dir.resolve("metastore_db") + ";create=true");
        // a new database: let DataNucleus create the schema rather than Hive's schema tool
        MetastoreConf.setBoolVar(conf, MetastoreConf.ConfVars.AUTO_CREATE_ALL, true);
        MetastoreConf.setBoolVar(conf, MetastoreConf.ConfVars.SCHEMA_VERIFICATION, false);
        MetastoreConf.setVar(conf, MetastoreConf.ConfVars.WAREHOUSE, dir.resolve("warehouse").toUri().toString());
        MetastoreConf.setVar(conf, MetastoreConf.ConfVars.WAREHOUSE_EXTERNAL, dir.resolve("external").toUri().toString());
        HMSHandler handler = new HMSHandler("in-process metastore", conf);
        handler.init();
        IHMSHandler proxy = HMSHandlerProxyFactory.getProxy(conf, handler, false);
        socket = new TServerSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        server = new TThreadPoolServer(new TThreadPoolServer.Args(socket)
                .processor(new ThriftHiveMetastore.Processor<>(proxy))
                .protocolFactory(new TBinaryProtocol.Factory())
                .minWorkerThreads(1).maxWorkerThreads(8));
        serving = new Thread(server::serve, "in-process metastore");
        serving.setDaemon(true);
        serving.start();
    }

    public String uris() {
        return "thrift://127.0.0.1:" + socket.getServerSocket().getLocalPort();
    }

    @Override
    public void close() {
        server.stop();
        try {
            serving.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
