package org.oooengine.core.htap;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.oooengine.core.storage.Directories;
import org.oooengine.core.storage.SplitPolicy;
import org.oooengine.core.store.Store;
import org.oooengine.core.store.StoreManifest;
import org.oooengine.core.store.StoreOptions;
import org.oooengine.core.store.TableDefinition;
import org.oooengine.core.store.TableLoader;
import org.oooengine.core.store.TableWriter;
import org.oooengine.core.txn.RowChange;
import org.oooengine.core.txn.ShippedCommit;
import org.oooengine.core.txn.TransactionalDatabase;
import org.oooengine.core.types.KeyCodec;
import org.oooengine.core.types.RowCodec;

/**
 * One analytical copy of a node's transactional tables: a store of B+tree tables (with their
 * secondary indexes) bulk-loaded from the transactional rows, then kept in step by applying
 * shipped commits with the B+tree writes. The copy is derived data: it is built again whenever
 * its history is in doubt (a start, a feed that overflowed), never repaired.
 */
final class AnalyticalCopy implements AutoCloseable {
    private static final int PAGE_SIZE = 8192;
    private static final double FILL_FACTOR = 0.9;

    /** How one transactional table's rows map onto its table in the copy. */
    private record Copied(TableDefinition def, KeyCodec keys, RowCodec rows, TableWriter writer) {
    }

    private final Store store;
    private final Map<String, Copied> byTransactionalName;

    private AnalyticalCopy(Store store, Map<String, Copied> byTransactionalName) {
        this.store = store;
        this.byTransactionalName = byTransactionalName;
    }

    /**
     * Builds a copy in {@code dir} (anything there is removed) of the transactional tables named by
     * {@code tables}' keys, each as its definition says (its name in the copy, columns, primary key
     * and indexes; the transactional rows' keys and values are that key and row encoded).
     */
    static AnalyticalCopy build(Path dir, TransactionalDatabase db, Map<String, TableDefinition> tables,
                                StoreOptions options) {
        Directories.deleteRecursively(dir);
        try {
            Directories.createPrivate(dir);
            List<StoreManifest.TableMeta> metas = new ArrayList<>();
            TableLoader loader = new TableLoader(dir, PAGE_SIZE, FILL_FACTOR);
            long t0 = System.nanoTime();
            for (Map.Entry<String, TableDefinition> t : tables.entrySet()) {
                TableDefinition sorted = new TableDefinition(t.getValue().name(), t.getValue().schema(),
                        t.getValue().primaryKey(), t.getValue().indexes(), true); // readRows goes in key order
                RowCodec rows = new RowCodec(sorted.schema());
                try (TableLoader.Writer w = loader.open(sorted, true)) {
                    db.readRows(t.getKey(), (k, v) -> addRow(w, rows.decode(v)));
                    metas.add(w.finish());
                }
            }
            Directories.deleteRecursively(dir.resolve("tmp"));
            Map<String, Object> source = new LinkedHashMap<>();
            source.put("copyOf", "transactional tables");
            new StoreManifest(StoreManifest.FORMAT_VERSION, PAGE_SIZE, FILL_FACTOR, source, Instant.now().toString(),
                    (System.nanoTime() - t0) / 1e9, metas).write(dir);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException("cannot build an analytical copy in " + dir + ": " + e.getMessage(), e);
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("cannot build an analytical copy in " + dir + ": " + e.getMessage(), e);
        }
        Store store = Store.open(dir, options);
        Map<String, Copied> copied = new HashMap<>();
        try {
            for (Map.Entry<String, TableDefinition> t : tables.entrySet()) {
                TableDefinition def = t.getValue();
                store.startWriting(def.name()); // scans read the tree, which the commits change
                copied.put(t.getKey(), new Copied(def, new KeyCodec(def.schema().types(def.schema().indexesOf(def.primaryKey()))),
                        new RowCodec(def.schema()), store.writer(def.name(), SplitPolicy.PREFIX)));
            }
        } catch (RuntimeException e) {
            store.close();
            throw e;
        }
        return new AnalyticalCopy(store, copied);
    }

    private static void addRow(TableLoader.Writer w, Object[] row) {
        try {
            w.addRow(row);
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("cannot add a row to the analytical copy of " + w.definition().name(), e);
        }
    }

    /**
     * Applies {@code commits} in order and makes them seen: each changed table's trees are flushed
     * at the end. Changes to tables not copied are passed over.
     */
    void apply(List<ShippedCommit> commits) {
        for (String table : tablesChanged(commits)) {
            applyTable(table, commits);
        }
    }

    /** The copied transactional tables {@code commits} change. */
    java.util.Set<String> tablesChanged(List<ShippedCommit> commits) {
        java.util.Set<String> changed = new java.util.LinkedHashSet<>();
        for (ShippedCommit c : commits) {
            for (RowChange change : c.changes()) {
                if (byTransactionalName.containsKey(change.table())) {
                    changed.add(change.table());
                }
            }
        }
        return changed;
    }

    /**
     * Applies the changes {@code commits} make to transactional table {@code table}, in order, and
     * makes them seen by readers of its trees. Different tables may be applied at once, each by one
     * thread.
     */
    void applyTable(String table, List<ShippedCommit> commits) {
        Copied t = byTransactionalName.get(table);
        long added = 0;
        for (ShippedCommit c : commits) {
            for (RowChange change : c.changes()) {
                if (!change.table().equals(table)) {
                    continue;
                }
                if (change.isDelete()) {
                    if (t.writer().delete(t.keys().decode(change.key()))) {
                        added--;
                    }
                } else {
                    Object[] row = t.rows().decode(change.value());
                    if (!t.writer().update(row)) {
                        t.writer().insert(row);
                        added++;
                    }
                }
            }
        }
        // derived data, built anew at every start: seen by readers, neither synced nor recorded
        t.writer().flushUnsynced();
        store.wroteUnrecorded(t.def().name(), added);
    }

    /** The store queries read; pin the copy while reading it ({@link AnalyticalCopies#pin}). */
    Store store() {
        return store;
    }

    /** The name in the copy of transactional table {@code name}; null when it is not copied. */
    String copyTableOf(String name) {
        Copied t = byTransactionalName.get(name);
        return t == null ? null : t.def().name();
    }

    /** The rows of the copy's table for transactional table {@code name}, by the copy's count. */
    long rows(String name) {
        Copied t = byTransactionalName.get(name);
        return t == null ? 0 : store.table(t.def().name()).rows();
    }

    @Override
    public void close() {
        store.close();
    }
}
