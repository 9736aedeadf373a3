package org.oooengine.core.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.oooengine.core.store.Store;
import org.oooengine.core.store.StoreFiles;
import org.oooengine.core.store.StoreManifest;

/**
 * A stored table as a node describes it to copy it elsewhere (re-replication): the page size and
 * fill factor of the store it lies in, its manifest entry, and the length of each of its files.
 *
 * @param fileBytes each file the entry names, with its length
 */
public record StoredTableFiles(int pageSize, double fillFactor, StoreManifest.TableMeta table,
                               Map<String, Long> fileBytes) {

    /** Table {@code stored} of {@code store} as it is now. */
    static StoredTableFiles of(Store store, String stored) {
        StoreManifest manifest = store.manifest();
        StoreManifest.TableMeta meta = manifest.tables().stream().filter(t -> t.name().equals(stored)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no table '" + stored + "' here"));
        Map<String, Long> bytes = new LinkedHashMap<>();
        for (String file : files(meta)) {
            try {
                bytes.put(file, Files.size(StoreFiles.resolve(store.dir(), file)));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read the length of " + file + " of table " + stored, e);
            }
        }
        return new StoredTableFiles(manifest.pageSize(), manifest.fillFactor(), meta, bytes);
    }

    /** Every file of {@code meta}: its tree, its indexes' trees and its columnar copy, those it has. */
    static List<String> files(StoreManifest.TableMeta meta) {
        List<String> files = new ArrayList<>();
        if (meta.file() != null) {
            files.add(meta.file());
        }
        meta.indexes().stream().map(StoreManifest.IndexMeta::file).filter(f -> f != null).forEach(files::add);
        if (meta.columnsFile() != null) {
            files.add(meta.columnsFile());
        }
        return files;
    }

    /** Every byte there is to copy. */
    public long totalBytes() {
        return fileBytes.values().stream().mapToLong(Long::longValue).sum();
    }

    /** Where {@code file}, one of this table's, lies in {@code dir}. */
    Path path(Path dir, String file) {
        if (!fileBytes.containsKey(file)) {
            throw new IllegalArgumentException("file " + file + " is not one of table " + table.name() + "'s");
        }
        return StoreFiles.resolve(dir, file);
    }
}
