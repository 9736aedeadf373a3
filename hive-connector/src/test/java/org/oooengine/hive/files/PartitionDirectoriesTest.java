package org.oooengine.hive.files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.oooengine.core.sql.SqlException;
import org.oooengine.core.sql.SqlType;
import org.oooengine.optimizer.catalog.ResultColumn;
import org.oooengine.optimizer.catalog.TableInfo;

/** Partitions found as Hive lays them out: key=value directories in key order, escapes undone, NULL's directory. */
class PartitionDirectoriesTest {
    @TempDir
    Path dir;

    private TableInfo table(String keys) {
        Map<String, String> properties = new java.util.LinkedHashMap<>(FileLayout.TEXT.properties());
        properties.put(FileLayout.PARTITION_KEYS, keys);
        return new TableInfo("db", "t", List.of(new ResultColumn("v", SqlType.INT), new ResultColumn("day", SqlType.DATE),
                new ResultColumn("tag", SqlType.STRING)), List.of(), dir.toUri().toString(), properties, "");
    }

    @Test
    void partitionsAreTheKeyDirectoriesWithTheirValues() throws Exception {
        Files.createDirectories(dir.resolve("day=2024-01-02/tag=a%3Db"));
        Files.createDirectories(dir.resolve("day=2024-01-01/tag=__HIVE_DEFAULT_PARTITION__"));
        Files.createDirectories(dir.resolve("day=2024-01-01/not-a-partition"));
        Files.createDirectories(dir.resolve("_temporary/day=2024-01-03"));
        Files.writeString(dir.resolve("day=2024-01-02/stray.txt"), "a file above the last key is no partition\n");
        List<FilePart> parts = PartitionDirectories.parts(table("day,tag"), new Configuration());
        assertEquals(List.of(Arrays.asList(LocalDate.of(2024, 1, 1), null), List.of(LocalDate.of(2024, 1, 2), "a=b")),
                parts.stream().map(FilePart::partitionValues).toList());
        assertEquals(2, PartitionDirectories.keys(table("day,tag")).size());
    }

    @Test
    void aValueItsColumnCannotReadIsNamed() throws Exception {
        Files.createDirectories(dir.resolve("day=yesterday/tag=x"));
        SqlException e = assertThrows(SqlException.class,
                () -> PartitionDirectories.parts(table("day,tag"), new Configuration()));
        assertEquals(true, e.getMessage().startsWith("table db.t, partition ")
                && e.getMessage().contains("partition value 'yesterday' of column day is not a date"), e.getMessage());
    }

    @Test
    void aMissingLocationIsNamed() {
        TableInfo gone = new TableInfo("db", "t", table("day,tag").columns(), List.of(), dir.resolve("gone").toUri().toString(),
                table("day,tag").properties(), "");
        SqlException e = assertThrows(SqlException.class, () -> PartitionDirectories.parts(gone, new Configuration()));
        assertEquals(true, e.getMessage().contains("no directory"), e.getMessage());
    }
}
