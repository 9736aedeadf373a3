package org.oooengine.core.store;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.oooengine.core.storage.BTreeBuilder;
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

    public TableLoader(Path dir, int pageSize, double fillFactor) {
        this.dir = dir;
        this.pageSize = pageSize;
        this.fillFactor = fillFactor;
    }

    public StoreManifest.TableMeta load(TableDefinition def, Iterator<Object[]> rows, Progress progress) throws Exception {
        Schema schema = def.schema();
        int[] pk = schema.indexesOf(def.primaryKey());
        KeyCodec pkCodec = new KeyCodec(schema.types(pk));
        RowCodec rowCodec = new RowCodec(schema);
        String dataFile = def.name() + ".data";
        List<int[]> ixCols = new ArrayList<>();
        List<KeyCodec> ixCodecs = new ArrayList<>();
        List<ExternalSorter> ixSorters = new ArrayList<>();
        Path tmp = Files.createDirectories(dir.resolve("tmp"));
        byte[] empty = new byte[0];
        long count = 0;
        long dataBytes;
        try (BTreeBuilder data = new BTreeBuilder(dir.resolve(dataFile), pageSize, fillFactor);
             ExternalSorter rowSorter = def.inputSorted() ? null : new ExternalSorter(tmp, SORT_MEMORY_BYTES)) {
            for (TableDefinition.IndexDefinition ix : def.indexes()) {
                int[] cols = schema.indexesOf(ix.columns());
                DataType[] types = new DataType[cols.length + pk.length];
                System.arraycopy(schema.types(cols), 0, types, 0, cols.length);
                System.arraycopy(schema.types(pk), 0, types, cols.length, pk.length);
                ixCols.add(cols);
                ixCodecs.add(new KeyCodec(types));
                ixSorters.add(new ExternalSorter(tmp, SORT_MEMORY_BYTES));
            }
            while (rows.hasNext()) {
                Object[] row = rows.next();
                byte[] key = pkCodec.encode(pick(row, pk));
                byte[] value = rowCodec.encode(row);
                if (rowSorter == null) {
                    addRow(def, pkCodec, data, key, value);
                } else {
                    rowSorter.add(key, value);
                }
                for (int i = 0; i < ixCols.size(); i++) {
                    Object[] entry = new Object[ixCols.get(i).length + pk.length];
                    System.arraycopy(pick(row, ixCols.get(i)), 0, entry, 0, ixCols.get(i).length);
                    System.arraycopy(pick(row, pk), 0, entry, ixCols.get(i).length, pk.length);
                    ixSorters.get(i).add(ixCodecs.get(i).encode(entry), empty);
                }
                if (++count % PROGRESS_EVERY == 0) {
                    progress.rows(count);
                }
            }
            if (rowSorter != null) {
                for (Iterator<ExternalSorter.Entry> it = rowSorter.sorted(); it.hasNext(); ) {
                    ExternalSorter.Entry e = it.next();
                    addRow(def, pkCodec, data, e.key(), e.value());
                }
            }
            TreeMeta meta = data.finish();
            dataBytes = (meta.leafCount() + 1) * (long) pageSize;
            progress.rows(count);
        }
        List<StoreManifest.IndexMeta> indexes = new ArrayList<>();
        for (int i = 0; i < ixSorters.size(); i++) {
            TableDefinition.IndexDefinition ix = def.indexes().get(i);
            String file = def.name() + "." + ix.name() + ".idx";
            try (ExternalSorter sorter = ixSorters.get(i);
                 BTreeBuilder b = new BTreeBuilder(dir.resolve(file), pageSize, fillFactor)) {
                for (Iterator<ExternalSorter.Entry> it = sorter.sorted(); it.hasNext(); ) {
                    ExternalSorter.Entry e = it.next();
                    b.add(e.key(), e.value());
                }
                indexes.add(new StoreManifest.IndexMeta(ix.name(), ix.columns(), b.finish().entryCount(), file));
            }
        }
        List<StoreManifest.ColumnMeta> cols = schema.columns().stream()
                .map(c -> new StoreManifest.ColumnMeta(c.name(), c.type().toString())).toList();
        return new StoreManifest.TableMeta(def.name(), cols, def.primaryKey(), count, dataBytes, dataFile, indexes);
    }

    /** Adds a row to the clustered tree, naming the key when the input repeats a primary key. */
    private static void addRow(TableDefinition def, KeyCodec pkCodec, BTreeBuilder data, byte[] key, byte[] value) {
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

    private static Object[] pick(Object[] row, int[] cols) {
        Object[] out = new Object[cols.length];
        for (int i = 0; i < cols.length; i++) {
            out[i] = row[cols[i]];
        }
        return out;
    }
}
