package org.oooengine.hive.files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.oooengine.core.cluster.ClusterException;
import org.oooengine.core.cluster.ClusterSession;
import org.oooengine.core.cluster.TestCluster;
import org.oooengine.core.sql.SqlType;
import org.oooengine.hive.catalog.CatalogTable;
import org.oooengine.hive.catalog.TableConstraints;
import org.oooengine.mapreduce.FileFormat;
import org.oooengine.optimizer.catalog.ResultColumn;
import org.oooengine.optimizer.catalog.TableInfo;

/**
 * The nodes write a table's files side by side, and a write that does not complete — cancelled,
 * or a node lost, midway — leaves the table's files as they were and nothing of its own behind.
 */
class FileTableWriterTest {
    private static final int ROWS = 30_000;

    @TempDir
    static Path dir;
    private static TestCluster cluster;
    private static ClusterSession session;
    private static List<String> nodes;
    private final Configuration conf = new Configuration();

    @BeforeAll
    static void start() throws Exception {
        cluster = new TestCluster(dir.resolve("cluster"), 3);
        session = cluster.session();
        nodes = session.spec().nodes().stream().map(n -> n.id()).toList();
    }

    @AfterAll
    static void stop() throws Exception {
        try (AutoCloseable c = cluster; AutoCloseable s = session) {
            // closed
        }
    }

    private static TableInfo table(String name, FileFormat format) throws Exception {
        Path location = Files.createDirectories(dir.resolve(name));
        return CatalogTable.of("default", name, List.of(new ResultColumn("id", SqlType.BIGINT),
                        new ResultColumn("name", SqlType.STRING)), List.of(), List.of(),
                FileLayout.of(format).properties(), "", TableConstraints.NONE).withStorage("file:" + location).info();
    }

    private static List<Object[]> rows(long first, int count) {
        List<Object[]> rows = new ArrayList<>();
        for (long i = first; i < first + count; i++) {
            rows.add(new Object[] {i, "row " + i});
        }
        return rows;
    }

    private FileTableWriter writer() {
        return new FileTableWriter(conf, session.peers(), nodes, ROWS / 10);
    }

    private long[] countAndSum(TableInfo t) {
        long[] out = new long[2];
        TableFiles.read(t.storage(), FileLayout.fromProperties(t.properties()).orElseThrow(),
                FileTableReader.fileSchema(t.name(), t, 2), conf, r -> {
                    out[0]++;
                    out[1] += (Long) r[0];
                });
        return out;
    }

    private static List<String> names(TableInfo t) throws Exception {
        try (Stream<Path> all = Files.walk(Path.of(t.storage().substring("file:".length())))) {
            return all.map(p -> p.getFileName().toString()).filter(n -> !n.endsWith(".crc")).sorted().toList();
        }
    }

    @Test
    void theNodesShareTheRowsAndAnOverwriteReplacesTheFiles() throws Exception {
        for (FileFormat format : FileFormat.values()) {
            TableInfo t = table("shared_" + format.name().toLowerCase(java.util.Locale.ROOT), format);
            assertEquals(ROWS, writer().insert(t, rows(0, ROWS), false, List.of(), () -> false).rows());
            assertEquals(1000, writer().insert(t, rows(ROWS, 1000), false, List.of(), () -> false).rows());
            long[] both = countAndSum(t);
            assertEquals(ROWS + 1000, both[0], format.name());
            assertEquals((long) (ROWS + 1000) * (ROWS + 1000 - 1) / 2, both[1], format.name());
            assertEquals(3 + 1 + 1, names(t).size(), names(t).toString()); // the directory, 3 files, then 1

            writer().insert(t, rows(5, 10), true, List.of(), () -> false);
            assertEquals(10, countAndSum(t)[0]);
            assertEquals(2, names(t).size(), "only the new file stays: " + names(t));
        }
    }

    @Test
    void aCancelledWriteLeavesTheTableAsItWas() throws Exception {
        TableInfo t = table("cancelled", FileFormat.ORC);
        writer().insert(t, rows(0, 100), false, List.of(), () -> false);
        List<String> before = names(t);
        AtomicInteger asked = new AtomicInteger();
        BooleanSupplier cancelledMidway = () -> asked.incrementAndGet() > 6; // after some of every node's rows went
        assertThrows(CancellationException.class, () -> writer().insert(t, rows(0, ROWS), true, List.of(), cancelledMidway));
        assertTrue(asked.get() > 6);
        assertEquals(before, names(t));
        assertEquals(100, countAndSum(t)[0]);
    }

    @Test
    void aNodeLostMidwayFailsTheWriteNamingItAndLeavesTheTableAsItWas() throws Exception {
        TableInfo t = table("lost", FileFormat.PARQUET);
        writer().insert(t, rows(0, 100), false, List.of(), () -> false);
        List<String> before = names(t);
        String lost = nodes.get(1);
        AtomicInteger asked = new AtomicInteger();
        BooleanSupplier killing = () -> {
            if (asked.incrementAndGet() == 6) {
                cluster.stop(lost);
            }
            return false;
        };
        try {
            ClusterException e = assertThrows(ClusterException.class,
                    () -> writer().insert(t, rows(0, ROWS), true, List.of(), killing));
            assertTrue(e.getMessage().contains("node " + lost), e.getMessage());
            assertTrue(e.getMessage().contains("the table is as it was"), e.getMessage());
        } finally {
            cluster.restart(lost);
        }
        assertEquals(before, names(t));
        assertEquals(100, countAndSum(t)[0]);
    }

    @Test
    void partitionsGoToTheirDirectoriesAndAnOverwriteReplacesOnlyThoseWritten() throws Exception {
        Path location = Files.createDirectories(dir.resolve("parted"));
        Map<String, String> properties = new java.util.HashMap<>(FileLayout.of(FileFormat.TEXT).properties());
        properties.put(FileLayout.PARTITION_KEYS, "day,tag");
        TableInfo t = CatalogTable.of("default", "parted", List.of(new ResultColumn("id", SqlType.BIGINT),
                        new ResultColumn("day", SqlType.DATE), new ResultColumn("tag", SqlType.STRING)), List.of(), List.of(),
                properties, "", TableConstraints.NONE).withStorage("file:" + location).info();
        List<Object[]> rows = List.of(new Object[] {1L, 9000, "a/b"}, new Object[] {2L, 9000, null},
                new Object[] {3L, 9001, "c"});
        writer().insert(t, rows, false, List.of(), () -> false);
        assertTrue(Files.isDirectory(location.resolve("day=1994-08-23/tag=a%2Fb")));
        assertTrue(Files.isDirectory(location.resolve("day=1994-08-23/tag=" + PartitionDirectories.DEFAULT_PARTITION)));
        assertTrue(Files.isDirectory(location.resolve("day=1994-08-24/tag=c")));

        // a static partition overwritten with no rows becomes empty; the others stay
        writer().insert(t, List.of(), true, List.of(9001, "c"), () -> false);
        List<FilePart> parts = PartitionDirectories.parts(t, conf);
        assertEquals(3, parts.size());
        long[] count = {0};
        for (FilePart p : parts) {
            TableFiles.read(p.location(), p.layout(), FileTableReader.fileSchema("parted", t, 1), conf, r -> count[0]++);
        }
        assertEquals(2, count[0]);
    }
}
