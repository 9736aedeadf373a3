package org.oooengine.metastore;

import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
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
 * A standalone Hive Metastore: Hive's request handler ({@link HMSHandler}) behind a plain Thrift
 * server on {@code metastore.thrift.port}, configured by the {@code metastore-site.xml} on the class
 * path. Its catalog is where {@code javax.jdo.option.ConnectionURL} says; a new embedded Derby
 * database gets its schema from DataNucleus on the first start (the tables of the metastore's JDO
 * model), so no schema script has to run first.
 *
 * <pre>MetastoreServer [-p PORT] [-b BIND-ADDRESS]</pre>
 */
public final class MetastoreServer {
    private MetastoreServer() {
    }

    public static void main(String[] args) throws Exception {
        Configuration conf = MetastoreConf.newMetastoreConf();
        int port = MetastoreConf.getIntVar(conf, MetastoreConf.ConfVars.SERVER_PORT);
        String bind = "0.0.0.0";
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "-p", "--port" -> port = Integer.parseInt(args[++i]);
                case "-b", "--bind" -> bind = args[++i];
                case "-h", "--help" -> {
                    System.out.println("usage: start-metastore [-p PORT] [-b BIND-ADDRESS]");
                    return;
                }
                default -> throw new IllegalArgumentException("unknown argument " + args[i] + "; usage: start-metastore "
                        + "[-p PORT] [-b BIND-ADDRESS]");
            }
        }
        String url = MetastoreConf.getVar(conf, MetastoreConf.ConfVars.CONNECT_URL_KEY);
        boolean newDerby = url.startsWith("jdbc:derby:") && !Files.isDirectory(derbyDirectory(url));
        // The schema comes from the JDO model: created where missing, checked against the model where there.
        MetastoreConf.setBoolVar(conf, MetastoreConf.ConfVars.AUTO_CREATE_ALL, true);
        MetastoreConf.setBoolVar(conf, MetastoreConf.ConfVars.SCHEMA_VERIFICATION, false);
        System.out.printf("Hive Metastore: catalog %s%s, warehouse %s%n", url, newDerby ? " (new: creating its schema)" : "",
                MetastoreConf.getVar(conf, MetastoreConf.ConfVars.WAREHOUSE));

        HMSHandler handler = new HMSHandler("metastore", conf);
        handler.init(); // opens the catalog, creates the schema and the default database on a new one
        IHMSHandler proxy = HMSHandlerProxyFactory.getProxy(conf, handler, false);
        TServerSocket socket = new TServerSocket(new InetSocketAddress(bind, port));
        TServer server = new TThreadPoolServer(new TThreadPoolServer.Args(socket)
                .processor(new ThriftHiveMetastore.Processor<>(proxy))
                .protocolFactory(new TBinaryProtocol.Factory())
                .minWorkerThreads(2).maxWorkerThreads(MetastoreConf.getIntVar(conf,
                        MetastoreConf.ConfVars.SERVER_MAX_THREADS)));
        Runtime.getRuntime().addShutdownHook(new Thread(server::stop, "metastore shutdown"));
        System.out.printf("Hive Metastore (HiveMetaStore Thrift) listening on %s:%d%n", bind, port);
        server.serve();
    }

    /** The database directory of a Derby URL such as {@code jdbc:derby:/var/lib/x/metastore_db;create=true}. */
    static Path derbyDirectory(String url) {
        String rest = url.substring("jdbc:derby:".length());
        int semicolon = rest.indexOf(';');
        return Path.of(semicolon < 0 ? rest : rest.substring(0, semicolon));
    }
}
