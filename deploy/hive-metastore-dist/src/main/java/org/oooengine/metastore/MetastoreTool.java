package org.oooengine.metastore;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hive.metastore.HiveMetaStoreClient;
import org.apache.hadoop.hive.metastore.IMetaStoreClient;
import org.apache.hadoop.hive.metastore.api.AlreadyExistsException;
import org.apache.hadoop.hive.metastore.api.Database;
import org.apache.hadoop.hive.metastore.api.FieldSchema;
import org.apache.hadoop.hive.metastore.api.SerDeInfo;
import org.apache.hadoop.hive.metastore.api.StorageDescriptor;
import org.apache.hadoop.hive.metastore.api.Table;
import org.apache.hadoop.hive.metastore.conf.MetastoreConf;

/**
 * A small client of a running metastore, for operators and the deployment test: list databases and
 * tables, register files as an external text table (what Hive's {@code CREATE EXTERNAL TABLE ... ROW
 * FORMAT DELIMITED ... LOCATION} records).
 */
public final class MetastoreTool {
    private static final String USAGE = """
            usage: metastore-tool [--uris thrift://host:9083] databases
                   metastore-tool [--uris ...] tables --database DB
                   metastore-tool [--uris ...] create-text-table --database DB --table T --location URI \
            --columns name:type,... [--delimiter CHAR]""";

    private MetastoreTool() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> options = new LinkedHashMap<>();
        String command = null;
        for (int i = 0; i < args.length; i++) {
            if (args[i].startsWith("--") && i + 1 < args.length) {
                options.put(args[i].substring(2), args[++i]);
            } else if (command == null && !args[i].startsWith("-")) {
                command = args[i];
            } else {
                fail("unexpected argument " + args[i]);
            }
        }
        if (command == null) {
            fail("no command");
        }
        Configuration conf = MetastoreConf.newMetastoreConf();
        String uris = options.getOrDefault("uris",
                "thrift://127.0.0.1:" + MetastoreConf.getIntVar(conf, MetastoreConf.ConfVars.SERVER_PORT));
        MetastoreConf.setVar(conf, MetastoreConf.ConfVars.THRIFT_URIS, uris);
        IMetaStoreClient client = new HiveMetaStoreClient(conf);
        try {
            switch (command) {
                case "databases" -> client.getAllDatabases().forEach(System.out::println);
                case "tables" -> client.getAllTables(required(options, "database")).forEach(System.out::println);
                case "create-text-table" -> createTextTable(client, options);
                default -> fail("unknown command " + command);
            }
        } finally {
            client.close();
        }
    }

    private static void createTextTable(IMetaStoreClient client, Map<String, String> options) throws Exception {
        String database = required(options, "database");
        String name = required(options, "table");
        String location = required(options, "location");
        List<FieldSchema> columns = new ArrayList<>();
        for (String column : required(options, "columns").split(",")) {
            String[] nameType = column.trim().split(":", 2);
            if (nameType.length != 2 || nameType[0].isBlank() || nameType[1].isBlank()) {
                fail("--columns takes name:type pairs separated by commas, got '" + column + "'");
            }
            columns.add(new FieldSchema(nameType[0].trim(), nameType[1].trim(), null));
        }
        try {
            Database db = new Database();
            db.setName(database);
            db.setParameters(new HashMap<>());
            client.createDatabase(db);
            System.out.println("created database " + database);
        } catch (AlreadyExistsException e) {
            // there already
        }
        SerDeInfo serde = new SerDeInfo();
        serde.setSerializationLib("org.apache.hadoop.hive.serde2.lazy.LazySimpleSerDe");
        String delimiter = options.getOrDefault("delimiter", "\u0001");
        serde.setParameters(new HashMap<>(Map.of("field.delim", delimiter, "serialization.format", delimiter)));
        StorageDescriptor sd = new StorageDescriptor();
        sd.setCols(columns);
        sd.setLocation(location);
        sd.setInputFormat("org.apache.hadoop.mapred.TextInputFormat");
        sd.setOutputFormat("org.apache.hadoop.hive.ql.io.HiveIgnoreKeyTextOutputFormat");
        sd.setSerdeInfo(serde);
        sd.setParameters(new HashMap<>());
        Table table = new Table();
        table.setDbName(database);
        table.setTableName(name);
        table.setOwner(System.getProperty("user.name"));
        table.setTableType("EXTERNAL_TABLE");
        table.setParameters(new HashMap<>(Map.of("EXTERNAL", "TRUE")));
        table.setPartitionKeys(new ArrayList<>());
        table.setSd(sd);
        try {
            client.createTable(table);
            System.out.println("created table " + database + "." + name + " at " + location);
        } catch (AlreadyExistsException e) {
            System.out.println("table " + database + "." + name + " exists");
        }
    }

    private static String required(Map<String, String> options, String name) {
        String v = options.get(name);
        if (v == null || v.isBlank()) {
            fail("--" + name + " is required");
        }
        return v;
    }

    private static void fail(String message) {
        System.err.println("metastore-tool: " + message);
        System.err.println(USAGE);
        System.exit(2);
    }
}
