package org.oooengine.hive.metastore;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hive.metastore.IMetaStoreClient;
import org.apache.hadoop.hive.metastore.RetryingMetaStoreClient;
import org.apache.hadoop.hive.metastore.api.GetTableRequest;
import org.apache.hadoop.hive.metastore.api.NoSuchObjectException;
import org.apache.hadoop.hive.metastore.api.Partition;
import org.apache.hadoop.hive.metastore.api.StorageDescriptor;
import org.apache.hadoop.hive.metastore.api.Table;
import org.apache.hadoop.hive.metastore.api.UnknownDBException;
import org.apache.hadoop.hive.metastore.conf.MetastoreConf;
import org.apache.thrift.TException;
import org.oooengine.hive.catalog.Catalog;
import org.oooengine.optimizer.catalog.TableInfo;
import org.oooengine.hive.files.FileAccess;
import org.oooengine.hive.files.FilePart;
import org.oooengine.hive.files.FileLayout;
import org.oooengine.hive.files.FileTableReader;
import org.oooengine.hive.files.PartitionDirectories;
import org.oooengine.core.sql.SqlException;
import org.oooengine.core.settings.CoordinatorSettings;

/**
 * The databases and tables of a Hive metastore, whose tables INSERT writes (it adds the partitions
 * written), and in which CREATE and DROP make and forget databases and tables held in files
 * (tables are entered as Hive's external tables): tables are read from their files
 * (text, ORC or Parquet, see {@link #tableReader}); a partitioned table is read from all its
 * partitions' locations. Every call asks the metastore, so what Hive changes shows at once.
 */
public final class MetastoreCatalog implements Catalog, AutoCloseable {
    /** Coordinator setting choosing this catalog when it is {@link #CATALOG_NAME}. */
    public static final String CATALOG_SETTING = CoordinatorSettings.CATALOG.name();
    public static final String CATALOG_NAME = "hms";
    /** Coordinator setting: the metastore URIs, as Hive's {@code hive.metastore.uris}. */
    public static final String URIS_SETTING = CoordinatorSettings.CATALOG_HMS_URIS.name();
    /** Prefix of coordinator settings passed, without it, to the metastore client and the file systems. */
    public static final String CONF_PREFIX = CoordinatorSettings.CATALOG_HMS_CONF.name();

    private final String uris;
    private final Configuration conf;
    /** Not thread-safe, so calls take turns on it. */
    private final IMetaStoreClient client;

    private MetastoreCatalog(String uris, Configuration conf, IMetaStoreClient client) {
        this.uris = uris;
        this.conf = conf;
        this.client = client;
    }

    /**
     * Connects to the metastore at {@code uris} ({@code thrift://host:9083}, several comma
     * separated). {@code settings} are Hadoop and metastore client settings (e.g.
     * {@code fs.defaultFS}, {@code metastore.client.socket.timeout}), used for the files too.
     */
    public static MetastoreCatalog connect(String uris, Map<String, String> settings) {
        Configuration conf = MetastoreConf.newMetastoreConf();
        settings.forEach(conf::set);
        MetastoreConf.setVar(conf, MetastoreConf.ConfVars.THRIFT_URIS, uris);
        try {
            return new MetastoreCatalog(uris, conf, RetryingMetaStoreClient.getProxy(conf, false));
        } catch (TException | RuntimeException e) {
            throw new SqlException(SqlException.NODE_FAILURE, "cannot connect to the Hive metastore at " + uris + ": "
                    + e.getMessage(), e);
        }
    }

    /** Connects as the coordinator's settings say ({@link #URIS_SETTING}, {@link #CONF_PREFIX}). */
    public static MetastoreCatalog fromSettings(Map<String, String> settings) {
        String uris = settings.get(URIS_SETTING);
        if (uris == null || uris.isBlank()) {
            throw new IllegalArgumentException(CATALOG_SETTING + "=" + CATALOG_NAME + " needs " + URIS_SETTING
                    + ", e.g. thrift://metastore:9083");
        }
        Map<String, String> conf = new HashMap<>();
        settings.forEach((k, v) -> {
            if (k.startsWith(CONF_PREFIX)) {
                conf.put(k.substring(CONF_PREFIX.length()), v);
            }
        });
        return connect(uris.strip(), conf);
    }

    /** Reads this catalog's tables from their files, those {@code access} allows. */
    public FileTableReader tableReader(FileAccess access) {
        return new FileTableReader(conf, this::parts, access);
    }

    @Override
    public List<String> databases() {
        return ask("list databases", () -> client.getAllDatabases().stream().map(d -> d.toLowerCase(Locale.ROOT)).toList());
    }

    @Override
    public List<TableInfo> tables(String database) {
        return ask("list the tables of " + database, () -> {
            try {
                List<String> names = client.getAllTables(database);
                return client.getTableObjectsByName(database, names).stream().map(MetastoreTable::info).toList();
            } catch (UnknownDBException | NoSuchObjectException e) {
                return List.of();
            }
        });
    }

    /** The table a query names; one it cannot read is refused here, saying why. */
    @Override
    public Optional<TableInfo> table(String database, String name) {
        Optional<TableInfo> table = ask("look up " + database + "." + name, () -> {
            try {
                Table t = client.getTable(new GetTableRequest(database, name));
                return Optional.of(MetastoreTable.withProperties(MetastoreTable.info(t), HiveColumnStatistics.of(client, t)));
            } catch (NoSuchObjectException | UnknownDBException e) {
                return Optional.<TableInfo>empty();
            }
        });
        table.flatMap(MetastoreTable::unsupported).ifPresent(reason -> {
            throw new SqlException(SqlException.NOT_SUPPORTED, reason);
        });
        return table;
    }

    /** INSERT writes a metastore table's files; the statements that would change the catalog are refused before they get here. */
    @Override
    public void checkWritable(String database, String name) {
    }

    /**
     * Enters the partitions of {@code table} in {@code directories} ({@code k1=v1/k2=v2}, relative to
     * its location, where an INSERT wrote them) into the metastore, those it does not list yet, in
     * the table's storage format: Hive and Spark see them at once.
     */
    public void addPartitions(TableInfo table, List<String> directories) {
        if (!MetastoreTable.partitioned(table) || directories.isEmpty()) {
            return;
        }
        ask("add partitions to " + table.database() + "." + table.name(), () -> {
            Table t = client.getTable(new GetTableRequest(table.database(), table.name()));
            int now = (int) (System.currentTimeMillis() / 1000);
            List<Partition> parts = new ArrayList<>();
            for (String dir : directories) {
                StorageDescriptor sd = t.getSd().deepCopy();
                sd.setLocation(t.getSd().getLocation() + "/" + dir);
                parts.add(new Partition(PartitionDirectories.valuesOf(dir), table.database(), table.name(), now, now, sd,
                        new HashMap<>()));
            }
            client.add_partitions(parts, true, false);
            return null;
        });
    }

    /**
     * DROP PARTITION: the partitions whose values equal some spec's, by partition column, dropped
     * from the metastore, which deletes their files where the table is managed (an external
     * table's stay, as in Hive); {@code purge} skips the trash. Returns how many.
     */
    public long dropPartitions(TableInfo table, List<Map<String, String>> specs, boolean ifExists, boolean purge) {
        return ask("drop partitions of " + table.database() + "." + table.name(), () -> {
            Table t = client.getTable(new GetTableRequest(table.database(), table.name()));
            List<String> keys = t.getPartitionKeys().stream().map(k -> k.getName().toLowerCase(java.util.Locale.ROOT)).toList();
            List<Partition> all = client.listPartitions(table.database(), table.name(), (short) -1);
            java.util.Set<List<String>> matched = new java.util.LinkedHashSet<>();
            for (Map<String, String> spec : specs) {
                List<List<String>> matching = all.stream().map(Partition::getValues)
                        .filter(values -> spec.entrySet().stream().allMatch(e -> e.getValue().equals(values.get(keys.indexOf(e.getKey())))))
                        .toList();
                if (matching.isEmpty() && !ifExists) {
                    throw new SqlException(SqlException.UNKNOWN_TABLE, "ALTER TABLE " + table.database() + "." + table.name()
                            + " DROP PARTITION: no partition matches " + spec);
                }
                matched.addAll(matching);
            }
            for (List<String> values : matched) {
                client.dropPartition(table.database(), table.name(), values,
                        org.apache.hadoop.hive.metastore.PartitionDropOptions.instance().deleteData(true).purgeData(purge));
            }
            return (long) matched.size();
        });
    }

    /** CREATE DATABASE: a database at the metastore's default location (its warehouse directory). */
    public void createDatabase(String name, String comment) {
        ask("create database " + name, () -> {
            org.apache.hadoop.hive.metastore.api.Database db = new org.apache.hadoop.hive.metastore.api.Database();
            db.setName(name);
            db.setDescription(comment == null || comment.isEmpty() ? null : comment);
            db.setParameters(new HashMap<>());
            client.createDatabase(db);
            return null;
        });
    }

    /**
     * DROP DATABASE: with {@code cascade} its tables first, one by one (their files as each table's
     * kind says; a metastore's own cascade needs libraries a metastore server may lack).
     */
    public void dropDatabase(String name, boolean cascade) {
        ask("drop database " + name, () -> {
            if (cascade) {
                for (String table : client.getAllTables(name)) {
                    client.dropTable(name, table, true, true);
                }
            }
            client.dropDatabase(name, true, false, false);
            return null;
        });
    }

    /** Whether the metastore has a table {@code database.name}, whether or not the engine can read it. */
    public boolean exists(String database, String name) {
        return ask("look up " + database + "." + name, () -> {
            try {
                return client.tableExists(database, name);
            } catch (UnknownDBException e) {
                return false;
            }
        });
    }

    /** Enters {@code table}, held in files at its storage, as an external table ({@link MetastoreTable#definition}). */
    public void createTable(TableInfo table) {
        ask("create table " + table.database() + "." + table.name(), () -> {
            Table t = MetastoreTable.definition(table);
            t.setOwner(System.getProperty("user.name"));
            client.createTable(t);
            return null;
        });
    }

    /**
     * DROP TABLE: the metastore forgets the table, and deletes its files only where Hive would
     * (a managed table, or an external one marked {@code external.table.purge}).
     */
    public void dropTable(String database, String name) {
        ask("drop table " + database + "." + name, () -> {
            client.dropTable(database, name, true, false);
            return null;
        });
    }

    /** Keeps {@code statistics} in the table's parameters, where Hive and Spark see them beside their own. */
    @Override
    public void recordStatistics(String database, String name, Map<String, String> statistics) {
        ask("keep the statistics of " + database + "." + name, () -> {
            Table t = client.getTable(new GetTableRequest(database, name));
            t.getParameters().putAll(statistics);
            client.alter_table(database, name, t);
            return null;
        });
    }

    /** Where a table's rows are: its location, or each of its partitions' locations. */
    private List<FilePart> parts(TableInfo table) {
        MetastoreTable.unsupported(table).ifPresent(reason -> {
            throw new SqlException(SqlException.NOT_SUPPORTED, reason);
        });
        if (!MetastoreTable.partitioned(table)) {
            return List.of(FilePart.whole(table.storage(), FileLayout.fromProperties(table.properties()).orElseThrow()));
        }
        Map<String, String> tableParameters = table.properties();
        return ask("list the partitions of " + table.database() + "." + table.name(), () -> {
            List<FilePart> parts = new ArrayList<>();
            for (Partition p : client.listPartitions(table.database(), table.name(), (short) -1)) {
                try {
                    parts.add(new FilePart(p.getSd().getLocation(), MetastoreTable.layout(p.getSd(), tableParameters),
                            PartitionDirectories.values(table, p.getValues())));
                } catch (IllegalArgumentException e) {
                    throw new SqlException(SqlException.NOT_SUPPORTED, "table " + table.database() + "." + table.name()
                            + ", partition " + p.getValues() + ": " + e.getMessage(), e);
                }
            }
            return parts;
        });
    }

    private interface MetastoreCall<T> {
        T call() throws TException;
    }

    private <T> T ask(String what, MetastoreCall<T> call) {
        synchronized (client) {
            try {
                return call.call();
            } catch (org.apache.hadoop.hive.metastore.api.AlreadyExistsException e) {
                throw new SqlException(SqlException.ALREADY_EXISTS, "Hive metastore: cannot " + what + ": " + e.getMessage(), e);
            } catch (NoSuchObjectException | UnknownDBException e) {
                throw new SqlException(SqlException.UNKNOWN_TABLE, "Hive metastore: cannot " + what + ": " + e.getMessage(), e);
            } catch (org.apache.hadoop.hive.metastore.api.InvalidOperationException e) {
                throw new SqlException(SqlException.GENERAL, "Hive metastore: cannot " + what + ": " + e.getMessage(), e);
            } catch (TException e) {
                throw new SqlException(SqlException.NODE_FAILURE, "Hive metastore at " + uris + ": cannot " + what
                        + ": " + e.getMessage(), e);
            }
        }
    }

    @Override
    public void close() {
        synchronized (client) {
            client.close();
        }
    }
}
