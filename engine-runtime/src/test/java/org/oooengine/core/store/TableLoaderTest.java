package org.oooengine.core.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.oooengine.core.exec.CollectingSink;
import org.oooengine.core.exec.FullScan;
import org.oooengine.core.storage.ExternalSorter;
import org.oooengine.core.storage.LeafScanner;
import org.oooengine.core.types.Column;
import org.oooengine.core.types.DataType;
import org.oooengine.core.types.Schema;

/** Loading from unsorted input with a composite key, through spilled sort runs, into a store. */
class TableLoaderTest {
    @TempDir
    Path dir;

    @Test
    void externalSortSpillsAndMergesInKeyOrder() throws Exception {
        Random r = new Random(11);
        List<byte[]> keys = new ArrayList<>();
        try (ExternalSorter sorter = new ExternalSorter(dir, 4096)) {
            for (int i = 0; i < 5000; i++) {
                byte[] k = new byte[1 + r.nextInt(8)];
                r.nextBytes(k);
                keys.add(k);
                sorter.add(k, new byte[] {(byte) i});
            }
            keys.sort(java.util.Arrays::compareUnsigned);
            List<byte[]> got = new ArrayList<>();
            sorter.sorted().forEachRemaining(e -> got.add(e.key()));
            assertEquals(keys.size(), got.size());
            for (int i = 0; i < keys.size(); i++) {
                assertArrayEquals(keys.get(i), got.get(i));
            }
            try (Stream<Path> runs = Files.list(dir)) {
                assertTrue(runs.count() > 10, "expected the sorter to spill runs");
            }
        }
        try (Stream<Path> left = Files.list(dir)) {
            assertEquals(0, left.count(), "sort runs are deleted on close");
        }
    }

    @Test
    void unsortedRowsWithACompositeKeyLoadIntoAClusteredTreeAndIndex() throws Exception {
        Schema schema = new Schema(List.of(new Column("a", DataType.INT), new Column("b", DataType.varchar(8)),
                new Column("v", DataType.decimal(15, 2))));
        TableDefinition def = new TableDefinition("t", schema, List.of("a", "b"),
                List.of(new TableDefinition.IndexDefinition("v", List.of("v"))), false);
        List<Object[]> rows = new ArrayList<>();
        for (int a = 0; a < 300; a++) {
            for (String b : List.of("x", "", "zz", "y\0")) {
                rows.add(new Object[] {a - 150, b, (long) ((a * 7919) % 1000)});
            }
        }
        Collections.shuffle(rows, new Random(4));
        StoreManifest.TableMeta meta = new TableLoader(dir, 4096, 0.8).load(def, rows.iterator(), n -> { });
        assertEquals(rows.size(), meta.rows());
        new StoreManifest(StoreManifest.FORMAT_VERSION, 4096, 0.8, Map.of("generator", "test"), "now", 0, List.of(meta))
                .write(dir);

        try (Store store = Store.open(dir, StoreOptions.defaults().withIoThreads(2))) {
            Table t = store.table("t");
            CollectingSink all = new CollectingSink();
            FullScan.run(t, all);
            List<Object[]> expected = new ArrayList<>(rows);
            expected.sort(Comparator.<Object[], Integer>comparing(x -> (Integer) x[0])
                    .thenComparing(x -> (String) x[1], TableLoaderTest::utf8Order));
            List<Object[]> got = all.rows();
            assertEquals(expected.size(), got.size());
            for (int i = 0; i < got.size(); i++) {
                assertArrayEquals(expected.get(i), got.get(i));
            }
            // Every index entry leads back to its row.
            SecondaryIndex ix = t.index("v");
            long[] checked = {0};
            LeafScanner.forEachLeaf(ix.tree(), leaf -> {
                for (int i = 0; i < leaf.count(); i++) {
                    Object[] entry = ix.entryAt(leaf, i);
                    byte[] value = t.tree().get(t.keyCodec().encode(entry[1], entry[2])).join();
                    assertEquals(entry[0], t.decodeRow(value)[2]);
                    checked[0]++;
                }
            });
            assertEquals(rows.size(), checked[0]);
        }
    }

    @Test
    void repeatedPrimaryKeyIsNamed() {
        Schema schema = new Schema(List.of(new Column("a", DataType.INT), new Column("b", DataType.INT)));
        TableDefinition def = new TableDefinition("dup", schema, List.of("a", "b"), List.of(), false);
        List<Object[]> rows = List.of(new Object[] {1, 2}, new Object[] {3, 4}, new Object[] {1, 2});
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> new TableLoader(dir, 4096, 1.0).load(def, rows.iterator(), n -> { }));
        assertEquals("duplicate primary key [a, b] = [1, 2] in table dup", e.getMessage());
    }

    private static int utf8Order(String x, String y) {
        return java.util.Arrays.compareUnsigned(x.getBytes(java.nio.charset.StandardCharsets.UTF_8),
                y.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

}
