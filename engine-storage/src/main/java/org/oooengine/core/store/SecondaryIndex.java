package org.oooengine.core.store;

import java.util.List;
import org.oooengine.core.storage.BTree;
import org.oooengine.core.storage.Page;
import org.oooengine.core.types.KeyCodec;

/**
 * A secondary index: a B+tree whose keys are (index columns..., primary key columns...) with empty
 * values; the primary key leads to the row in the table's clustered tree.
 */
public final class SecondaryIndex {
    private final String name;
    private final List<String> columns;
    private final int[] columnPositions;
    private final KeyCodec codec;
    private final BTree tree;
    private final IndexScope scope;

    SecondaryIndex(String name, List<String> columns, int[] columnPositions, KeyCodec codec, BTree tree, IndexScope scope) {
        this.name = name;
        this.scope = scope;
        this.columns = List.copyOf(columns);
        this.columnPositions = columnPositions;
        this.codec = codec;
        this.tree = tree;
    }

    public String name() {
        return name;
    }

    /** Whether the entries live with their rows or are partitioned by the index key (matters on a cluster). */
    public IndexScope scope() {
        return scope;
    }

    public List<String> columns() {
        return columns;
    }

    /** Table positions of the index columns. */
    public int[] columnPositions() {
        return columnPositions.clone();
    }

    public KeyCodec codec() {
        return codec;
    }

    public BTree tree() {
        return tree;
    }

    /** Encodes the leading index-column values as a key prefix. */
    public byte[] prefix(Object... values) {
        return codec.encodePrefix(values, values.length);
    }

    /** The primary key of the row an index entry points to. */
    public Object[] primaryKeyAt(Page leaf, int slot) {
        return codec.decodeSuffix(leaf.key(slot), columnPositions.length);
    }

    /** Index columns followed by primary key columns of an entry. */
    public Object[] entryAt(Page leaf, int slot) {
        return codec.decode(leaf.key(slot));
    }
}
