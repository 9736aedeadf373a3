package org.oooengine.core.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.oooengine.core.storage.BufferPool;
import org.oooengine.core.storage.SplitPolicy;
import org.oooengine.core.storage.TestPools;
import org.oooengine.core.tpcc.TpccGenerator;
import org.oooengine.core.tpcc.TpccSchema;

/**
 * Rows written into TPC-C's loaded orders table in place, as NewOrder, Delivery and a cancelled
 * order would: the clustered tree and the orders-by-customer index change together, and both read
 * back as written after a flush and a fresh open.
 */
class TableWriterTest {
    @TempDir
    Path dir;

    @Test
    void insertsUpdatesAndDeletesKeepTheRowAndItsIndexEntriesTogether() throws Exception {
        TableDefinition orders = TpccSchema.definition("orders");
        List<Object[]> loaded = new ArrayList<>();
        new TpccGenerator(1, 5, 1_700_000_000_000_000L).rows("orders", loaded::add);
        StoreManifest.TableMeta meta = new TableLoader(dir, 4096, 1.0).load(orders, loaded.iterator(), n -> { });
        BufferPool pool = new BufferPool(64 * 4096, 4096, TestPools.IO, TestPools.CPU);
        try (TableWriter w = TableWriter.open(dir, meta, SplitPolicy.PREFIX, pool)) {
            // new orders 3001.. of district 1, customer 7: in place, with their index entries
            for (int o = 3_001; o <= 3_200; o++) {
                w.insert(new Object[] {o, 1, 1, 7, 1_700_000_100_000L, null, 10, 1});
            }
            Object[] duplicate = {3_001, 1, 1, 7, 0L, null, 5, 1};
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> w.insert(duplicate));
            assertTrue(e.getMessage().contains("duplicate primary key [1, 1, 3001] in table orders"), e.getMessage());
            // delivered: a carrier set; moved to customer 8: its index entry moves
            assertTrue(w.update(new Object[] {3_001, 1, 1, 8, 1_700_000_100_000L, 4, 10, 1}));
            assertFalse(w.update(new Object[] {9_999, 1, 1, 8, 0L, 4, 10, 1}));
            assertTrue(w.delete(1, 1, 3_200));
            assertFalse(w.delete(1, 1, 3_200));
            w.flush();
        }
        try (TableWriter w = TableWriter.open(dir, meta, SplitPolicy.PREFIX, null)) {
            assertEquals(4, w.get(1, 1, 3_001)[5]);
            assertNull(w.get(1, 1, 3_200));
            assertArrayEquals(loaded.get(17), w.get(1, 1, 18));
            List<Integer> customer7 = new ArrayList<>();
            w.scanIndex("orders_by_customer", new Object[] {1, 1, 7}, row -> customer7.add((Integer) row[0]));
            long loadedFor7 = loaded.stream().filter(r -> (Integer) r[1] == 1 && (Integer) r[3] == 7).count();
            assertEquals(loadedFor7 + 198, customer7.size(), "3002..3199 added, 3001 moved away, 3200 deleted");
            assertTrue(customer7.contains(3_199) && !customer7.contains(3_001) && !customer7.contains(3_200));
            List<Integer> customer8 = new ArrayList<>();
            w.scanIndex("orders_by_customer", new Object[] {1, 1, 8}, row -> customer8.add((Integer) row[0]));
            assertTrue(customer8.contains(3_001));
            int[] district1 = {0};
            w.scan(new Object[] {1, 1}, row -> {
                district1[0]++;
                return true;
            });
            assertEquals(3_000 + 199, district1[0]);
        }
    }
}
