package org.oooengine.core.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.oooengine.core.storage.Directories;
import org.oooengine.core.storage.LeafScanner;
import org.oooengine.core.store.IndexScope;
import org.oooengine.core.store.Store;
import org.oooengine.core.store.StoreFiles;
import org.oooengine.core.store.StoreManifest;
import org.oooengine.core.store.Table;
import org.oooengine.core.store.TableDefinition;
import org.oooengine.core.store.TableLoader;
import org.oooengine.core.types.RowCodec;

/**
 * A node's side of a load: rows arrive table by table and are written into a staging directory;
 * the commit writes its manifest, and only then does it replace the node's store.
 *
 * <p>A load either replaces the whole store, or changes some tables of it: then the tables it
 * does not touch are carried over (their files hard-linked into the staging directory, so nothing
 * is copied), a table begun anew replaces its old version, an appended table starts from its old
 * rows, and a dropped table is left out.
 */
final class LoadSession implements AutoCloseable {
    /** Pages of a store created by a table write on a node that has none yet (as {@code ooo load} writes them). */
    static final int DEFAULT_PAGE_SIZE = 8192;
    static final double DEFAULT_FILL_FACTOR = 1.0;
    private final Path staging;
    private final int pageSize;
    private final double fillFactor;
    private final TableLoader loader;
    private final Store current;
    private final Map<String, StoreManifest.TableMeta> carried = new LinkedHashMap<>();
    private final Map<String, TableLoader.Writer> writers = new LinkedHashMap<>();
    private final Map<String, RowCodec> codecs = new LinkedHashMap<>();
    private final List<StoreManifest.TableMeta> tables = new ArrayList<>();
    /** Tables being copied from another node's files, by stored name. */
    private final Map<String, CopiedTable> copies = new LinkedHashMap<>();
    private final long started = System.nanoTime();

    /**
     * @param current   the store being served, whose other tables this load keeps; null for a load
     *                  that replaces the whole store (or a node without one)
     * @param replacing tables of {@code current} this load writes anew (the others are carried over)
     */
    LoadSession(Path staging, int pageSize, double fillFactor, long sortMemoryBytes, Store current,
                Collection<String> replacing) {
        Directories.deleteRecursively(staging);
        try {
            Directories.createPrivate(staging);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + staging, e);
        }
        if (current != null) {
            for (StoreManifest.TableMeta t : current.manifest().tables()) {
                if (!replacing.contains(t.name())) {
                    carried.put(t.name(), t);
                }
            }
        }
        // One store has one page size: tables carried over keep theirs.
        if (!carried.isEmpty() && current.manifest().pageSize() != pageSize) {
            throw new IllegalArgumentException("this node's store has " + current.manifest().pageSize()
                    + "-byte pages and tables " + carried.keySet() + " that stay; load with that page size, or drop them first");
        }
        this.staging = staging;
        this.current = current;
        this.pageSize = pageSize;
        this.fillFactor = fillFactor;
        this.loader = new TableLoader(staging, pageSize, fillFactor, sortMemoryBytes);
    }

    /** Starts writing {@code def}; with {@code append}, its rows on this node are written again first. */
    void begin(TableDefinition def, boolean append) throws Exception {
        if (writers.containsKey(def.name())) {
            throw new IllegalStateException("table " + def.name() + " is already being loaded");
        }
        TableLoader.Writer w = loader.open(def, false);
        writers.put(def.name(), w);
        codecs.put(def.name(), new RowCodec(def.schema()));
        carried.remove(def.name());
        if (append && current != null && current.tables().containsKey(def.name())) {
            copyRows(current.table(def.name()), def, w);
        }
    }

    /**
     * The old rows of an appended table. Entries of a GLOBAL index this node holds come from rows
     * on other nodes and cannot be rebuilt from this partition alone, so such tables are refused.
     */
    private static void copyRows(Table old, TableDefinition def, TableLoader.Writer w) {
        if (!old.schema().columns().equals(def.schema().columns()) || !old.primaryKey().equals(def.primaryKey())) {
            throw new IllegalArgumentException("cannot append to " + def.name() + ": its stored columns "
                    + old.schema().columns() + " differ from " + def.schema().columns());
        }
        if (def.indexes().stream().anyMatch(ix -> ix.scope() == IndexScope.GLOBAL)) {
            throw new IllegalArgumentException("cannot append to " + def.name() + ": it has a GLOBAL index");
        }
        LeafScanner.forEachLeaf(old.tree(), leaf -> {
            for (int i = 0; i < leaf.count(); i++) {
                try {
                    w.addRow(old.decodeRow(leaf.value(i)));
                } catch (Exception e) {
                    throw new IllegalStateException("copying the rows of " + def.name() + " failed: " + e.getMessage(), e);
                }
            }
        });
    }

    /**
     * Starts a copy of another node's table as {@code stored} here: its files arrive as they are
     * there ({@link #writeCopied}), under names of this store's own.
     */
    void beginCopy(String stored, StoredTableFiles source) {
        if (source.pageSize() != pageSize) {
            throw new IllegalArgumentException("table " + source.table().name() + " has " + source.pageSize()
                    + "-byte pages and this node's store " + pageSize + "-byte ones");
        }
        if (writers.containsKey(stored) || copies.containsKey(stored)) {
            throw new IllegalStateException("table " + stored + " is already being loaded");
        }
        copies.put(stored, CopiedTable.of(stored, source));
        carried.remove(stored);
    }

    /** {@code bytes} of the source's {@code file} of the table being copied as {@code stored}, at {@code offset}. */
    void writeCopied(String stored, String file, long offset, byte[] bytes) throws IOException {
        Path target = StoreFiles.resolve(staging, copy(stored).local(file));
        try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(target,
                java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.WRITE)) {
            java.nio.ByteBuffer buf = java.nio.ByteBuffer.wrap(bytes);
            while (buf.hasRemaining()) {
                ch.write(buf, offset + buf.position());
            }
        }
    }

    /**
     * Ends the copy of {@code stored}: each file must be as long as the source said, and is synced.
     * Returns its rows.
     */
    long finishCopy(String stored) throws IOException {
        CopiedTable c = copy(stored);
        for (Map.Entry<String, Long> f : c.source().fileBytes().entrySet()) {
            Path target = StoreFiles.resolve(staging, c.local(f.getKey()));
            if (f.getValue() == 0 && !Files.exists(target)) {
                Files.createFile(target);
            }
            try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(target,
                    java.nio.file.StandardOpenOption.WRITE)) {
                if (ch.size() != f.getValue()) {
                    throw new IllegalStateException("the copy of table " + stored + " has " + ch.size() + " bytes of "
                            + f.getKey() + " where its source has " + f.getValue());
                }
                ch.force(true);
            }
        }
        copies.remove(stored);
        tables.add(c.meta());
        return c.meta().rows();
    }

    private CopiedTable copy(String stored) {
        CopiedTable c = copies.get(stored);
        if (c == null) {
            throw new IllegalStateException("table " + stored + " is not being copied in this load");
        }
        return c;
    }

    /** A table copied from another node: its entry here (files renamed), and each source file's name here. */
    private record CopiedTable(StoredTableFiles source, StoreManifest.TableMeta meta, Map<String, String> localNames) {
        static CopiedTable of(String stored, StoredTableFiles source) {
            StoreManifest.TableMeta m = source.table();
            String id = StoreFiles.newTableId(stored);
            Map<String, String> names = new LinkedHashMap<>();
            String file = m.file() == null ? null : rename(names, m.file(), StoreFiles.dataFile(id));
            List<StoreManifest.IndexMeta> indexes = new ArrayList<>();
            for (int i = 0; i < m.indexes().size(); i++) {
                StoreManifest.IndexMeta ix = m.indexes().get(i);
                indexes.add(new StoreManifest.IndexMeta(ix.name(), ix.columns(), ix.entries(),
                        ix.file() == null ? null : rename(names, ix.file(), StoreFiles.indexFile(id, i)), ix.scope()));
            }
            String columns = m.columnsFile() == null ? null : rename(names, m.columnsFile(), StoreFiles.columnsFile(id));
            return new CopiedTable(source, new StoreManifest.TableMeta(stored, m.columns(), m.primaryKey(), m.rows(),
                    m.dataBytes(), file, indexes, columns, m.columnRanges()), names);
        }

        private static String rename(Map<String, String> names, String from, String to) {
            names.put(from, to);
            return to;
        }

        String local(String sourceFile) {
            String name = localNames.get(sourceFile);
            if (name == null) {
                throw new IllegalArgumentException("file " + sourceFile + " is not one of table " + meta.name() + "'s");
            }
            return name;
        }
    }

    /** Leaves {@code table} out of the committed store (no error when there is none). */
    void drop(String table) {
        carried.remove(table);
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

    /**
     * Links the carried tables' files into the staging directory, writes the manifest there and
     * returns it; the caller swaps directories.
     */
    StoreManifest commit(Map<String, Object> source) throws IOException {
        if (!writers.isEmpty() || !copies.isEmpty()) {
            throw new IllegalStateException("tables not finished: " + writers.keySet() + " " + copies.keySet());
        }
        Directories.deleteRecursively(staging.resolve("tmp"));
        List<StoreManifest.TableMeta> all = new ArrayList<>();
        for (StoreManifest.TableMeta t : carried.values()) {
            link(t.file());
            t.indexes().forEach(ix -> link(ix.file()));
            if (t.columnsFile() != null) {
                link(t.columnsFile());
            }
            all.add(t);
        }
        all.addAll(tables);
        // A change of some tables keeps the description of where the store came from.
        Map<String, Object> from = current != null && source.isEmpty() ? current.manifest().source() : source;
        StoreManifest m = new StoreManifest(StoreManifest.FORMAT_VERSION, pageSize, fillFactor, from,
                Instant.now().toString(), (System.nanoTime() - started) / 1e9, all);
        m.write(staging);
        return m;
    }

    /** Tables written by this load (the others are carried over unchanged). */
    List<String> changedTables() {
        return tables.stream().map(StoreManifest.TableMeta::name).toList();
    }

    private void link(String file) {
        Path target = StoreFiles.resolve(current.dir(), file);
        Path link = StoreFiles.resolve(staging, file);
        try {
            Files.createLink(link, target);
        } catch (UnsupportedOperationException | IOException e) {
            try {
                Files.copy(target, link);
            } catch (IOException copy) {
                throw new UncheckedIOException("cannot carry " + target + " into " + staging, copy);
            }
        }
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
