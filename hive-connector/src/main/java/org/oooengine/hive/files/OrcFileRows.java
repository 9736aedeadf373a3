package org.oooengine.hive.files;

import java.io.IOException;
import java.util.List;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;
import org.apache.orc.OrcFile;
import org.apache.orc.Reader;
import org.apache.orc.RecordReader;
import org.oooengine.core.types.DataType;
import org.oooengine.core.types.Schema;
import org.oooengine.mapreduce.OrcRows;

/** The rows of one ORC file, whose columns must match the table's by position (names may differ, as Hive's _col0 ... do). */
final class OrcFileRows {
    private OrcFileRows() {
    }

    static long read(Path file, Schema schema, Configuration conf, Consumer<Object[]> sink) {
        List<DataType> types = schema.columns().stream().map(c -> c.type()).toList();
        long rows = 0;
        try (Reader reader = OrcFile.createReader(file, OrcFile.readerOptions(conf))) {
            String mismatch = OrcRows.mismatch(reader.getSchema(), types);
            if (mismatch != null) {
                throw new TableFileException(file + " holds ORC schema " + reader.getSchema() + ", the table "
                        + OrcRows.schema(schema.names(), types) + ": " + mismatch);
            }
            OrcRows orc = new OrcRows(types);
            VectorizedRowBatch batch = reader.getSchema().createRowBatch();
            try (RecordReader batches = reader.rows()) {
                while (batches.nextBatch(batch)) {
                    for (int r = 0; r < batch.size; r++) {
                        sink.accept(orc.read(batch, r));
                    }
                    rows += batch.size;
                }
            }
        } catch (IOException e) {
            throw new TableFileException("cannot read ORC file " + file + ": " + e.getMessage(), e);
        }
        return rows;
    }
}
