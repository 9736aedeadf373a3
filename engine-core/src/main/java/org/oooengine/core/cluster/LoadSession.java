package org.oooengine.core.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.oooengine.core.storage.Directories;
import org.oooengine.core.store.StoreManifest;
import org.oooengine.core.store.TableDefinition;
import org.oooengine.core.store.TableLoader;
import org.oooengine.core.types.RowCodec;

/**
 * A node's side of a bulk load: rows arrive table by table and are written into a staging
 * directory; the commit writes its manifest, and only then does it replace the node's store.
 */
final class LoadSession implements AutoCloseable {
    private final Path staging;
    private final int pageSize;
    private final double fillFactor;
    private final TableLoader loader;
    private final Map<String, TableLoader.Writer> writers = new LinkedHashMap<>();
    private final Map<String, RowCodec> codecs = new LinkedHashMap<>();
    private final List<StoreManifest.TableMeta> tables = new ArrayList<>();
    private final long started = System.nanoTime();

    LoadSession(Path staging, int pageSize, double fillFactor, long sortMemoryBytes) {
        Directories.deleteRecursively(staging);
        try {
            Files.createDirectories(staging);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + staging, e);
        }
        this.staging = staging;
        this.pageSize = pageSize;
        this.fillFactor = fillFactor;
        this.loader = new TableLoader(staging, pageSize, fillFactor, sortMemoryBytes);
    }

    int pageSize() {
        return pageSize;
    }

    double fillFactor() {
        return fillFactor;
    }

    void begin(TableDefinition def) throws Exception {
        if (writers.containsKey(def.name())) {
            throw new IllegalStateException("table " + def.name() + " is already being loaded");
        }
        writers.put(def.name(), loader.open(def, false));
        codecs.put(def.name(), new RowCodec(def.schema()));
    }

    /** A row of this partition ({@code index} < 0), or the entry of a GLOBAL index this node holds. */
    void add(String table, int index, byte[] encodedRow) throws Exception {
        TableLoader.Writer w = writer(table);
        Object[] row = codecs.get(table).decode(encodedRow);
        if (index < 0) {
            w.addRow(row);
        } else {
            w.addIndexEntry(index, row);
        }
    }

    long finishTable(String table) throws Exception {
        TableLoader.Writer w = writer(table);
        StoreManifest.TableMeta meta = w.finish();
        w.close();
        writers.remove(table);
        tables.add(meta);
        return meta.rows();
    }

    /** Writes the manifest into the staging directory and returns it; the caller swaps directories. */
    StoreManifest commit(Map<String, Object> source) {
        if (!writers.isEmpty()) {
            throw new IllegalStateException("tables not finished: " + writers.keySet());
        }
        Directories.deleteRecursively(staging.resolve("tmp"));
        StoreManifest m = new StoreManifest(StoreManifest.FORMAT_VERSION, pageSize, fillFactor, source,
                Instant.now().toString(), (System.nanoTime() - started) / 1e9, List.copyOf(tables));
        m.write(staging);
        return m;
    }

    private TableLoader.Writer writer(String table) {
        TableLoader.Writer w = writers.get(table);
        if (w == null) {
            throw new IllegalStateException("table " + table + " was not begun in this load");
        }
        return w;
    }

    @Override
    public void close() {
        for (TableLoader.Writer w : writers.values()) {
            try {
                w.close();
            } catch (Exception ignored) {
                // Abandoned load: the staging directory is discarded anyway.
            }
        }
        writers.clear();
    }
}
