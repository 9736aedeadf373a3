package org.oooengine.hive.metastore;

import io.trino.tpch.TpchColumn;
import io.trino.tpch.TpchEntity;
import io.trino.tpch.TpchTable;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hive.metastore.IMetaStoreClient;
import org.apache.hadoop.hive.metastore.api.Database;
import org.apache.hadoop.hive.metastore.api.FieldSchema;
import org.apache.hadoop.hive.metastore.api.Partition;
import org.apache.hadoop.hive.metastore.api.SerDeInfo;
import org.apache.hadoop.hive.metastore.api.StorageDescriptor;
import org.apache.hadoop.hive.metastore.api.Table;
import org.apache.thrift.TException;
import org.oooengine.core.tpch.TpchSchema;
import org.oooengine.core.types.Column;
import org.oooengine.core.types.DataType;
import org.oooengine.core.types.Schema;
import org.oooengine.hive.files.OrcTestFiles;
import org.oooengine.mapreduce.HiveText;

/**
 * Generated TPC-H tables written as files, on any Hadoop file system, and registered in a
 * metastore as Hive's external tables, the way a Hive user's DDL would: text with Hive's and
 * other delimiters, ORC, and orders partitioned by o_orderstatus (one ORC directory per status).
 */
public final class TpchInMetastore {
    static final String LAZY_SIMPLE = "org.apache.hadoop.hive.serde2.lazy.LazySimpleSerDe";
    static final String TEXT_INPUT = "org.apache.hadoop.mapred.TextInputFormat";
    static final String TEXT_OUTPUT = "org.apache.hadoop.hive.ql.io.HiveIgnoreKeyTextOutputFormat";
    static final String ORC_SERDE = "org.apache.hadoop.hive.ql.io.orc.OrcSerde";
    static final String ORC_INPUT = "org.apache.hadoop.hive.ql.io.orc.OrcInputFormat";
    static final String ORC_OUTPUT = "org.apache.hadoop.hive.ql.io.orc.OrcOutputFormat";
    static final String PARQUET_SERDE = "org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe";
    static final String PARQUET_INPUT = "org.apache.hadoop.hive.ql.io.parquet.MapredParquetInputFormat";
    static final String PARQUET_OUTPUT = "org.apache.hadoop.hive.ql.io.parquet.MapredParquetOutputFormat";

    /** Field delimiters of the text tables: Hive's default for most, others where a user might choose them. */
    private static final Map<String, Character> DELIMITERS = Map.of("region", '\t', "partsupp", '|');

    private final IMetaStoreClient client;
    private final String database;
    private final Path dir;
    private final FileSystem fs;

    /** Creates {@code database} and registers tables in it, their files under the local {@code dir}. */
    TpchInMetastore(IMetaStoreClient client, String database, java.nio.file.Path dir) throws IOException, TException {
        this(client, database, new Path(dir.toUri()), new Configuration());
    }

    /** Creates {@code database} and registers tables in it, their files under {@code dir} on its file system. */
    public TpchInMetastore(IMetaStoreClient client, String database, Path dir, Configuration conf)
            throws IOException, TException {
        this.client = client;
        this.database = database;
        this.fs = dir.getFileSystem(conf);
        this.dir = fs.makeQualified(dir);
        fs.mkdirs(this.dir);
        Database db = new Database();
        db.setName(database);
        db.setLocationUri(this.dir.toString());
        db.setParameters(new HashMap<>());
        client.createDatabase(db);
    }

    /** Writes and registers every TPC-H table at {@code scaleFactor}. */
    public void registerAll(double scaleFactor) throws Exception {
        for (TpchTable<?> t : TpchSchema.tables()) {
            register(t, scaleFactor);
        }
    }

    /**
     * Writes and registers {@code table} at {@code scaleFactor}: lineitem as two ORC files, orders
     * partitioned, the others as two text files with their delimiter.
     */
    public <E extends TpchEntity> void register(TpchTable<E> table, double scaleFactor) throws Exception {
        String name = table.getTableName();
        Schema schema = TpchSchema.definition(table).schema();
        List<Object[]> rows = new ArrayList<>();
        List<TpchColumn<E>> columns = table.getColumns();
        for (E e : table.createGenerator(scaleFactor, 1, 1)) {
            rows.add(TpchSchema.row(columns, e));
        }
        Path location = new Path(dir, name);
        switch (name) {
            case "lineitem" -> {
                int half = rows.size() / 2;
                OrcTestFiles.write(new Path(location, "000000_0"), fs.getConf(), schema, rows.subList(0, half));
                OrcTestFiles.write(new Path(location, "000001_0"), fs.getConf(), schema, rows.subList(half, rows.size()));
                createTable(name, fields(schema.columns()), List.of(), orc(location.toString()));
            }
            case "orders" -> registerPartitioned(name, schema, rows, "o_orderstatus");
            default -> {
                char delimiter = DELIMITERS.getOrDefault(name, HiveText.FIELD_DELIMITER);
                int half = rows.size() / 2;
                writeText(new Path(location, "000000_0"), schema, rows.subList(0, half), delimiter);
                writeText(new Path(location, "000001_0"), schema, rows.subList(half, rows.size()), delimiter);
                fs.create(new Path(location, "_SUCCESS")).close();
                createTable(name, fields(schema.columns()), List.of(), text(location.toString(), delimiter));
            }
        }
    }

    /**
     * Has DuckDB write every TPC-H table it holds as Parquet files under this database's directory
     * (on another file system than the local one, through a local directory copied there), small
     * row groups so that a file spans several splits, orders in Hive's partition directories by
     * {@code o_orderstatus}, and registers them as Hive would.
     */
    public void registerParquetWrittenBy(org.oooengine.core.tpch.DuckDbOracle duckDb) throws Exception {
        boolean local = fs instanceof org.apache.hadoop.fs.LocalFileSystem;
        java.nio.file.Path staging = local ? null : java.nio.file.Files.createTempDirectory("ooo-parquet");
        for (TpchTable<?> t : TpchSchema.tables()) {
            String name = t.getTableName();
            Schema schema = TpchSchema.definition(t).schema();
            Path location = new Path(dir, name);
            java.io.File target = local ? new java.io.File(location.toUri()) : staging.resolve(name).toFile();
            boolean partitioned = name.equals("orders");
            if (!partitioned) {
                java.nio.file.Files.createDirectories(target.toPath());
            }
            duckDb.execute(partitioned
                    ? "COPY orders TO '" + target + "' (FORMAT PARQUET, PARTITION_BY (o_orderstatus), ROW_GROUP_SIZE 2048)"
                    : "COPY " + name + " TO '" + target + "/000000_0.parquet' (FORMAT PARQUET, ROW_GROUP_SIZE 2048)");
            if (!local) {
                fs.copyFromLocalFile(true, true, new Path(target.toURI()), location);
            }
            if (partitioned) {
                List<Column> data = new ArrayList<>(schema.columns());
                Column key = data.remove(schema.indexOf("o_orderstatus"));
                createTable(name, fields(data), fields(List.of(key)), parquet(location.toString()));
                for (org.apache.hadoop.fs.FileStatus p : fs.listStatus(location)) {
                    addPartition(name, List.of(p.getPath().getName().substring("o_orderstatus=".length())),
                            parquet(p.getPath().toString()), fields(data));
                }
            } else {
                createTable(name, fields(schema.columns()), List.of(), parquet(location.toString()));
            }
        }
        if (staging != null) {
            java.nio.file.Files.delete(staging);
        }
    }

    /** The table's rows in one ORC directory per value of {@code key}, which the files leave out. */
    private void registerPartitioned(String name, Schema schema, List<Object[]> rows, String key) throws Exception {
        int k = schema.indexOf(key);
        List<Column> data = new ArrayList<>(schema.columns());
        Column keyColumn = data.remove(k);
        Schema dataSchema = new Schema(data);
        Map<Object, List<Object[]>> byKey = new LinkedHashMap<>();
        for (Object[] row : rows) {
            List<Object> values = new ArrayList<>(List.of(row));
            Object value = values.remove(k);
            byKey.computeIfAbsent(value, v -> new ArrayList<>()).add(values.toArray());
        }
        Path location = new Path(dir, name);
        fs.mkdirs(location);
        createTable(name, fields(data), fields(List.of(keyColumn)), orc(location.toString()));
        for (Map.Entry<Object, List<Object[]>> e : byKey.entrySet()) {
            Path partition = new Path(location, key + "=" + e.getKey());
            OrcTestFiles.write(new Path(partition, "000000_0"), fs.getConf(), dataSchema, e.getValue());
            addPartition(name, List.of(String.valueOf(e.getKey())), orc(partition.toString()), fields(data));
        }
    }

    public void createTable(String name, List<FieldSchema> columns, List<FieldSchema> partitionKeys, StorageDescriptor sd)
            throws TException {
        sd.setCols(columns);
        Table t = new Table();
        t.setDbName(database);
        t.setTableName(name);
        t.setOwner("test");
        t.setTableType("EXTERNAL_TABLE");
        t.setParameters(new HashMap<>(Map.of("EXTERNAL", "TRUE")));
        t.setPartitionKeys(partitionKeys);
        t.setSd(sd);
        client.createTable(t);
    }

    /** Registers a partition of table {@code name}: its {@code values}, its files where {@code sd} says. */
    public void addPartition(String name, List<String> values, StorageDescriptor sd, List<FieldSchema> columns)
            throws TException {
        Partition p = new Partition();
        p.setDbName(database);
        p.setTableName(name);
        p.setValues(values);
        p.setSd(sd);
        p.getSd().setCols(columns);
        p.setParameters(new HashMap<>());
        client.add_partition(p);
    }

    /** The directory of table {@code name}'s files, on this database's file system. */
    public Path location(String name) {
        return new Path(dir, name);
    }

    public FileSystem fileSystem() {
        return fs;
    }

    /** Text as Hive's DDL records it: Hive's default delimiter as serialization.format=1 alone, another as the character. */
    public static StorageDescriptor text(String location, char delimiter) {
        String d = String.valueOf(delimiter);
        return storage(location, LAZY_SIMPLE, TEXT_INPUT, TEXT_OUTPUT, delimiter == HiveText.FIELD_DELIMITER
                ? Map.of("serialization.format", "1") : Map.of("field.delim", d, "serialization.format", d));
    }

    public static StorageDescriptor parquet(String location) {
        return storage(location, PARQUET_SERDE, PARQUET_INPUT, PARQUET_OUTPUT, Map.of());
    }

    public static StorageDescriptor orc(String location) {
        return storage(location, ORC_SERDE, ORC_INPUT, ORC_OUTPUT, Map.of());
    }

    static StorageDescriptor storage(String location, String serde, String input, String output, Map<String, String> params) {
        StorageDescriptor sd = new StorageDescriptor();
        sd.setLocation(location);
        sd.setInputFormat(input);
        sd.setOutputFormat(output);
        sd.setSerdeInfo(new SerDeInfo(null, serde, new HashMap<>(params)));
        sd.setBucketCols(new ArrayList<>());
        sd.setSortCols(new ArrayList<>());
        sd.setParameters(new HashMap<>());
        sd.setNumBuckets(-1);
        return sd;
    }

    public static List<FieldSchema> fields(List<Column> columns) {
        return columns.stream().map(c -> new FieldSchema(c.name(), hiveType(c.type()), null)).toList();
    }

    private static String hiveType(DataType type) {
        return type.kind() == org.oooengine.core.types.TypeKind.VARCHAR && type.precision() == 0
                ? "string" : type.toString().toLowerCase(java.util.Locale.ROOT);
    }

    private void writeText(Path file, Schema schema, List<Object[]> rows, char delimiter) throws IOException {
        HiveText text = new HiveText(schema.columns().stream().map(Column::type).toList(), delimiter, HiveText.NULL);
        try (BufferedWriter w = new BufferedWriter(new OutputStreamWriter(fs.create(file), StandardCharsets.UTF_8))) {
            for (Object[] row : rows) {
                w.write(text.format(row));
                w.newLine();
            }
        }
    }
}
