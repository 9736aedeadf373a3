package org.oooengine.core.store;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.oooengine.core.columnar.ColumnarWriter;
import org.oooengine.core.storage.BTreeBuilder;
import org.oooengine.core.storage.Directories;
import org.oooengine.core.storage.ExternalSorter;
import org.oooengine.core.storage.TreeMeta;
import org.oooengine.core.types.DataType;
import org.oooengine.core.types.KeyCodec;
import org.oooengine.core.types.RowCodec;
import org.oooengine.core.types.Schema;

/**
 * Bulk-loads one table into a store directory: the clustered tree from rows in primary-key order
 * (sorted first when the input is not), and each secondary index from its sorted entries.
 */
public final class TableLoader {
    /** Receives the number of rows consumed so far. */
    @FunctionalInterface
    public interface Progress {
        void rows(long done);
    }

    private static final long SORT_MEMORY_BYTES = 128L << 20;
    private static final int PROGRESS_EVERY = 50_000;

    private final Path dir;
    private final int pageSize;
    private final double fillFactor;
    private final long sortMemoryBytes;

    public TableLoader(Path dir, int pageSize, double fillFactor) {
        this(dir, pageSize, fillFactor, SORT_MEMORY_BYTES);
    }

    /** @param sortMemoryBytes memory each sorter (rows, every index) may hold before it spills */
    public TableLoader(Path dir, int pageSize, double fillFactor, long sortMemoryBytes) {
        this.dir = dir;
        this.pageSize = pageSize;
        this.fillFactor = fillFactor;
        this.sortMemoryBytes = sortMemoryBytes;
    }

    /** Loads every row with every index entry: the whole table in one store. */
    public StoreManifest.TableMeta load(TableDefinition def, Iterator<Object[]> rows, Progress progress) throws Exception {
        try (Writer w = open(def, true)) {
            long count = 0;
            while (rows.hasNext()) {
                w.addRow(rows.next());
                if (++count % PROGRESS_EVERY == 0) {
                    progress.rows(count);
                }
            }
            progress.rows(count);
            return w.finish();
        }
    }

    /**
     * A writer rows are pushed into.
     *
     * @param globalEntriesWithRows whether {@link Writer#addRow} also adds the row's entries of
     *                              {@link IndexScope#GLOBAL} indexes (true for an unpartitioned table;
     *                              false when a partitioner sends them by key with {@link Writer#addIndexEntry})
     */
    public Writer open(TableDefinition def, boolean globalEntriesWithRows) throws Exception {
        return new Writer(def, globalEntriesWithRows);
    }

    /** Builds one table's files; {@link #finish} sorts what needs sorting and writes the trees. */
    public final class Writer implements AutoCloseable {
        private final TableDefinition def;
        private final int[] pk;
        private final KeyCodec pkCodec;
        private final RowCodec rowCodec;
        private final List<int[]> ixCols = new ArrayList<>();
        private final List<KeyCodec> ixCodecs = new ArrayList<>();
        private final List<ExternalSorter> ixSorters = new ArrayList<>();
        private final boolean[] entriesWithRow;
        private final BTreeBuilder data;
        private final ColumnarWriter columns;
        private final ExternalSorter rowSorter;
        private final byte[] empty = new byte[0];
        /** The stem of this table version's files: an internal id ({@link StoreFiles#newTableId}). */
        private final String id;
        private long count;
        private boolean finished;

        private Writer(TableDefinition def, boolean globalEntriesWithRows) throws Exception {
            this.def = def;
            this.id = StoreFiles.newTableId(def.name());
            Schema schema = def.schema();
            this.pk = schema.indexesOf(def.primaryKey());
            this.pkCodec = new KeyCodec(schema.types(pk));
            this.rowCodec = new RowCodec(schema);
            Path tmp = Directories.createPrivate(dir.resolve("tmp"));
            this.entriesWithRow = new boolean[def.indexes().size()];
            for (int i = 0; i < def.indexes().size(); i++) {
                TableDefinition.IndexDefinition ix = def.indexes().get(i);
                int[] cols = schema.indexesOf(ix.columns());
                DataType[] types = new DataType[cols.length + pk.length];
                System.arraycopy(schema.types(cols), 0, types, 0, cols.length);
                System.arraycopy(schema.types(pk), 0, types, cols.length, pk.length);
                ixCols.add(cols);
                ixCodecs.add(new KeyCodec(types));
                ixSorters.add(new ExternalSorter(tmp, sortMemoryBytes));
                entriesWithRow[i] = globalEntriesWithRows || ix.scope() == IndexScope.LOCAL;
            }
            this.data = new BTreeBuilder(StoreFiles.resolve(dir, StoreFiles.dataFile(id)), pageSize, fillFactor);
            this.columns = new ColumnarWriter(StoreFiles.resolve(dir, StoreFiles.columnsFile(id)), schema);
            this.rowSorter = def.inputSorted() ? null : new ExternalSorter(tmp, sortMemoryBytes);
        }

        public TableDefinition definition() {
            return def;
        }

        /** Adds a row to the clustered tree, with its entries of the indexes that travel with rows. */
        public void addRow(Object[] row) throws Exception {
            byte[] key = pkCodec.encode(pick(row, pk));
            byte[] value = rowCodec.encode(row);
            if (rowSorter == null) {
                addToTree(key, value);
                columns.add(row.clone());
            } else {
                rowSorter.add(key, value);
            }
            for (int i = 0; i < ixCols.size(); i++) {
                if (entriesWithRow[i]) {
                    addIndexEntry(i, row);
                }
            }
            count++;
        }

        /** Adds the entry of index {@code index} (position in the definition) for a row stored elsewhere. */
        public void addIndexEntry(int index, Object[] row) throws Exception {
            int[] cols = ixCols.get(index);
            Object[] entry = new Object[cols.length + pk.length];
            for (int c = 0; c < cols.length; c++) {
                entry[c] = row[cols[c]];
            }
            for (int c = 0; c < pk.length; c++) {
                entry[cols.length + c] = row[pk[c]];
            }
            ixSorters.get(index).add(ixCodecs.get(index).encode(entry), empty);
        }

        public StoreManifest.TableMeta finish() throws Exception {
            finished = true;
            if (rowSorter != null) {
                for (Iterator<ExternalSorter.Entry> it = rowSorter.sorted(); it.hasNext(); ) {
                    ExternalSorter.Entry e = it.next();
                    addToTree(e.key(), e.value());
                    columns.add(rowCodec.decode(e.value()));
                }
            }
            TreeMeta meta = data.finish();
            columns.finish();
            long dataBytes = (meta.leafCount() + 1) * (long) pageSize;
            List<StoreManifest.IndexMeta> indexes = new ArrayList<>();
            for (int i = 0; i < ixSorters.size(); i++) {
                TableDefinition.IndexDefinition ix = def.indexes().get(i);
                String file = StoreFiles.indexFile(id, i);
                try (BTreeBuilder b = new BTreeBuilder(StoreFiles.resolve(dir, file), pageSize, fillFactor)) {
                    for (Iterator<ExternalSorter.Entry> it = ixSorters.get(i).sorted(); it.hasNext(); ) {
                        b.add(it.next().key(), empty);
                    }
                    indexes.add(new StoreManifest.IndexMeta(ix.name(), ix.columns(), b.finish().entryCount(), file,
                            ix.scope()));
                }
            }
            List<StoreManifest.ColumnMeta> cols = def.schema().columns().stream()
                    .map(c -> new StoreManifest.ColumnMeta(c.name(), c.type().toString())).toList();
            Map<String, List<Long>> ranges = new java.util.LinkedHashMap<>();
            for (int c = 0; c < def.schema().size(); c++) {
                long[] range = columns.range(c);
                if (range != null) {
                    ranges.put(def.schema().columns().get(c).name(), List.of(range[0], range[1]));
                }
            }
            return new StoreManifest.TableMeta(def.name(), cols, def.primaryKey(), count, dataBytes,
                    StoreFiles.dataFile(id), indexes, StoreFiles.columnsFile(id), ranges);
        }

        @Override
        public void close() throws Exception {
            Exception first = null;
            for (AutoCloseable c : closeables()) {
                try {
                    c.close();
                } catch (Exception e) {
                    first = first == null ? e : first;
                }
            }
            if (first != null && finished) {
                throw first;
            }
        }

        private List<AutoCloseable> closeables() {
            List<AutoCloseable> all = new ArrayList<>(ixSorters);
            all.add(data);
            all.add(columns);
            if (rowSorter != null) {
                all.add(rowSorter);
            }
            return all;
        }

        /** Adds a row to the clustered tree, naming the key when the input repeats a primary key. */
        private void addToTree(byte[] key, byte[] value) {
            try {
                data.add(key, value);
            } catch (IllegalArgumentException e) {
                if (e.getMessage().contains("(duplicate key)")) {
                    throw new IllegalArgumentException("duplicate primary key " + def.primaryKey() + " = "
                            + java.util.Arrays.toString(pkCodec.decode(key)) + " in table " + def.name(), e);
                }
                throw e;
            }
        }
    }

    private static Object[] pick(Object[] row, int[] cols) {
        Object[] out = new Object[cols.length];
        for (int i = 0; i < cols.length; i++) {
            out[i] = row[cols[i]];
        }
        return out;
    }
}
