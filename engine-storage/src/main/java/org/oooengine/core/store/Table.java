package org.oooengine.core.store;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.oooengine.core.columnar.ColumnarFile;
import org.oooengine.core.storage.BTree;
import org.oooengine.core.storage.Page;
import org.oooengine.core.types.KeyCodec;
import org.oooengine.core.types.RowCodec;
import org.oooengine.core.types.Schema;

/** A table partition: a B+tree clustered on the primary key, plus its secondary indexes. */
public final class Table {
    private final String name;
    private final Schema schema;
    private final List<String> primaryKey;
    private final int[] primaryKeyPositions;
    private final KeyCodec keyCodec;
    private final RowCodec rowCodec;
    private final BTree tree;
    private final Map<String, SecondaryIndex> indexes;
    private final java.util.concurrent.atomic.AtomicLong rows;
    private final ColumnarFile columns;
    /** Set once rows were written in place: the columnar copy no longer holds them. */
    private volatile boolean written;
    /** Statements that wrote rows in place, since the store was opened. */
    private final java.util.concurrent.atomic.AtomicLong writes = new java.util.concurrent.atomic.AtomicLong();

    Table(String name, Schema schema, List<String> primaryKey, BTree tree, Map<String, SecondaryIndex> indexes, long rows,
          ColumnarFile columns) {
        this.columns = columns;
        this.name = name;
        this.schema = schema;
        this.primaryKey = List.copyOf(primaryKey);
        this.primaryKeyPositions = schema.indexesOf(primaryKey);
        this.keyCodec = new KeyCodec(schema.types(primaryKeyPositions));
        this.rowCodec = new RowCodec(schema);
        this.tree = tree;
        this.indexes = Map.copyOf(indexes);
        this.rows = new java.util.concurrent.atomic.AtomicLong(rows);
    }

    public String name() {
        return name;
    }

    public Schema schema() {
        return schema;
    }

    public List<String> primaryKey() {
        return primaryKey;
    }

    public int[] primaryKeyPositions() {
        return primaryKeyPositions.clone();
    }

    public KeyCodec keyCodec() {
        return keyCodec;
    }

    public BTree tree() {
        return tree;
    }

    public long rows() {
        return rows.get();
    }

    /**
     * The partition's columnar copy, which scans read; empty in stores written before copies
     * existed and once rows were written in place (scans read the tree then).
     */
    public Optional<ColumnarFile> columnar() {
        return written ? Optional.empty() : Optional.ofNullable(columns);
    }

    /** Whether rows were written in place since the partition was loaded. */
    public boolean written() {
        return written;
    }

    /** Rows were written in place, {@code delta} more (or fewer) than before (0: about to be). */
    void wrote(long delta) {
        written = true;
        rows.addAndGet(delta);
        writes.incrementAndGet();
    }

    /** Statements that wrote rows in place since the store was opened. */
    public long writes() {
        return writes.get();
    }

    public Map<String, SecondaryIndex> indexes() {
        return indexes;
    }

    public SecondaryIndex index(String indexName) {
        SecondaryIndex ix = indexes.get(indexName);
        if (ix == null) {
            throw new IllegalArgumentException("table " + name + " has no index '" + indexName + "'; indexes: "
                    + indexes.keySet());
        }
        return ix;
    }

    /** An index whose first column is {@code column}, if any. */
    public Optional<SecondaryIndex> indexLeadingWith(String column) {
        return indexes.values().stream().filter(ix -> ix.columns().get(0).equals(column)).findFirst();
    }

    public byte[] primaryKeyPrefix(Object... leadingValues) {
        return keyCodec.encodePrefix(leadingValues, leadingValues.length);
    }

    public Object[] rowAt(Page leaf, int slot) {
        return rowCodec.decode(leaf.value(slot));
    }

    /** Decodes only the wanted columns of the row at a leaf slot (see {@link RowCodec#decode(byte[], int, boolean[])}). */
    public Object[] rowAt(Page leaf, int slot, boolean[] wanted) {
        return rowCodec.decode(leaf.value(slot), 0, wanted);
    }

    public Object[] decodeRow(byte[] value) {
        return rowCodec.decode(value);
    }

    public Object[] decodeRow(byte[] value, boolean[] wanted) {
        return rowCodec.decode(value, 0, wanted);
    }

    /** A column mask for {@link #decodeRow(byte[], boolean[])}: true at each given position. */
    public boolean[] columnMask(int... positions) {
        boolean[] mask = new boolean[schema.size()];
        for (int p : positions) {
            mask[p] = true;
        }
        return mask;
    }
}
