package org.oooengine.hive.metastore;

import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hive.metastore.IMetaStoreClient;
import org.apache.hadoop.hive.metastore.api.FieldSchema;
import org.apache.hadoop.hive.metastore.api.Partition;
import org.apache.hadoop.hive.metastore.api.StorageDescriptor;
import org.apache.hadoop.hive.metastore.api.Table;
import org.apache.hadoop.hive.serde2.AbstractSerDe;
import org.apache.hadoop.hive.serde2.objectinspector.ObjectInspector;
import org.apache.hadoop.hive.serde2.objectinspector.ObjectInspectorUtils;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.mapred.FileInputFormat;
import org.apache.hadoop.mapred.InputFormat;
import org.apache.hadoop.mapred.InputSplit;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.RecordReader;
import org.apache.hadoop.mapred.Reporter;

/**
 * Reads a metastore table as Hive reads it: each partition's location (the table's when it has
 * none) through the input format and SerDe its storage descriptor names — Hive's own classes
 * from hive-exec — rows as standard Java objects, the partition values last, as strings.
 */
final class HiveReaders {
    private HiveReaders() {
    }

    static List<List<Object>> rows(IMetaStoreClient client, String database, String table) throws Exception {
        Table t = client.getTable(database, table);
        List<List<Object>> out = new ArrayList<>();
        if (t.getPartitionKeysSize() == 0) {
            read(t.getSd(), List.of(), out);
            return out;
        }
        for (Partition p : client.listPartitions(database, table, (short) -1)) {
            read(p.getSd(), p.getValues(), out);
        }
        return out;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static void read(StorageDescriptor sd, List<String> partitionValues, List<List<Object>> out) throws Exception {
        JobConf job = new JobConf(new Configuration());
        String names = sd.getCols().stream().map(FieldSchema::getName).collect(Collectors.joining(","));
        String types = sd.getCols().stream().map(FieldSchema::getType).collect(Collectors.joining(":"));
        job.set("columns", names);
        job.set("columns.types", types);
        FileInputFormat.setInputPaths(job, new Path(sd.getLocation()));
        Properties props = new Properties();
        props.setProperty("columns", names);
        props.setProperty("columns.types", types);
        sd.getSerdeInfo().getParameters().forEach(props::setProperty);
        AbstractSerDe serde = (AbstractSerDe) Class.forName(sd.getSerdeInfo().getSerializationLib())
                .getDeclaredConstructor().newInstance();
        serde.initialize(job, props, null);
        ObjectInspector inspector = serde.getObjectInspector();
        InputFormat format = (InputFormat) Class.forName(sd.getInputFormat()).getDeclaredConstructor().newInstance();
        if (format instanceof org.apache.hadoop.mapred.JobConfigurable c) {
            c.configure(job);
        }
        for (InputSplit split : format.getSplits(job, 1)) {
            RecordReader reader = format.getRecordReader(split, job, Reporter.NULL);
            try {
                Object key = reader.createKey();
                Object value = reader.createValue();
                while (reader.next(key, value)) {
                    Object row = serde.deserialize((Writable) value);
                    List<Object> values = new ArrayList<>((List<Object>) ObjectInspectorUtils.copyToStandardJavaObject(row,
                            inspector));
                    values.addAll(partitionValues);
                    out.add(values);
                }
            } finally {
                reader.close();
            }
        }
    }
}
