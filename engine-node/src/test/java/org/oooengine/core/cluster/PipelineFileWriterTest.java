package org.oooengine.core.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.oooengine.core.types.Column;
import org.oooengine.core.types.DataType;
import org.oooengine.core.types.Schema;

/**
 * How a node's run cuts a pipeline's rows into files: one per partition met, the least recently
 * written completed to make room, SQL values stored as the file's types, a record of each file,
 * and nothing left when the run fails.
 */
class PipelineFileWriterTest {
    /** Files kept in memory: what each holds, and whether it was completed or deleted. */
    private static final class Files implements RowFileWriters {
        final Map<String, List<Object[]>> rows = new LinkedHashMap<>();
        final List<String> completed = new ArrayList<>();
        final List<String> deleted = new ArrayList<>();
        boolean failFinishing;

        @Override
        public void delete(String path) {
            deleted.add(path);
        }

        @Override
        public RowFileWriter create(String path, FileReads.Layout layout, Schema schema) {
            rows.put(path, new ArrayList<>());
            return new RowFileWriter() {
                @Override
                public void write(List<Object[]> more) {
                    rows.get(path).addAll(more);
                }

                @Override
                public long finish() {
                    if (failFinishing) {
                        throw new IllegalStateException("cannot complete " + path);
                    }
                    completed.add(path);
                    return 10L * rows.get(path).size();
                }

                @Override
                public void abort() {
                    deleted.add(path);
                }
            };
        }
    }

    private static FileOutput output(int partitionKeys) {
        Schema file = new Schema(List.of(new Column("id", DataType.BIGINT), new Column("price", DataType.parse("DECIMAL(10,2)")),
                new Column("day", DataType.parse("DATE"))));
        return new FileOutput("file:/w/t/.ooo-staging-s1", "s1", new FileReads.Layout("orc", '\u0001', "\\N"), file,
                partitionKeys);
    }

    private static Object[] row(long id, String region) {
        return new Object[] {id, new BigDecimal("1.5"), LocalDate.ofEpochDay(id), region};
    }

    @Test
    void eachPartitionMetGetsAFileOfStoredValuesAndARecord() {
        Files files = new Files();
        List<Object[]> records = new ArrayList<>();
        try (PipelineFileWriter writer = new PipelineFileWriter(output(1), "n1", files)) {
            writer.accept(List.of(row(1, "eu"), row(2, "us"), row(3, "eu")));
            writer.accept(List.<Object[]>of(row(4, null)));
            writer.finish(records::add);
        }
        assertEquals(3, files.rows.size());
        assertEquals(List.of(), files.deleted);
        List<Object[]> eu = files.rows.values().iterator().next();
        assertEquals(List.of(1L, 150L, 1), List.of(eu.get(0)));
        assertEquals(List.of(3L, 150L, 3), List.of(eu.get(1)));
        assertEquals(3, records.size());
        for (Object[] r : records) {
            assertTrue(((String) r[0]).startsWith("file:/w/t/.ooo-staging-s1/part-s1-n1-"), (String) r[0]);
            assertTrue(((String) r[0]).endsWith(".orc"), (String) r[0]);
        }
        Map<Object, Long> rowsByRegion = new LinkedHashMap<>();
        records.forEach(r -> rowsByRegion.put(r[3], (Long) r[1]));
        assertEquals(Map.of("eu", 2L, "us", 1L), Map.of("eu", rowsByRegion.get("eu"), "us", rowsByRegion.get("us")));
        assertEquals(1L, rowsByRegion.get(null));
    }

    @Test
    void theLeastRecentlyWrittenFileIsCompletedToMakeRoom() {
        Files files = new Files();
        List<Object[]> records = new ArrayList<>();
        try (PipelineFileWriter writer = new PipelineFileWriter(output(1), "n1", files)) {
            for (int p = 0; p < PipelineFileWriter.MAX_OPEN; p++) {
                writer.accept(List.<Object[]>of(row(p, "r" + p)));
            }
            writer.accept(List.<Object[]>of(row(100, "r0"))); // r0 written again: r1 is now the least recent
            assertEquals(List.of(), files.completed);
            writer.accept(List.<Object[]>of(row(200, "new")));
            assertEquals(1, files.completed.size());
            assertEquals(List.of(1L), List.of(files.rows.get(files.completed.get(0)).get(0)[0]));
            writer.accept(List.<Object[]>of(row(300, "r1"))); // its partition again: a second file
            writer.finish(records::add);
        }
        assertEquals(PipelineFileWriter.MAX_OPEN + 2, records.size());
        assertEquals(PipelineFileWriter.MAX_OPEN + 3L, records.stream().mapToLong(r -> (Long) r[1]).sum());
    }

    @Test
    void aRunThatFailsDeletesEveryFileItWrote() {
        Files files = new Files();
        try (PipelineFileWriter writer = new PipelineFileWriter(output(1), "n1", files)) {
            for (int p = 0; p <= PipelineFileWriter.MAX_OPEN; p++) {
                writer.accept(List.<Object[]>of(row(p, "r" + p)));
            }
            // the run fails here: closed without finishing
        }
        assertEquals(1, files.completed.size());
        assertEquals(files.rows.keySet().stream().sorted().toList(), files.deleted.stream().sorted().toList());

        Files failing = new Files();
        PipelineFileWriter writer = new PipelineFileWriter(output(0), "n1", failing);
        writer.accept(List.<Object[]>of(new Object[] {1L, BigDecimal.ONE, LocalDate.EPOCH}));
        failing.failFinishing = true;
        assertThrows(IllegalStateException.class, () -> writer.finish(r -> { }));
        writer.close();
        assertEquals(List.copyOf(failing.rows.keySet()), failing.deleted);
    }
}
