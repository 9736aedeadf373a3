package org.oooengine.core.cluster;

import java.util.List;
import org.oooengine.core.store.TableDefinition;
import org.oooengine.core.types.KeyCodec;
import org.oooengine.core.types.RowCodec;

/**
 * How a transactional table's rows live on the nodes: keyed by the encoded primary key, the row
 * encoded whole as the value, on the node its first key column hashes to — as the rows of an
 * analytical table with the same key, so the two are partitioned alike.
 */
public final class TransactionalRows {
    private final TableDefinition def;
    private final RowRouter router;
    private final int[] key;
    private final KeyCodec keyCodec;
    private final RowCodec rowCodec;

    /** @param owners the nodes the table is partitioned over ({@link ClusterSpec#owners}) */
    public TransactionalRows(TableDefinition def, List<String> owners) {
        if (def.primaryKey().isEmpty()) {
            throw new IllegalArgumentException("transactional table " + def.name() + " needs a primary key");
        }
        this.def = def;
        this.router = new RowRouter(def, owners);
        this.key = def.schema().indexesOf(def.primaryKey());
        this.keyCodec = new KeyCodec(def.schema().types(key));
        this.rowCodec = new RowCodec(def.schema());
    }

    public String table() {
        return def.name();
    }

    /** The node that holds {@code row} (stored values in the table's column order). */
    public String owner(Object[] row) {
        return router.rowOwner(row);
    }

    public byte[] key(Object[] row) {
        Object[] values = new Object[key.length];
        for (int i = 0; i < key.length; i++) {
            values[i] = row[key[i]];
        }
        return keyCodec.encode(values);
    }

    public byte[] value(Object[] row) {
        return rowCodec.encode(row);
    }

    /** The row a value holds, as stored values. */
    public Object[] row(byte[] value) {
        return rowCodec.decode(value);
    }
}
