package org.oooengine.mapreduce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.oooengine.core.cluster.FileReads;
import org.oooengine.core.cluster.RowFileWriters;
import org.oooengine.core.types.Column;
import org.oooengine.core.types.DataType;
import org.oooengine.core.types.Schema;

/**
 * A node's file writers write into directories that exist and never make one: a statement's
 * staging directory, deleted when the statement ends, does not come back for a run still writing.
 */
class HadoopFileWritersTest {
    private static final Schema SCHEMA = new Schema(List.of(new Column("id", DataType.BIGINT),
            new Column("name", DataType.varchar(0))));

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"text", "orc", "parquet"})
    void aFileIsWrittenInItsDirectoryAndNoDirectoryIsMadeForOne(String format) throws Exception {
        HadoopFileWriters writers = new HadoopFileWriters(new Configuration());
        FileReads.Layout layout = new FileReads.Layout(format, HiveText.FIELD_DELIMITER, HiveText.NULL);
        Path file = dir.resolve("part-0." + format);
        RowFileWriters.RowFileWriter w = writers.create(file.toUri().toString(), layout, SCHEMA);
        List<Object[]> rows = new ArrayList<>();
        for (long i = 0; i < 1000; i++) {
            rows.add(new Object[] {i, i % 3 == 0 ? null : "name " + i});
        }
        w.write(rows);
        long bytes = w.finish();
        assertEquals(Files.size(file), bytes);
        Configuration conf = new Configuration();
        org.apache.hadoop.fs.Path written = new org.apache.hadoop.fs.Path(file.toUri());
        assertEquals(1000, FileRowCounts.rows(written.getFileSystem(conf).getFileStatus(written), format, conf));

        Path gone = dir.resolve(".ooo-staging-1a2b");
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> writers.create(gone.resolve("part-1." + format).toUri().toString(), layout, SCHEMA));
        assertTrue(e.getMessage().contains("its directory is gone"), e.getMessage());
        assertFalse(Files.exists(gone));
    }
}
