package org.oooengine.mapreduce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;
import org.apache.orc.OrcFile;
import org.apache.orc.TypeDescription;
import org.apache.orc.Writer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.oooengine.core.types.DataType;

/**
 * A scan job over a table's files, on the local job runner: text in a table's own delimiter and
 * NULL text (plain, compressed, in a subdirectory) and ORC, each source's rows ending with its
 * partition values, NULL among them; files Hive does not count as data are left out.
 */
class FileScanJobTest {
    private static final List<DataType> FILE_COLUMNS = List.of(DataType.INT, DataType.varchar(0), DataType.decimal(7, 2));
    private static final List<DataType> TYPES = List.of(DataType.INT, DataType.varchar(0), DataType.decimal(7, 2),
            DataType.DATE, DataType.varchar(1));
    private static final int JAN_2 = 19724; // 2024-01-02

    @TempDir
    java.nio.file.Path dir;

    @Test
    void readsEverySourceWithItsLayoutAndPartitionValues() throws Exception {
        java.nio.file.Path text = dir.resolve("orders/day=2024-01-02/kind=A");
        write(text.resolve("000000_0"), "1,one,1.50\n2,,\n");
        writeGzip(text.resolve("000001_0.gz"), "3,three,3.00\n");
        write(text.resolve("HIVE_UNION_SUBDIR_1/000000_0"), "4,four,-4.25\n");
        write(text.resolve("_SUCCESS"), "");
        write(text.resolve(".hidden"), "not rows");
        java.nio.file.Path orc = dir.resolve("orders/day=__HIVE_DEFAULT_PARTITION__/kind=B");
        writeOrc(orc.resolve("000000_0"), List.of(new Object[] {5, "five", 500L}, new Object[] {6, null, null}));

        Path output = new Path(dir.resolve("out").toUri());
        JoinJobs.Run run = JoinJobs.scanFiles(localRunner(), "orders", TYPES, List.of(
                new FileSource(new Path(text.toUri()), FileFormat.TEXT, ',', "", List.of(JAN_2, "A")),
                new FileSource(new Path(orc.toUri()), FileFormat.ORC, HiveText.FIELD_DELIMITER, HiveText.NULL,
                        Arrays.asList(null, "B"))), output);

        assertEquals(6, run.rows());
        List<List<Object>> rows = JobOutput.rows(localRunner(), output).stream().map(Arrays::asList)
                .sorted((a, b) -> Integer.compare((Integer) a.get(0), (Integer) b.get(0))).toList();
        assertEquals(List.of(
                List.of(1, "one", 150L, JAN_2, "A"),
                Arrays.asList(2, null, null, JAN_2, "A"),
                List.of(3, "three", 300L, JAN_2, "A"),
                List.of(4, "four", -425L, JAN_2, "A"),
                Arrays.asList(5, "five", 500L, null, "B"),
                Arrays.asList(6, null, null, null, "B")), rows);
    }

    /** A partitioned table without partitions: a job without splits, no rows. */
    @Test
    void noSourcesNoRows() throws Exception {
        Path output = new Path(dir.resolve("out").toUri());
        assertEquals(0, JoinJobs.scanFiles(localRunner(), "empty", TYPES, List.of(), output).rows());
        assertEquals(List.of(), JobOutput.rows(localRunner(), output));
    }

    @Test
    void aMissingLocationFailsTheJobNamingIt() {
        Path missing = new Path(dir.resolve("no-such-table").toUri());
        IOException e = assertThrows(IOException.class, () -> JoinJobs.scanFiles(localRunner(), "gone", FILE_COLUMNS,
                List.of(new FileSource(missing, FileFormat.TEXT, ',', "", List.of())), new Path(dir.resolve("out").toUri())));
        assertTrue(e.getMessage().contains("job 'scan gone'") && e.getMessage().contains("no-such-table"), e.getMessage());
    }

    private static Configuration localRunner() {
        Configuration conf = JoinJobs.localRunner(new Configuration(), 2);
        conf.set("fs.defaultFS", "file:///");
        return conf;
    }

    private static void write(java.nio.file.Path file, String content) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, content);
    }

    private static void writeGzip(java.nio.file.Path file, String content) throws IOException {
        Files.createDirectories(file.getParent());
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(file))) {
            out.write(content.getBytes(StandardCharsets.UTF_8));
        }
    }

    private static void writeOrc(java.nio.file.Path file, List<Object[]> rows) throws IOException {
        Files.createDirectories(file.getParent());
        TypeDescription schema = OrcRows.schema(List.of("_col0", "_col1", "_col2"), FILE_COLUMNS);
        OrcRows orc = new OrcRows(FILE_COLUMNS);
        try (Writer w = OrcFile.createWriter(new Path(file.toUri()), OrcFile.writerOptions(new Configuration()).setSchema(schema))) {
            VectorizedRowBatch batch = schema.createRowBatch();
            for (Object[] row : rows) {
                orc.write(batch, batch.size++, row);
            }
            w.addRowBatch(batch);
        }
    }
}
