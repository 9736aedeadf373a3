package org.oooengine.hive.files;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;
import org.apache.orc.OrcFile;
import org.apache.orc.TypeDescription;
import org.apache.orc.Writer;
import org.oooengine.core.types.Column;
import org.oooengine.core.types.DataType;
import org.oooengine.core.types.Schema;
import org.oooengine.mapreduce.OrcRows;

/** Writes rows of stored values as an ORC file, as the engine's export does. */
public final class OrcTestFiles {
    private OrcTestFiles() {
    }

    public static void write(Path file, Schema schema, List<Object[]> rows) throws IOException {
        write(new org.apache.hadoop.fs.Path(file.toUri()), new Configuration(), schema, rows);
    }

    /** Writes the file on whichever file system {@code conf} finds for it; missing directories are created. */
    public static void write(org.apache.hadoop.fs.Path file, Configuration conf, Schema schema, List<Object[]> rows)
            throws IOException {
        List<DataType> types = schema.columns().stream().map(Column::type).toList();
        TypeDescription orcSchema = OrcRows.schema(schema.names(), types);
        OrcRows orc = new OrcRows(types);
        try (Writer w = OrcFile.createWriter(file, OrcFile.writerOptions(conf).setSchema(orcSchema))) {
            VectorizedRowBatch batch = orcSchema.createRowBatch();
            for (Object[] row : rows) {
                orc.write(batch, batch.size++, row);
                if (batch.size == batch.getMaxSize()) {
                    w.addRowBatch(batch);
                    batch.reset();
                }
            }
            if (batch.size > 0) {
                w.addRowBatch(batch);
            }
        }
    }
}
