package org.oooengine.mapreduce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.oooengine.core.cluster.FileReads;
import org.oooengine.core.cluster.RowFileWriters;
import org.oooengine.core.types.Column;
import org.oooengine.core.types.DataType;
import org.oooengine.core.types.Schema;

/** Row counts for the optimizer: exact from ORC and Parquet footers, estimated from a text file's first lines. */
class FileRowCountsTest {
    private static final Schema SCHEMA = new Schema(List.of(new Column("id", DataType.BIGINT),
            new Column("name", DataType.varchar(0))));

    @TempDir
    Path dir;
    private final Configuration conf = new Configuration();

    private FileStatus status(Path file) throws Exception {
        org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path(file.toUri());
        return FileSystem.getLocal(conf).getFileStatus(p);
    }

    private Path written(String format, int rows) {
        Path file = dir.resolve(rows + "." + format);
        RowFileWriters.RowFileWriter w = new HadoopFileWriters(conf).create(file.toUri().toString(),
                new FileReads.Layout(format, HiveText.FIELD_DELIMITER, HiveText.NULL), SCHEMA);
        List<Object[]> batch = new ArrayList<>();
        for (long i = 0; i < rows; i++) {
            batch.add(new Object[] {i, i % 7 == 0 ? null : "name " + i});
        }
        w.write(batch);
        w.finish();
        return file;
    }

    @Test
    void orcAndParquetFootersGiveTheRangesOfNumbersAndDates() throws Exception {
        Schema schema = new Schema(List.of(new Column("id", DataType.BIGINT), new Column("name", DataType.varchar(0)),
                new Column("day", DataType.DATE), new Column("price", DataType.decimal(10, 2))));
        for (String format : List.of("orc", "parquet")) {
            Path file = dir.resolve("ranges." + format);
            RowFileWriters.RowFileWriter w = new HadoopFileWriters(conf).create(file.toUri().toString(),
                    new FileReads.Layout(format, HiveText.FIELD_DELIMITER, HiveText.NULL), schema);
            List<Object[]> rows = new ArrayList<>();
            for (long i = 0; i < 5_000; i++) {
                rows.add(new Object[] {i + 10, "n" + i, i % 9 == 0 ? null : (int) (19_000 + i % 365), i * 3 - 700});
            }
            w.write(rows);
            w.finish();
            FileFacts facts = FileFacts.of(status(file), format, conf);
            assertEquals(5_000, facts.rows(), format);
            assertEquals(List.of(new FileFacts.Range("id", 0, FileFacts.Kind.INTEGER, 0, 10, 5_009),
                    new FileFacts.Range("day", 2, FileFacts.Kind.DATE, 0, 19_000, 19_364),
                    new FileFacts.Range("price", 3, FileFacts.Kind.DECIMAL, 2, -700, 14_297)), facts.ranges(), format);
        }
        assertEquals(List.of(), FileFacts.of(status(written("text", 100)), "text", conf).ranges());
    }

    @Test
    void orcAndParquetFootersCountExactly() throws Exception {
        for (String format : List.of("orc", "parquet")) {
            assertEquals(12_345, FileRowCounts.rows(status(written(format, 12_345)), format, conf), format);
        }
    }

    @Test
    void textIsCountedWhenSmallAndEstimatedWhenLarge() throws Exception {
        assertEquals(100, FileRowCounts.rows(status(written("text", 100)), "text", conf));
        long estimate = FileRowCounts.rows(status(written("text", 200_000)), "text", conf);
        assertTrue(Math.abs(estimate - 200_000) < 20_000, "estimated " + estimate);

        Path gz = dir.resolve("small.txt.gz");
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(gz))) {
            out.write("1\n2\n3".getBytes(StandardCharsets.UTF_8));
        }
        assertEquals(3, FileRowCounts.rows(status(gz), "text", conf));
    }
}
