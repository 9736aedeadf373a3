package org.oooengine.core.store;

import java.io.Closeable;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Predicate;
import org.oooengine.core.storage.BTreeWriter;
import org.oooengine.core.storage.BufferPool;
import org.oooengine.core.storage.SplitPolicy;
import org.oooengine.core.types.DataType;
import org.oooengine.core.types.KeyCodec;
import org.oooengine.core.types.RowCodec;
import org.oooengine.core.types.Schema;

/**
 * Rows written into a loaded table in place: its clustered tree and each secondary index (keys of
 * the index columns then the primary key, empty values) kept together — an insert adds an index
 * entry, an update moves the entries whose columns changed, a delete removes them. Each tree's
 * flush is atomic on its own; a change of several trees at once is the transactional layer's.
 * The table's columnar copy is not kept up to date: queries over a written table read its tree.
 */
public final class TableWriter implements Closeable {
    private final TableDefinition def;
    private final int[] pk;
    private final KeyCodec pkCodec;
    private final RowCodec rowCodec;
    private final BTreeWriter data;
    private final List<Index> indexes = new ArrayList<>();
    /** Rows were deleted since the last flush. */
    private boolean deleted;

    private record Index(String name, int[] columns, KeyCodec codec, BTreeWriter tree) {
    }

    private TableWriter(TableDefinition def, BTreeWriter data) {
        this.def = def;
        Schema schema = def.schema();
        this.pk = schema.indexesOf(def.primaryKey());
        this.pkCodec = new KeyCodec(schema.types(pk));
        this.rowCodec = new RowCodec(schema);
        this.data = data;
    }

    /**
     * Opens table {@code table} of the store in {@code dir} (its files as its manifest entry names
     * them) for writing, its leaves splitting by {@code policy}, every tree read through {@code pool}
     * (null: from the files directly).
     */
    public static TableWriter open(Path dir, StoreManifest.TableMeta table, SplitPolicy policy, BufferPool pool) {
        return open(dir, table, policy, SplitPolicy.RUN_FILL, pool);
    }

    /** As above, the clustered tree's runs filling their pages to {@code runFill} (its rows' room to grow). */
    public static TableWriter open(Path dir, StoreManifest.TableMeta table, SplitPolicy policy, double runFill,
                                   BufferPool pool) {
        TableDefinition def = table.definition();
        Schema schema = def.schema();
        KeyCodec pkCodec = new KeyCodec(schema.types(schema.indexesOf(def.primaryKey())));
        TableWriter w = new TableWriter(def, BTreeWriter.open(StoreFiles.resolve(dir, table.file()), policy, runFill,
                def.primaryKey().size(), pkCodec::sharedColumns, pool));
        try {
            for (int i = 0; i < def.indexes().size(); i++) {
                TableDefinition.IndexDefinition ix = def.indexes().get(i);
                int[] cols = schema.indexesOf(ix.columns());
                DataType[] types = new DataType[cols.length + w.pk.length];
                System.arraycopy(schema.types(cols), 0, types, 0, cols.length);
                System.arraycopy(schema.types(w.pk), 0, types, cols.length, w.pk.length);
                KeyCodec codec = new KeyCodec(types);
                Path file = StoreFiles.resolve(dir, table.indexes().get(i).file());
                w.indexes.add(new Index(ix.name(), cols, codec, BTreeWriter.open(file, policy, types.length,
                        codec::sharedColumns, pool)));
            }
        } catch (RuntimeException e) {
            w.close();
            throw e;
        }
        return w;
    }

    /**
     * Opens a table a store has open for writing in place: each flush of its trees is published to
     * the store's readers ({@link BTreeWriter#over}).
     */
    public static TableWriter over(Table table, SplitPolicy policy, double runFill) {
        List<TableDefinition.IndexDefinition> ixs = new ArrayList<>();
        table.indexes().values().forEach(ix -> ixs.add(new TableDefinition.IndexDefinition(ix.name(), ix.columns(),
                ix.scope())));
        TableDefinition def = new TableDefinition(table.name(), table.schema(), table.primaryKey(), ixs, false);
        TableWriter w = new TableWriter(def, BTreeWriter.over(table.tree(), policy, runFill, table.primaryKey().size(),
                table.keyCodec()::sharedColumns));
        try {
            for (SecondaryIndex ix : table.indexes().values()) {
                w.indexes.add(new Index(ix.name(), ix.columnPositions(), ix.codec(), BTreeWriter.over(ix.tree(), policy,
                        SplitPolicy.RUN_FILL, ix.codec().columns(), ix.codec()::sharedColumns)));
            }
        } catch (RuntimeException e) {
            w.close();
            throw e;
        }
        return w;
    }

    /** The table's trees by name: {@link TreeReport#DATA} for the clustered tree, then each index's. */
    public java.util.Map<String, BTreeWriter> trees() {
        java.util.Map<String, BTreeWriter> all = new java.util.LinkedHashMap<>();
        all.put(TreeReport.DATA, data);
        indexes.forEach(ix -> all.put(ix.name(), ix.tree()));
        return all;
    }

    /** Forgets every write since the last flush, in every tree of the table. */
    public void discard() {
        deleted = false;
        data.discard();
        indexes.forEach(ix -> ix.tree().discard());
    }

    public BTreeWriter data() {
        return data;
    }

    /** Pages the table's trees went through so far ({@link BTreeWriter#pageAccesses}). */
    public long pageAccesses() {
        return data.pageAccesses() + indexes.stream().mapToLong(ix -> ix.tree().pageAccesses()).sum();
    }

    /** Pages the table's trees read from their files so far ({@link BTreeWriter#pagesRead}). */
    public long pagesRead() {
        return data.pagesRead() + indexes.stream().mapToLong(ix -> ix.tree().pagesRead()).sum();
    }

    /** Adds a row; a row with its primary key there already is refused, naming the table and the key. */
    public void insert(Object[] row) {
        byte[] key = pkCodec.encode(pick(row, pk));
        if (data.get(key) != null) {
            throw new IllegalArgumentException("duplicate primary key " + Arrays.toString(pick(row, pk)) + " in table "
                    + def.name() + ": a row with it is there already");
        }
        data.put(key, rowCodec.encode(row));
        for (Index ix : indexes) {
            ix.tree().put(indexKey(ix, row), new byte[0]);
        }
    }

    /** Replaces the row of {@code row}'s primary key; false when there is none. */
    public boolean update(Object[] row) {
        byte[] key = pkCodec.encode(pick(row, pk));
        byte[] old = data.get(key);
        if (old == null) {
            return false;
        }
        Object[] before = rowCodec.decode(old);
        for (Index ix : indexes) {
            byte[] was = indexKey(ix, before);
            byte[] now = indexKey(ix, row);
            if (!Arrays.equals(was, now)) {
                ix.tree().delete(was);
                ix.tree().put(now, new byte[0]);
            }
        }
        data.put(key, rowCodec.encode(row));
        return true;
    }

    /** Deletes the row of primary key {@code key}; false when there is none. */
    public boolean delete(Object... key) {
        byte[] k = pkCodec.encode(key);
        byte[] old = data.get(k);
        if (old == null) {
            return false;
        }
        Object[] before = rowCodec.decode(old);
        for (Index ix : indexes) {
            ix.tree().delete(indexKey(ix, before));
        }
        data.delete(k);
        deleted = true;
        return true;
    }

    /** The row of primary key {@code key}, or null. */
    public Object[] get(Object... key) {
        byte[] value = data.get(pkCodec.encode(key));
        return value == null ? null : rowCodec.decode(value);
    }

    /** The rows whose primary key starts with {@code prefix}, in key order, until {@code visitor} returns false. */
    public void scan(Object[] prefix, Predicate<Object[]> visitor) {
        byte[] from = pkCodec.encodePrefix(prefix, prefix.length);
        data.scan(from, KeyCodec.successor(from), (k, v) -> visitor.test(rowCodec.decode(v)));
    }

    /**
     * The rows whose values of index {@code index}'s columns start with {@code prefix}, in the
     * index's order, until {@code visitor} returns false.
     */
    public void scanIndex(String index, Object[] prefix, Predicate<Object[]> visitor) {
        Index ix = indexes.stream().filter(i -> i.name().equals(index)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("table " + def.name() + " has no index " + index));
        byte[] from = ix.codec().encodePrefix(prefix, prefix.length);
        ix.tree().scan(from, KeyCodec.successor(from), (k, v) -> {
            Object[] entry = ix.codec().decode(k);
            Object[] key = Arrays.copyOfRange(entry, ix.columns().length, entry.length);
            return visitor.test(get(key));
        });
    }

    /**
     * Makes every write so far durable and seen, tree by tree: after deletes the indexes first, so
     * that no index entry a reader finds leads to a row already gone; else the rows first, so that
     * every new index entry leads to its row. (Readers that fetch rows through an index of a
     * written table still take a missing row for one deleted meanwhile.)
     */
    public void flush() {
        for (BTreeWriter tree : flushOrder()) {
            tree.flush();
        }
        deleted = false;
    }

    /**
     * Makes the writes so far seen by the table's readers without making them durable ({@link
     * BTreeWriter#flushUnsynced}): for tables built anew after a crash, never recovered.
     */
    public void flushUnsynced() {
        for (BTreeWriter tree : flushOrder()) {
            tree.flushUnsynced();
        }
        deleted = false;
    }

    /** The trees in the order {@link #flush} writes them. */
    private List<BTreeWriter> flushOrder() {
        List<BTreeWriter> order = new ArrayList<>();
        if (!deleted) {
            order.add(data);
        }
        indexes.forEach(ix -> order.add(ix.tree()));
        if (deleted) {
            order.add(data);
        }
        return order;
    }

    /** A tree's images of a flush to come ({@link BTreeWriter#pendingFlush}), with the tree's writer. */
    public record TreeFlush(BTreeWriter tree, BTreeWriter.Flush flush) {
    }

    /**
     * What {@link #flush} would write now, tree by tree in its order (trees with nothing to write
     * left out), computed without writing anything: {@link #write} writes it.
     */
    public List<TreeFlush> pendingFlushes() {
        List<TreeFlush> out = new ArrayList<>();
        for (BTreeWriter tree : flushOrder()) {
            BTreeWriter.Flush f = tree.pendingFlush();
            if (f != null) {
                out.add(new TreeFlush(tree, f));
            }
        }
        return out;
    }

    /**
     * Writes what {@link #pendingFlushes} computed, tree by tree in its order: a flush of those
     * writes, each tree's atomic through its redo log.
     */
    public void write(List<TreeFlush> flushes) {
        for (TreeFlush f : flushes) {
            f.tree().write(f.flush());
        }
        deleted = false;
    }

    /**
     * As {@link #write}, for flushes the caller keeps durable in a journal of its own until this
     * returns (and writes again after a crash): no redo log ({@link BTreeWriter#writeJournaled}).
     */
    public void writeJournaled(List<TreeFlush> flushes) {
        for (TreeFlush f : flushes) {
            f.tree().writeJournaled(f.flush());
        }
        deleted = false;
    }

    private byte[] indexKey(Index ix, Object[] row) {
        Object[] values = new Object[ix.columns().length + pk.length];
        for (int i = 0; i < ix.columns().length; i++) {
            values[i] = row[ix.columns()[i]];
        }
        for (int i = 0; i < pk.length; i++) {
            values[ix.columns().length + i] = row[pk[i]];
        }
        return ix.codec().encode(values);
    }

    private static Object[] pick(Object[] row, int[] cols) {
        Object[] out = new Object[cols.length];
        for (int i = 0; i < cols.length; i++) {
            out[i] = row[cols[i]];
        }
        return out;
    }

    @Override
    public void close() {
        data.close();
        indexes.forEach(ix -> ix.tree().close());
    }
}
