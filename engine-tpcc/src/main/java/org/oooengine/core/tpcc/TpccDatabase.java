package org.oooengine.core.tpcc;

import java.io.Closeable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.oooengine.core.storage.BufferPool;
import org.oooengine.core.storage.SplitPolicy;
import org.oooengine.core.store.StoreManifest;
import org.oooengine.core.store.TableLoader;
import org.oooengine.core.store.TableWriter;

/**
 * A TPC-C database on one node: the nine tables bulk-loaded into a directory from the
 * {@link TpccGenerator}, then opened for writing in place with one split policy and one buffer
 * pool for every tree.
 */
public final class TpccDatabase implements TpccTables, Closeable {
    private final Map<String, TableWriter> tables = new LinkedHashMap<>();
    private final int warehouses;

    private TpccDatabase(int warehouses) {
        this.warehouses = warehouses;
    }

    /**
     * Loads {@code warehouses} warehouses into {@code dir} (which must hold no tables yet) with 4 KiB
     * pages, each table's as full as its runs of inserts fill them ({@link TpccSchema#runFill}):
     * rows grow when updated, and a full page would split in the middle on the first of them. The
     * manifest written last names each table's files.
     */
    public static void load(Path dir, int warehouses, long seed, long now) throws Exception {
        Files.createDirectories(dir);
        TpccGenerator generator = new TpccGenerator(warehouses, seed, now);
        List<StoreManifest.TableMeta> metas = new ArrayList<>();
        for (String table : TpccSchema.TABLES) {
            TableLoader loader = new TableLoader(dir, PAGE_SIZE, TpccSchema.runFill(table));
            try (TableLoader.Writer w = loader.open(TpccSchema.definition(table), true)) {
                generator.rows(table, row -> {
                    try {
                        w.addRow(row);
                    } catch (Exception e) {
                        throw new IllegalStateException("cannot load " + table + " into " + dir, e);
                    }
                });
                metas.add(w.finish());
            }
        }
        new StoreManifest(StoreManifest.FORMAT_VERSION, PAGE_SIZE, 1.0, Map.of("tpcc.warehouses", warehouses),
                java.time.Instant.now().toString(), 0, metas).write(dir);
    }

    public static final int PAGE_SIZE = 4096;

    /** Opens the tables {@link #load} wrote for writing. */
    public static TpccDatabase open(Path dir, int warehouses, SplitPolicy policy, BufferPool pool) {
        TpccDatabase db = new TpccDatabase(warehouses);
        StoreManifest manifest = StoreManifest.read(dir);
        try {
            for (String table : TpccSchema.TABLES) {
                db.tables.put(table, TableWriter.open(dir, manifest.table(table), policy, TpccSchema.runFill(table), pool));
            }
        } catch (RuntimeException e) {
            db.close();
            throw e;
        }
        return db;
    }

    public int warehouses() {
        return warehouses;
    }

    public TableWriter table(String name) {
        TableWriter t = tables.get(name);
        if (t == null) {
            throw new IllegalArgumentException("no TPC-C table " + name);
        }
        return t;
    }

    @Override
    public Object[] get(String table, Object... key) {
        return table(table).get(key);
    }

    @Override
    public void insert(String table, Object[] row) {
        table(table).insert(row);
    }

    @Override
    public void update(String table, Object[] row) {
        table(table).update(row);
    }

    @Override
    public void delete(String table, Object... key) {
        table(table).delete(key);
    }

    @Override
    public void scan(String table, Object[] prefix, java.util.function.Predicate<Object[]> visitor) {
        table(table).scan(prefix, visitor);
    }

    @Override
    public void scanIndex(String table, String index, Object[] prefix, java.util.function.Predicate<Object[]> visitor) {
        table(table).scanIndex(index, prefix, visitor);
    }

    /** Makes every write so far durable (each table's trees flushed in turn). */
    public void flush() {
        tables.values().forEach(TableWriter::flush);
    }

    @Override
    public void close() {
        tables.values().forEach(TableWriter::close);
    }
}
