package org.oooengine.core.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.oooengine.core.storage.LeafScanner;
import org.oooengine.core.storage.SplitPolicy;
import org.oooengine.core.storage.TreeHealth;
import org.oooengine.core.store.Store;
import org.oooengine.core.store.StoreManifest;
import org.oooengine.core.store.StoreOptions;
import org.oooengine.core.store.TableDefinition;
import org.oooengine.core.store.TableLoader;
import org.oooengine.core.store.TableWriter;
import org.oooengine.core.types.Column;
import org.oooengine.core.types.DataType;
import org.oooengine.core.types.Schema;

/**
 * A table written in place under the half split policy deteriorates; the node's maintenance finds
 * it, reorganizes it step by step back to about a fresh load's leaves, while a scan reads the
 * table over and over and always finds every row once.
 */
class TreeMaintenanceTest {
    @TempDir
    Path dir;

    @Test
    void aDeterioratedTableIsReorganizedWhileScansGoOn() throws Exception {
        TableDefinition def = new TableDefinition("t", new Schema(List.of(new Column("g", DataType.INT),
                new Column("seq", DataType.INT), new Column("pad", DataType.parse("varchar")))), List.of("g", "seq"),
                List.of(), false);
        List<Object[]> rows = new ArrayList<>();
        for (int g = 0; g < 10; g++) {
            for (int seq = 0; seq < 100; seq++) {
                rows.add(new Object[] {g, seq, "x".repeat(40)});
            }
        }
        StoreManifest.TableMeta meta = new TableLoader(dir, 4096, 1.0).load(def, rows.iterator(), n -> { });
        new StoreManifest(StoreManifest.FORMAT_VERSION, 4096, 1.0, Map.of(), "now", 0, List.of(meta)).write(dir);
        ExecutorService writeThread = Executors.newSingleThreadExecutor();
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
        ExecutorService reader = Executors.newSingleThreadExecutor();
        AtomicBoolean reading = new AtomicBoolean(true);
        try (Store store = Store.open(dir, StoreOptions.defaults().withBufferPoolBytes(1 << 20))) {
            TableWriter w = store.writer("t", SplitPolicy.HALF);
            for (int seq = 100; seq < 1_500; seq++) { // each group grows at its end: 50/50 splits, half-full leaves
                for (int g = 0; g < 10; g++) {
                    w.insert(new Object[] {g, seq, "x".repeat(40)});
                }
            }
            w.flush();
            store.wrote("t", 14_000);
            TreeHealth before = TreeHealth.of(store.table("t").tree(), 10);
            assertTrue(before.deterioration() > 1.6, "deteriorated: " + before.deterioration());

            Future<Integer> scans = reader.submit(() -> {
                int n = 0;
                while (reading.get()) {
                    long[] seen = {0};
                    LeafScanner.forEachLeaf(store.table("t").tree(), leaf -> seen[0] += leaf.count());
                    assertEquals(15_000, seen[0], "every row once");
                    n++;
                }
                return n;
            });
            TreeMaintenance maintenance = new TreeMaintenance("n1", () -> store, writeThread, timer, () -> true,
                    new TreeMaintenance.Options(Duration.ofHours(1), 16, Duration.ofMillis(1)));
            writeThread.submit(maintenance::check).get();
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (writeThread.submit(maintenance::busy).get() && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            reading.set(false);
            assertTrue(scans.get() > 0, "scans ran during the reorganization");
            TreeHealth after = TreeHealth.of(store.table("t").tree(), 10);
            assertTrue(after.deterioration() < 1.2 && after.entries() == 15_000,
                    "reorganized: " + after.deterioration() + ", " + after.entries() + " entries");
            writeThread.submit(maintenance::check).get();
            assertTrue(!writeThread.submit(maintenance::busy).get(), "not written since: not checked again");
        } finally {
            reading.set(false);
            reader.shutdownNow();
            writeThread.shutdownNow();
            timer.shutdownNow();
        }
    }
}
