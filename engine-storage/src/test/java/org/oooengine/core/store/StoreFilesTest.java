package org.oooengine.core.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.oooengine.core.storage.StorageException;
import org.oooengine.core.types.Column;
import org.oooengine.core.types.DataType;
import org.oooengine.core.types.Schema;

/**
 * A table's name never reaches the file system: whatever it says, its files are named by an id
 * inside the store, and a manifest naming a file outside the store is refused when opened.
 */
class StoreFilesTest {
    @TempDir
    Path root;

    @Test
    void aTableNamedLikeAPathIsStoredInsideTheStore() throws Exception {
        Path store = Files.createDirectories(root.resolve("node/store"));
        Files.writeString(root.resolve("node/victim.data"), "precious");
        TableDefinition def = new TableDefinition("../victim", new Schema(List.of(new Column("id", DataType.INT))),
                List.of("id"), List.of(new TableDefinition.IndexDefinition("../../ix", List.of("id"), IndexScope.LOCAL)),
                false);
        StoreManifest.TableMeta meta = new TableLoader(store, 4096, 1.0)
                .load(def, List.<Object[]>of(new Object[] {1}, new Object[] {2}).iterator(), n -> { });
        new StoreManifest(StoreManifest.FORMAT_VERSION, 4096, 1.0, Map.of(), "now", 0, List.of(meta)).write(store);
        assertEquals("precious", Files.readString(root.resolve("node/victim.data")));
        try (Stream<Path> files = Files.list(store)) {
            assertTrue(files.map(f -> f.getFileName().toString())
                    .allMatch(f -> f.equals("store.json") || f.equals("tmp") || f.matches("__victim-[0-9a-f]{16}\\.(data|cols|0\\.idx)")));
        }
        try (Store s = Store.open(store, StoreOptions.defaults())) {
            assertEquals(2, s.table("../victim").rows());
        }
    }

    @Test
    void aManifestNamingAFileOutsideTheStoreIsRefused() throws Exception {
        Path store = Files.createDirectories(root.resolve("store"));
        TableDefinition def = new TableDefinition("t", new Schema(List.of(new Column("id", DataType.INT))), List.of("id"),
                List.of(), false);
        StoreManifest.TableMeta meta = new TableLoader(store, 4096, 1.0)
                .load(def, List.<Object[]>of(new Object[] {1}).iterator(), n -> { });
        for (String outside : List.of("../t.data", "/etc/passwd", "a/../../b.data", "..", "x\u0000.data")) {
            StoreManifest.TableMeta bad = new StoreManifest.TableMeta(meta.name(), meta.columns(), meta.primaryKey(),
                    meta.rows(), meta.dataBytes(), outside, meta.indexes(), meta.columnsFile(), meta.columnRanges());
            new StoreManifest(StoreManifest.FORMAT_VERSION, 4096, 1.0, Map.of(), "now", 0, List.of(bad)).write(store);
            StorageException e = assertThrows(StorageException.class, () -> Store.open(store, StoreOptions.defaults()), outside);
            assertTrue(e.getMessage().contains("names a file outside it"), e.getMessage());
        }
    }
}
