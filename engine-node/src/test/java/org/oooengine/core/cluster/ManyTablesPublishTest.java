package org.oooengine.core.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.oooengine.core.store.TableDefinition;
import org.oooengine.core.types.Column;
import org.oooengine.core.types.DataType;
import org.oooengine.core.types.Schema;

/**
 * A node holding some hundreds of tables: every table write publishes a new store version on each
 * node, and the versions it replaced keep serving for a while, so the files the node holds open
 * must not grow with tables times writes.
 */
class ManyTablesPublishTest {
    private static final int TABLES = 300;

    @TempDir
    Path dir;

    @Test
    @Timeout(value = 300, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aNodeWithHundredsOfTablesPublishesALoad() throws Exception {
        long before = openFiles();
        long mappedBefore = mappedAreas();
        try (TestCluster cluster = new TestCluster(dir, 2); ClusterSession session = cluster.session()) {
            ClusterLoader loader = new ClusterLoader(session.peers());
            for (int i = 0; i < TABLES; i++) {
                assertEquals(3, loader.writeTable(table("t" + i), rows(0, 3), false, (t, d, e) -> { }));
                assertFilesHeld(before, i + 1);
            }
            // the columnar copies are mapped once per file, not per store version that opened them: a
            // mapping each would have passed the process's 65,530 map areas (and crashed it) near 300
            long mapped = mappedAreas() - mappedBefore;
            assertTrue(mappedBefore < 0 || mapped < 6L * TABLES + 1000, "the nodes map " + mapped + " more areas");
            assertEquals(5, loader.writeTable(table("t7"), rows(3, 5), true, (t, d, e) -> { }));
            assertFilesHeld(before, TABLES);
            assertEquals(List.of(0L, 1L, 2L, 3L, 4L), scan(session, "t7"));
            assertEquals(List.of(0L, 1L, 2L), scan(session, "t" + (TABLES - 1)));
            assertEquals(List.of(0L, 1L, 2L), scan(session, "t0"));
        }
    }

    /**
     * Each node's store holds a data and a columnar file per table, and the versions it replaced
     * share them: some six per table over the two nodes at most, not tables times writes. Checked
     * as the tables grow, so that a leak fails here, not by starving the test's process of files.
     */
    private static void assertFilesHeld(long before, int tables) {
        long held = openFiles() - before;
        assertTrue(held < 6L * tables + 300, "the nodes hold " + held + " more files open with " + tables + " tables");
    }

    private static TableDefinition table(String name) {
        return new TableDefinition(name, new Schema(List.of(new Column("id", DataType.parse("bigint")),
                new Column("name", DataType.parse("varchar")))), List.of("id"), List.of(), false);
    }

    private static java.util.Iterator<Object[]> rows(long from, long to) {
        return LongStream.range(from, to).mapToObj(i -> new Object[] {i, "name " + i}).iterator();
    }

    private static long openFiles() {
        return ((com.sun.management.UnixOperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getOpenFileDescriptorCount();
    }

    /** The process's mapped areas, as Linux lists them; -1 elsewhere. */
    private static long mappedAreas() {
        try (java.util.stream.Stream<String> lines = java.nio.file.Files.lines(Path.of("/proc/self/maps"))) {
            return lines.count();
        } catch (java.io.IOException | java.io.UncheckedIOException e) {
            return -1;
        }
    }

    private static List<Long> scan(ClusterSession session, String table) {
        List<Long> out = new ArrayList<>();
        for (ClusterSpec.NodeSpec n : session.spec().nodes()) {
            session.scan(n.id(), table, chunk -> {
                synchronized (out) {
                    chunk.forEach(r -> out.add(((Number) r[0]).longValue()));
                }
            }).join();
        }
        out.sort(null);
        return out;
    }
}
