package org.oooengine.hive.metastore;

import java.io.IOException;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hive.common.type.Date;
import org.apache.hadoop.hive.common.type.HiveChar;
import org.apache.hadoop.hive.common.type.HiveDecimal;
import org.apache.hadoop.hive.common.type.HiveVarchar;
import org.apache.hadoop.hive.metastore.api.FieldSchema;
import org.apache.hadoop.hive.ql.exec.FileSinkOperator;
import org.apache.hadoop.hive.ql.io.orc.OrcOutputFormat;
import org.apache.hadoop.hive.ql.io.orc.OrcSerde;
import org.apache.hadoop.hive.serde2.objectinspector.ObjectInspector;
import org.apache.hadoop.hive.serde2.objectinspector.ObjectInspectorFactory;
import org.apache.hadoop.hive.serde2.objectinspector.primitive.PrimitiveObjectInspectorFactory;
import org.apache.hadoop.hive.serde2.typeinfo.BaseCharTypeInfo;
import org.apache.hadoop.hive.serde2.typeinfo.PrimitiveTypeInfo;
import org.apache.hadoop.hive.serde2.typeinfo.TypeInfoUtils;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.Reporter;

/**
 * Writes an ORC file as a Hive INSERT does: Hive's own {@link OrcSerde} and {@link OrcOutputFormat}
 * from hive-exec, over standard Java objects typed by the metastore's column types. A warehouse
 * written so was not written by the engine's own ORC code.
 */
public final class HiveOrcWriter {
    private HiveOrcWriter() {
    }

    /**
     * Writes {@code rows} (JDBC values: numbers, {@link BigDecimal}s, strings, dates) as the ORC
     * file {@code file}, on whichever file system {@code conf} finds for it.
     */
    public static void write(Path file, Configuration conf, List<FieldSchema> columns, List<Object[]> rows)
            throws IOException {
        String names = columns.stream().map(FieldSchema::getName).collect(Collectors.joining(","));
        String types = columns.stream().map(FieldSchema::getType).collect(Collectors.joining(":"));
        Properties props = new Properties();
        props.setProperty("columns", names);
        props.setProperty("columns.types", types);
        JobConf job = new JobConf(conf);
        OrcSerde serde = new OrcSerde();
        try {
            serde.initialize(job, props, null);
        } catch (org.apache.hadoop.hive.serde2.SerDeException e) {
            throw new IOException(e);
        }
        List<PrimitiveTypeInfo> typeInfos = columns.stream()
                .map(c -> (PrimitiveTypeInfo) TypeInfoUtils.getTypeInfoFromTypeString(c.getType())).toList();
        List<ObjectInspector> inspectors = typeInfos.stream()
                .map(t -> (ObjectInspector) PrimitiveObjectInspectorFactory.getPrimitiveJavaObjectInspector(t)).toList();
        ObjectInspector row = ObjectInspectorFactory.getStandardStructObjectInspector(
                columns.stream().map(FieldSchema::getName).toList(), inspectors);
        FileSinkOperator.RecordWriter writer = new OrcOutputFormat().getHiveRecordWriter(job, file, Text.class, false,
                props, Reporter.NULL);
        boolean failed = true;
        try {
            for (Object[] values : rows) {
                List<Object> hive = new ArrayList<>(values.length);
                for (int c = 0; c < values.length; c++) {
                    hive.add(hiveValue(values[c], typeInfos.get(c)));
                }
                writer.write(serde.serialize(hive, row));
            }
            failed = false;
        } finally {
            writer.close(failed);
        }
    }

    private static Object hiveValue(Object v, PrimitiveTypeInfo type) {
        if (v == null) {
            return null;
        }
        return switch (type.getPrimitiveCategory()) {
            case INT -> ((Number) v).intValue();
            case LONG -> ((Number) v).longValue();
            case SHORT -> ((Number) v).shortValue();
            case BYTE -> ((Number) v).byteValue();
            case DOUBLE -> ((Number) v).doubleValue();
            case FLOAT -> ((Number) v).floatValue();
            case DECIMAL -> HiveDecimal.create(v instanceof BigDecimal d ? d : new BigDecimal(v.toString()));
            case STRING -> v.toString();
            case VARCHAR -> new HiveVarchar(v.toString(), ((BaseCharTypeInfo) type).getLength());
            case CHAR -> new HiveChar(v.toString(), ((BaseCharTypeInfo) type).getLength());
            case DATE -> Date.ofEpochDay((int) (v instanceof java.sql.Date d ? d.toLocalDate() : (LocalDate) v).toEpochDay());
            case BOOLEAN -> (Boolean) v;
            default -> throw new IllegalArgumentException("no Hive value for " + type + ": "
                    + Arrays.toString(new Object[] {v}));
        };
    }
}
