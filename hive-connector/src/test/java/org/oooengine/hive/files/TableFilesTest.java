package org.oooengine.hive.files;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPOutputStream;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.oooengine.core.types.Column;
import org.oooengine.core.types.DataType;
import org.oooengine.core.types.Schema;
import org.oooengine.optimizer.catalog.TableInfo;
import org.oooengine.hive.sql.Cancellation;
import org.oooengine.optimizer.catalog.ResultColumn;
import org.oooengine.core.sql.SqlException;
import org.oooengine.core.sql.SqlType;
import org.oooengine.mapreduce.FileFormat;
import org.oooengine.mapreduce.HiveText;

/** Tables held in files: directories as Hive lays them out, both formats, and errors that say where. */
class TableFilesTest {
    private static final Schema SCHEMA = new Schema(List.of(new Column("k", DataType.BIGINT),
            new Column("price", DataType.decimal(15, 2)), new Column("day", DataType.DATE),
            new Column("name", DataType.varchar(25))));
    private static final Object[] ROW_1 = {1L, 1050L, 9000, "one"};
    private static final Object[] ROW_2 = {2L, null, 9001, "two"};
    private static final Object[] ROW_3 = {3L, -7L, null, null};

    @TempDir
    Path dir;

    private final Configuration conf = new Configuration();

    @Test
    void aDirectoryIsReadFileByFileSkippingWhatHiveSkips() throws IOException {
        HiveText text = new HiveText(SCHEMA.columns().stream().map(Column::type).toList());
        Files.writeString(dir.resolve("000000_0"), text.format(ROW_1) + "\n" + text.format(ROW_2) + "\n");
        Files.createDirectories(dir.resolve("sub"));
        Files.writeString(dir.resolve("sub/000001_0"), text.format(ROW_3) + "\n");
        Files.writeString(dir.resolve("_SUCCESS"), "not rows");
        Files.writeString(dir.resolve(".000000_0.crc"), "not rows");

        List<Object[]> rows = new ArrayList<>();
        assertEquals(3, TableFiles.read(dir.toString(), FileFormat.TEXT, SCHEMA, conf, rows::add));
        assertRows(List.<Object[]>of(ROW_1, ROW_2, ROW_3), rows);

        rows.clear();
        TableFiles.read(dir.resolve("sub/000001_0").toUri().toString(), FileFormat.TEXT, SCHEMA, conf, rows::add);
        assertRows(List.<Object[]>of(ROW_3), rows);
    }

    @Test
    void compressedTextIsReadThroughItsCodec() throws IOException {
        HiveText text = new HiveText(SCHEMA.columns().stream().map(Column::type).toList());
        Path file = dir.resolve("000000_0.gz");
        try (Writer w = new OutputStreamWriter(new GZIPOutputStream(Files.newOutputStream(file)), StandardCharsets.UTF_8)) {
            w.write(text.format(ROW_1) + "\n" + text.format(ROW_3) + "\n");
        }
        List<Object[]> rows = new ArrayList<>();
        TableFiles.read(file.toString(), FileFormat.TEXT, SCHEMA, conf, rows::add);
        assertRows(List.<Object[]>of(ROW_1, ROW_3), rows);
    }

    @Test
    void aBadLineNamesItsFileAndLineNumber() throws IOException {
        Path file = dir.resolve("data.txt");
        Files.writeString(file, "1\u00011.00\u00011994-01-01\u0001a\n2\u0001oops\u00011994-01-01\u0001b\n");
        TableFileException e = assertThrows(TableFileException.class,
                () -> TableFiles.read(file.toString(), FileFormat.TEXT, SCHEMA, conf, row -> { }));
        assertTrue(e.getMessage().contains("data.txt, line 2, field 2: 'oops' is not a DECIMAL(15,2) value"),
                e.getMessage());
    }

    @Test
    void aMissingLocationIsNamed() {
        TableFileException e = assertThrows(TableFileException.class,
                () -> TableFiles.read(dir.resolve("nothing").toString(), FileFormat.ORC, SCHEMA, conf, row -> { }));
        assertTrue(e.getMessage().startsWith("no file or directory "), e.getMessage());
    }

    @Test
    void orcFilesReadBackAndAnotherSchemaIsNamedWithBoth() throws IOException {
        OrcTestFiles.write(dir.resolve("t/part-0.orc"), SCHEMA, List.<Object[]>of(ROW_1, ROW_2));
        OrcTestFiles.write(dir.resolve("t/part-1.orc"), SCHEMA, List.<Object[]>of(ROW_3));
        List<Object[]> rows = new ArrayList<>();
        assertEquals(3, TableFiles.read(dir.resolve("t").toString(), FileFormat.ORC, SCHEMA, conf, rows::add));
        assertRows(List.<Object[]>of(ROW_1, ROW_2, ROW_3), rows);

        Schema other = new Schema(List.of(new Column("k", DataType.BIGINT), new Column("name", DataType.varchar(25))));
        OrcTestFiles.write(dir.resolve("o/part-0.orc"), other, List.of());
        TableFileException e = assertThrows(TableFileException.class,
                () -> TableFiles.read(dir.resolve("o").toString(), FileFormat.ORC, SCHEMA, conf, row -> { }));
        assertTrue(e.getMessage().contains("part-0.orc holds ORC schema struct<k:bigint,name:varchar(25)>, the table "
                + "struct<k:bigint,price:decimal(15,2),day:date,name:varchar(25)>"), e.getMessage());
    }

    @Test
    void theFileReaderGivesSqlValuesAndPartitionValues() throws IOException {
        FileLayout csv = new FileLayout(FileFormat.TEXT, ',', "");
        Files.writeString(dir.resolve("p.csv"), "1,10.50,1994-08-23,one\n2,,1994-08-24,\n");
        List<ResultColumn> columns = List.of(new ResultColumn("k", SqlType.BIGINT),
                new ResultColumn("price", SqlType.decimal(15, 2)), new ResultColumn("day", SqlType.DATE),
                new ResultColumn("name", SqlType.varchar(25)), new ResultColumn("region", SqlType.STRING));
        TableInfo table = new TableInfo("db", "t", columns, List.of(), dir.toString(), csv.properties(), "");
        assertEquals(csv, FileLayout.fromProperties(table.properties()).orElseThrow());

        FileTableReader reader = new FileTableReader(conf,
                t -> List.of(new FilePart(dir.resolve("p.csv").toString(), csv, List.of("asia"))), FileAccess.ANY);
        BitSet all = new BitSet();
        all.set(0, columns.size());
        List<Object[]> rows = new ArrayList<>();
        reader.scan(table, all, new Cancellation(), rows::add);
        assertRows(List.of(new Object[] {1L, new BigDecimal("10.50"), LocalDate.of(1994, 8, 23), "one", "asia"},
                new Object[] {2L, null, LocalDate.of(1994, 8, 24), null, "asia"}), rows);
    }

    @Test
    void aBadFileIsAnSqlErrorNamingTheTable() throws IOException {
        Files.writeString(dir.resolve("bad"), "x\n");
        TableInfo table = new TableInfo("db", "t", List.of(new ResultColumn("k", SqlType.INT)), List.of(),
                dir.toString(), FileLayout.TEXT.properties(), "");
        BitSet all = new BitSet();
        all.set(0);
        SqlException e = assertThrows(SqlException.class,
                () -> new FileTableReader(conf).scan(table, all, new Cancellation(), row -> { }));
        assertTrue(e.getMessage().startsWith("table db.t: ") && e.getMessage().contains("bad, line 1"), e.getMessage());
    }

    @Test
    void delimitersReadAsHiveReadsThem() {
        assertEquals('\001', FileLayout.delimiter("1"));
        assertEquals('\t', FileLayout.delimiter("9"));
        assertEquals(',', FileLayout.delimiter(","));
        assertEquals(',', FileLayout.delimiter("44"));
        assertEquals(Map.of(FileLayout.FORMAT, "text", FileLayout.FIELD_DELIMITER, "1", FileLayout.NULL_FORMAT, "\\N"),
                FileLayout.TEXT.properties());
    }

    private static void assertRows(List<Object[]> expected, List<Object[]> actual) {
        assertEquals(expected.size(), actual.size());
        for (int i = 0; i < expected.size(); i++) {
            assertArrayEquals(expected.get(i), actual.get(i), "row " + i);
        }
    }
}
