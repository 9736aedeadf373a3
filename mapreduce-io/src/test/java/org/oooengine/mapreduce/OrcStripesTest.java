package org.oooengine.mapreduce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;
import org.apache.orc.OrcFile;
import org.apache.orc.TypeDescription;
import org.apache.orc.Writer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.oooengine.core.cluster.FileReads;
import org.oooengine.core.fragment.GroupFilter;
import org.oooengine.core.types.Column;
import org.oooengine.core.types.DataType;
import org.oooengine.core.types.Schema;
import org.oooengine.core.vector.StoredVectors;

/** An ORC file's stripes read into column batches, those whose statistics a filter excludes skipped. */
class OrcStripesTest {
    private static final List<DataType> TYPES = List.of(DataType.BIGINT, DataType.decimal(12, 2), DataType.varchar(0));
    private static final Schema SCHEMA = new Schema(List.of(new Column("id", TYPES.get(0)),
            new Column("price", TYPES.get(1)), new Column("name", TYPES.get(2))));
    private static final int ROWS = 40_000;

    @TempDir
    Path dir;

    /** {@link #ROWS} rows (id i, price i * 5 cents, a name but every 13th) in stripes of about 64 KiB. */
    private FileReads.Split written(Configuration conf) throws Exception {
        conf.setInt("orc.rows.between.memory.checks", 1);
        org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path(dir.resolve("t.orc").toUri());
        TypeDescription schema = OrcRows.schema(SCHEMA.names(), TYPES);
        OrcRows orc = new OrcRows(TYPES);
        try (Writer w = OrcFile.createWriter(file, OrcFile.writerOptions(conf).setSchema(schema).stripeSize(64 * 1024)
                .bufferSize(4 * 1024))) {
            VectorizedRowBatch batch = schema.createRowBatch(1_000);
            for (long i = 0; i < ROWS; i++) {
                orc.write(batch, batch.size++, new Object[] {i, i * 5, i % 13 == 0 ? null : "item " + i});
                if (batch.size == batch.getMaxSize()) {
                    w.addRowBatch(batch);
                    batch.reset();
                }
            }
        }
        return new FileReads.Split(file.toString(), 0, Long.MAX_VALUE / 2,
                new FileReads.Layout("orc", HiveText.FIELD_DELIMITER, HiveText.NULL), List.of(), List.of(), "n1");
    }

    /** A column not wanted is neither read nor decoded: its vector is left out of every batch. */
    @Test
    void decodesOnlyTheColumnsWanted() throws Exception {
        Configuration conf = new Configuration();
        FileReads.Split whole = written(conf);
        List<Object[]> rows = new ArrayList<>();
        new HadoopSplitReader(conf).readBatches(whole, SCHEMA, new boolean[] {false, true, false}, ranges -> false,
                batch -> {
                    assertTrue(batch.column(0) == null && batch.column(2) == null, "columns not wanted left out");
                    return rows.addAll(StoredVectors.rows(batch, TYPES, 3));
                });
        assertEquals(ROWS, rows.size());
        for (int i = 0; i < ROWS; i += 101) {
            assertEquals(java.util.Arrays.asList(null, (long) i * 5, null), java.util.Arrays.asList(rows.get(i)), "row " + i);
        }
    }

    @Test
    void stripesAreReadWholeOrSkippedByTheirRanges() throws Exception {
        Configuration conf = new Configuration();
        FileReads.Split whole = written(conf);
        boolean[] all = {true, true, true};
        List<Object[]> rows = new ArrayList<>();
        int[] stripes = {0};
        new HadoopSplitReader(conf).readBatches(whole, SCHEMA, all, ranges -> {
            stripes[0]++;
            assertTrue(ranges.has(0) && ranges.has(1) && !ranges.has(2));
            return ranges.min(1) > 100_000; // price <= 1000.00 holds for none of their rows
        }, batch -> rows.addAll(StoredVectors.rows(batch, TYPES, 3)));
        assertTrue(stripes[0] > 2, stripes[0] + " stripes");
        assertTrue(rows.size() >= 20_001 && rows.size() < ROWS, rows.size() + " rows");
        for (int i = 0; i < rows.size(); i++) {
            assertEquals(List.of((long) i, (long) i * 5), List.of(rows.get(i)[0], rows.get(i)[1]));
            assertEquals(i % 13 == 0 ? null : "item " + i, rows.get(i)[2]);
        }
    }
    /**
     * Equalities go to ORC as a search argument: a constant read only from the row groups whose
     * statistics and bloom filters may hold it; a string between two that are there, from none
     * (its bloom filters lack it, where the groups' ranges would keep one).
     */
    @Test
    void equalitiesReadOnlyTheRowGroupsTheirBloomFiltersMayHold() throws Exception {
        Configuration conf = new Configuration();
        org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path(dir.resolve("b.orc").toUri());
        TypeDescription schema = OrcRows.schema(SCHEMA.names(), TYPES);
        OrcRows orc = new OrcRows(TYPES);
        try (Writer w = OrcFile.createWriter(file, OrcFile.writerOptions(conf).setSchema(schema)
                .bloomFilterColumns("id,name").rowIndexStride(1_000))) {
            VectorizedRowBatch batch = schema.createRowBatch(1_000);
            for (long i = 0; i < ROWS; i++) {
                orc.write(batch, batch.size++, new Object[] {i, i * 5, "item " + i});
                if (batch.size == batch.getMaxSize()) {
                    w.addRowBatch(batch);
                    batch.reset();
                }
            }
        }
        FileReads.Split whole = new FileReads.Split(file.toString(), 0, Long.MAX_VALUE / 2,
                new FileReads.Layout("orc", HiveText.FIELD_DELIMITER, HiveText.NULL), List.of(), List.of(), "n1");
        List<Object[]> byId = readWhere(conf, whole, new GroupFilter.Equality(0, 12_345L));
        assertEquals(1_000, byId.size()); // the row group of 1,000 rows that holds it
        assertTrue(byId.stream().anyMatch(r -> r[0].equals(12_345L)));
        List<Object[]> byName = readWhere(conf, whole, new GroupFilter.Equality(2, "item 12345"));
        assertTrue(byName.size() <= 2_000 && byName.stream().anyMatch(r -> r[2].equals("item 12345")), byName.size() + " rows");
        assertEquals(0, readWhere(conf, whole, new GroupFilter.Equality(2, "item 12345a")).size());
        assertEquals(ROWS, readWhere(conf, whole).size());
    }

    private static List<Object[]> readWhere(Configuration conf, FileReads.Split split, GroupFilter.Equality... equalities) {
        List<Object[]> rows = new ArrayList<>();
        new HadoopSplitReader(conf).readBatches(split, SCHEMA, new boolean[] {true, true, true}, new GroupFilter() {
            @Override
            public boolean test(org.oooengine.core.fragment.ColumnRanges ranges) {
                return false;
            }

            @Override
            public List<Equality> equalities() {
                return List.of(equalities);
            }
        }, batch -> rows.addAll(StoredVectors.rows(batch, TYPES, 3)));
        return rows;
    }
}
