package org.oooengine.core.tpch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.oooengine.core.store.StoreManifest;

class TpchLoaderTest {
    @TempDir
    Path dir;

    @Test
    void recordsSchemaCountsAndParametersAndRefusesToOverwrite() throws Exception {
        Path store = dir.resolve("s");
        StoreManifest m = new TpchLoader(0.01, 4096, 0.9).load(store, false, (t, d, e) -> { });
        assertEquals(0.01, m.source().get("scaleFactor"));
        assertEquals(0.9, m.fillFactor());
        assertEquals(4096, m.pageSize());
        assertEquals(List.of("region", "nation", "supplier", "customer", "part", "partsupp", "orders", "lineitem"),
                m.tables().stream().map(StoreManifest.TableMeta::name).toList());
        assertEquals(15_000, m.table("orders").rows());
        assertEquals(List.of("l_orderkey", "l_linenumber"), m.table("lineitem").primaryKey());
        assertEquals(List.of("o_custkey", "o_orderdate", "o_totalprice"),
                m.table("orders").indexes().stream().map(StoreManifest.IndexMeta::name).toList());
        assertEquals(m.tables(), StoreManifest.read(store).tables());
        assertTrue(Files.notExists(store.resolve("tmp")), "temporary sort files are removed");

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new TpchLoader(0.01, 4096, 1.0).load(store, false, (t, d, x) -> { }));
        assertTrue(e.getMessage().contains("is not empty (it holds a store); pass --replace"), e.getMessage());
        assertEquals(0.9, StoreManifest.read(store).fillFactor(), "the refused load changed nothing");

        assertEquals(1.0, new TpchLoader(0.01, 4096, 1.0).load(store, true, (t, d, x) -> { }).fillFactor());
    }

    @Test
    void badParametersAreRefusedBeforeAnythingIsTouched() {
        assertThrows(IllegalArgumentException.class, () -> new TpchLoader(0, 8192, 1.0));
        IllegalArgumentException tiny = assertThrows(IllegalArgumentException.class, () -> new TpchLoader(0.001, 8192, 1.0));
        assertTrue(tiny.getMessage().contains("at least 0.01"), tiny.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new TpchLoader(1, 1000, 1.0));
        assertThrows(IllegalArgumentException.class, () -> new TpchLoader(1, 8192, 1.5));
    }
}
