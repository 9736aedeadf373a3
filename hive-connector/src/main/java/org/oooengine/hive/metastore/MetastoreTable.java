package org.oooengine.hive.metastore;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.hive.metastore.api.FieldSchema;
import org.apache.hadoop.hive.metastore.api.StorageDescriptor;
import org.apache.hadoop.hive.metastore.api.Table;
import org.oooengine.optimizer.catalog.TableInfo;
import org.oooengine.hive.files.FileLayout;
import org.oooengine.optimizer.catalog.ResultColumn;
import org.oooengine.mapreduce.FileFormat;
import org.oooengine.mapreduce.HiveText;
import org.oooengine.core.settings.TableProperties;

/**
 * A metastore table as the engine sees it: its columns (partition keys last, as in Hive), its
 * location as storage, the layout of its files and its Hive properties. A table the engine
 * cannot read (a view, a transactional table, a column type or storage format it does not know)
 * is still listed, without the columns it cannot type, and carries the reason it cannot be queried.
 */
final class MetastoreTable {
    /** Property holding why the table cannot be queried. */
    static final String UNSUPPORTED = TableProperties.HMS_UNSUPPORTED.name();
    /** Property listing the partition keys (comma separated) of a partitioned table. */
    static final String PARTITION_KEYS = TableProperties.FILE_PARTITION_KEYS.name();

    private static final String LAZY_SIMPLE_SERDE = "org.apache.hadoop.hive.serde2.lazy.LazySimpleSerDe";
    private static final String TEXT_INPUT = "org.apache.hadoop.mapred.TextInputFormat";
    private static final String ORC_SERDE = "org.apache.hadoop.hive.ql.io.orc.OrcSerde";
    private static final String ORC_INPUT = "org.apache.hadoop.hive.ql.io.orc.OrcInputFormat";
    private static final String PARQUET_SERDE = "org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe";
    private static final String PARQUET_INPUT = "org.apache.hadoop.hive.ql.io.parquet.MapredParquetInputFormat";
    private static final String TEXT_OUTPUT = "org.apache.hadoop.hive.ql.io.HiveIgnoreKeyTextOutputFormat";
    private static final String ORC_OUTPUT = "org.apache.hadoop.hive.ql.io.orc.OrcOutputFormat";
    private static final String PARQUET_OUTPUT = "org.apache.hadoop.hive.ql.io.parquet.MapredParquetOutputFormat";

    private MetastoreTable() {
    }

    static TableInfo info(Table t) {
        String name = t.getDbName().toLowerCase(Locale.ROOT) + "." + t.getTableName().toLowerCase(Locale.ROOT);
        Map<String, String> tableParameters = t.getParameters() == null ? Map.of() : t.getParameters();
        Map<String, String> properties = new LinkedHashMap<>(tableParameters);
        List<String> problems = new ArrayList<>();
        if (t.getTableType() != null && t.getTableType().endsWith("VIEW")) {
            problems.add("a view (" + t.getTableType().toLowerCase(Locale.ROOT) + "), not supported yet");
        }
        if ("true".equalsIgnoreCase(tableParameters.get("transactional"))) {
            problems.add("a transactional (ACID) table, not supported yet");
        }
        List<ResultColumn> columns = new ArrayList<>();
        StorageDescriptor sd = t.getSd();
        addColumns(sd == null ? List.of() : sd.getCols(), columns, problems);
        List<FieldSchema> keys = t.getPartitionKeys() == null ? List.of() : t.getPartitionKeys();
        addColumns(keys, columns, problems);
        if (!keys.isEmpty()) {
            properties.put(PARTITION_KEYS, String.join(",", keys.stream().map(k -> k.getName().toLowerCase(Locale.ROOT)).toList()));
        }
        if (sd != null) {
            try {
                properties.putAll(layout(sd, tableParameters).properties());
            } catch (IllegalArgumentException e) {
                problems.add(e.getMessage());
            }
        }
        if (!problems.isEmpty()) {
            properties.put(UNSUPPORTED, "table " + name + ": " + String.join("; ", problems));
        }
        String location = sd == null || sd.getLocation() == null ? "" : sd.getLocation();
        return new TableInfo(t.getDbName().toLowerCase(Locale.ROOT), t.getTableName().toLowerCase(Locale.ROOT),
                columns, List.of(), location, properties, tableParameters.getOrDefault("comment", ""));
    }

    /**
     * The metastore's definition of {@code table}, held in files at its storage, as Hive's own
     * {@code CREATE EXTERNAL TABLE} records it: the file columns, then the partition keys; the
     * SerDe, input and output formats of its layout; {@code EXTERNAL=TRUE}, so that dropping it
     * leaves its files.
     */
    static Table definition(TableInfo table) {
        FileLayout layout = FileLayout.fromProperties(table.properties()).orElseThrow(
                () -> new IllegalArgumentException("table " + table.name() + " is not held in files"));
        List<String> keys = partitioned(table) ? List.of(table.properties().get(PARTITION_KEYS).split(",")) : List.of();
        List<FieldSchema> columns = new ArrayList<>();
        List<FieldSchema> partitionKeys = new ArrayList<>();
        for (ResultColumn c : table.columns()) {
            (keys.contains(c.name()) ? partitionKeys : columns).add(new FieldSchema(c.name(), c.type().toString(),
                    c.comment().isEmpty() ? null : c.comment()));
        }
        Map<String, String> serde = new java.util.HashMap<>();
        String lib = switch (layout.format()) {
            case ORC -> ORC_SERDE;
            case PARQUET -> PARQUET_SERDE;
            case TEXT -> {
                // as a code where the character would read as one (a digit, a control character)
                String delimiter = layout.properties().get(FileLayout.FIELD_DELIMITER);
                serde.put(FileLayout.FIELD_DELIMITER, delimiter);
                serde.put("serialization.format", delimiter);
                if (!layout.nullText().equals(HiveText.NULL)) {
                    serde.put(FileLayout.NULL_FORMAT, layout.nullText());
                }
                yield LAZY_SIMPLE_SERDE;
            }
        };
        StorageDescriptor sd = new StorageDescriptor();
        sd.setCols(columns);
        sd.setLocation(table.storage());
        sd.setInputFormat(switch (layout.format()) {
            case ORC -> ORC_INPUT;
            case PARQUET -> PARQUET_INPUT;
            case TEXT -> TEXT_INPUT;
        });
        sd.setOutputFormat(switch (layout.format()) {
            case ORC -> ORC_OUTPUT;
            case PARQUET -> PARQUET_OUTPUT;
            case TEXT -> TEXT_OUTPUT;
        });
        sd.setSerdeInfo(new org.apache.hadoop.hive.metastore.api.SerDeInfo(null, lib, serde));
        sd.setBucketCols(new ArrayList<>());
        sd.setSortCols(new ArrayList<>());
        sd.setParameters(new java.util.HashMap<>());
        sd.setNumBuckets(-1);
        Table t = new Table();
        t.setDbName(table.database());
        t.setTableName(table.name());
        t.setTableType("EXTERNAL_TABLE");
        Map<String, String> parameters = new java.util.HashMap<>();
        // the statement's TBLPROPERTIES, without those of the files' layout, which the SerDe holds
        table.properties().forEach((k, v) -> {
            if (!k.equals(FileLayout.FORMAT) && !k.equals(PARTITION_KEYS) && !k.equals(FileLayout.FIELD_DELIMITER)
                    && !k.equals(FileLayout.NULL_FORMAT)) {
                parameters.put(k, v);
            }
        });
        parameters.put("EXTERNAL", "TRUE");
        if (!table.comment().isEmpty()) {
            parameters.put("comment", table.comment());
        }
        t.setParameters(parameters);
        t.setPartitionKeys(partitionKeys);
        t.setSd(sd);
        return t;
    }

    /** {@code table} with {@code more} properties besides its own. */
    static TableInfo withProperties(TableInfo table, Map<String, String> more) {
        if (more.isEmpty()) {
            return table;
        }
        Map<String, String> properties = new LinkedHashMap<>(table.properties());
        properties.putAll(more);
        return new TableInfo(table.database(), table.name(), table.columns(), table.primaryKey(), table.indexedColumns(),
                table.storage(), properties, table.comment(), table.reliedKey());
    }

    /** Why {@code table} cannot be queried, if it cannot. */
    static Optional<String> unsupported(TableInfo table) {
        return Optional.ofNullable(table.properties().get(UNSUPPORTED));
    }

    static boolean partitioned(TableInfo table) {
        return table.properties().containsKey(PARTITION_KEYS);
    }

    private static void addColumns(List<FieldSchema> fields, List<ResultColumn> columns, List<String> problems) {
        for (FieldSchema f : fields) {
            String column = f.getName().toLowerCase(Locale.ROOT);
            try {
                columns.add(new ResultColumn(column, HiveColumnTypes.sqlType(f.getType()),
                        f.getComment() == null ? "" : f.getComment()));
            } catch (IllegalArgumentException e) {
                problems.add("column " + column + ": " + e.getMessage());
            }
        }
    }

    /**
     * How the files of a table or partition hold rows: ORC, Parquet, or Hive text with the SerDe's field
     * delimiter ({@code field.delim}, else {@code serialization.format}) and NULL text. Other
     * storage formats and text that needs unescaping or skips header lines are refused.
     */
    static FileLayout layout(StorageDescriptor sd, Map<String, String> tableParameters) {
        String serde = sd.getSerdeInfo() == null || sd.getSerdeInfo().getSerializationLib() == null
                ? "" : sd.getSerdeInfo().getSerializationLib();
        String input = sd.getInputFormat() == null ? "" : sd.getInputFormat();
        Map<String, String> p = sd.getSerdeInfo() == null || sd.getSerdeInfo().getParameters() == null
                ? Map.of() : sd.getSerdeInfo().getParameters();
        if (serde.equals(ORC_SERDE) || input.equals(ORC_INPUT)) {
            return FileLayout.ORC;
        }
        if (serde.equals(PARQUET_SERDE) || input.equals(PARQUET_INPUT)) {
            return FileLayout.PARQUET;
        }
        if (!serde.equals(LAZY_SIMPLE_SERDE) || !(input.isEmpty() || input.equals(TEXT_INPUT))) {
            throw new IllegalArgumentException("stored with SerDe " + serde + " and input format " + input
                    + ", not supported yet (text with LazySimpleSerDe, ORC and Parquet are)");
        }
        if (p.containsKey("escape.delim")) {
            throw new IllegalArgumentException("text with escape.delim, not supported yet");
        }
        for (String skip : List.of("skip.header.line.count", "skip.footer.line.count")) {
            String count = tableParameters.get(skip);
            if (count != null && !count.strip().equals("0")) {
                throw new IllegalArgumentException("text with " + skip + "=" + count + ", not supported yet");
            }
        }
        String delimiter = p.getOrDefault(FileLayout.FIELD_DELIMITER, p.get("serialization.format"));
        return new FileLayout(FileFormat.TEXT,
                delimiter == null ? HiveText.FIELD_DELIMITER : FileLayout.delimiter(delimiter),
                p.getOrDefault(FileLayout.NULL_FORMAT, HiveText.NULL));
    }
}
