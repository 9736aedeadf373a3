package org.oooengine.hive.metastore;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Timestamp;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hive.ql.exec.vector.DoubleColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.TimestampColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;
import org.apache.hadoop.hive.metastore.api.FieldSchema;
import org.apache.orc.OrcFile;
import org.apache.orc.TypeDescription;
import org.apache.orc.Writer;

/**
 * Two tables of Hive's narrower primitive types with the same three rows: one in text, one in ORC
 * written with ORC's own tinyint, smallint and float columns, as Hive writes them.
 */
final class HiveTypedFiles {
    private static final List<FieldSchema> COLUMNS = List.of(new FieldSchema("id", "tinyint", null),
            new FieldSchema("small", "smallint", null), new FieldSchema("f", "float", null),
            new FieldSchema("flag", "boolean", null), new FieldSchema("ts", "timestamp", null));
    private static final String[] TEXT = {
        "-128,-32768,1.5,true,1970-01-01 00:00:00",
        "7,300,-2.25,false,2024-02-29 23:59:59.5",
        "127,32767,\\N,\\N,\\N"};
    /** The query's rows: id, small, f, flag, ts as text, year(ts), id + 1, f * 2. */
    static final List<String> EXPECTED = List.of(
            "[-128, -32768, 1.5, true, 1970-01-01 00:00:00, 1970, -127, 3.0]",
            "[7, 300, -2.25, false, 2024-02-29 23:59:59.5, 2024, 8, -4.5]",
            "[127, 32767, null, null, null, null, 128, null]");

    private HiveTypedFiles() {
    }

    static void register(TpchInMetastore metastore, Path tables) throws Exception {
        Path text = Files.createDirectories(tables.resolve("readings_text"));
        try (BufferedWriter w = Files.newBufferedWriter(text.resolve("000000_0"), StandardCharsets.UTF_8)) {
            for (String line : TEXT) {
                w.write(line);
                w.newLine();
            }
        }
        metastore.createTable("readings_text", COLUMNS, List.of(), TpchInMetastore.text(text.toUri().toString(), ','));
        Path orc = Files.createDirectories(tables.resolve("readings_orc"));
        writeOrc(new org.apache.hadoop.fs.Path(orc.resolve("000000_0").toUri()));
        metastore.createTable("readings_orc", COLUMNS, List.of(), TpchInMetastore.orc(orc.toUri().toString()));
    }

    private static void writeOrc(org.apache.hadoop.fs.Path file) throws IOException {
        TypeDescription schema = TypeDescription.fromString("struct<id:tinyint,small:smallint,f:float,flag:boolean,ts:timestamp>");
        try (Writer w = OrcFile.createWriter(file, OrcFile.writerOptions(new Configuration()).setSchema(schema))) {
            VectorizedRowBatch batch = schema.createRowBatch();
            row(batch, -128, -32768, 1.5, true, "1970-01-01 00:00:00");
            row(batch, 7, 300, -2.25, false, "2024-02-29 23:59:59.5");
            row(batch, 127, 32767, null, null, null);
            w.addRowBatch(batch);
        }
    }

    private static void row(VectorizedRowBatch batch, int id, int small, Double f, Boolean flag, String ts) {
        int r = batch.size++;
        ((LongColumnVector) batch.cols[0]).vector[r] = id;
        ((LongColumnVector) batch.cols[1]).vector[r] = small;
        if (f == null) {
            setNull(batch, 2, r);
        } else {
            ((DoubleColumnVector) batch.cols[2]).vector[r] = f;
        }
        if (flag == null) {
            setNull(batch, 3, r);
        } else {
            ((LongColumnVector) batch.cols[3]).vector[r] = flag ? 1 : 0;
        }
        if (ts == null) {
            setNull(batch, 4, r);
        } else {
            ((TimestampColumnVector) batch.cols[4]).set(r, Timestamp.valueOf(ts));
        }
    }

    private static void setNull(VectorizedRowBatch batch, int column, int row) {
        batch.cols[column].noNulls = false;
        batch.cols[column].isNull[row] = true;
    }
}
