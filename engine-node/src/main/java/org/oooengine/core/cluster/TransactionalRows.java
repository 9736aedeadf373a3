package org.oooengine.core.cluster;

import java.util.ArrayList;
import java.util.List;
import org.oooengine.core.store.TableDefinition;
import org.oooengine.core.types.KeyCodec;
import org.oooengine.core.types.RowCodec;

/**
 * How a transactional table's rows live on the nodes: keyed by the encoded primary key, the row
 * encoded whole as the value, in the partition its first key column hashes to — as the rows of an
 * analytical table with the same key, so the two are partitioned alike. Each partition is kept by
 * every node holding it ({@link ClusterSpec#holders}): its owner under the table's name, the
 * others under the name of their copy ({@link ClusterSpec#replicaName}). A transaction writes a
 * row on all of them, so that the copies commit with the owner or not at all.
 */
public final class TransactionalRows {
    /** A node keeping a row's partition, and the name it keeps it under there. */
    public record Holding(String node, String storedName) {
    }

    private final TableDefinition def;
    private final RowRouter router;
    /** The holdings of each partition, its owner's first. */
    private final List<List<Holding>> holdings;
    private final int[] key;
    private final KeyCodec keyCodec;
    private final RowCodec rowCodec;

    /** The rows of {@code def} on the nodes of {@code spec}, with as many copies as it keeps. */
    public TransactionalRows(TableDefinition def, ClusterSpec spec) {
        if (def.primaryKey().isEmpty()) {
            throw new IllegalArgumentException("transactional table " + def.name() + " needs a primary key");
        }
        this.def = def;
        this.router = new RowRouter(def, spec.owners(def.name()));
        this.holdings = holdings(spec, def.name());
        this.key = def.schema().indexesOf(def.primaryKey());
        this.keyCodec = new KeyCodec(def.schema().types(key));
        this.rowCodec = new RowCodec(def.schema());
    }

    /** Every partition's holdings of transactional table {@code table}, in partition order. */
    public static List<List<Holding>> holdings(ClusterSpec spec, String table) {
        List<List<Holding>> all = new ArrayList<>();
        for (int p = 0; p < spec.owners(table).size(); p++) {
            List<Holding> partition = new ArrayList<>();
            for (String node : spec.holders(table, p)) {
                partition.add(new Holding(node, spec.storedName(table, p, node)));
            }
            all.add(List.copyOf(partition));
        }
        return List.copyOf(all);
    }

    public String table() {
        return def.name();
    }

    /** Where {@code row} (stored values in the table's column order) is kept: its partition's owner first, then the holders of its copies. */
    public List<Holding> holders(Object[] row) {
        return holdings.get(router.rowPartition(row));
    }

    /** Where partition {@code partition} is kept, its owner first. */
    public List<Holding> holders(int partition) {
        return holdings.get(partition);
    }

    public int partitions() {
        return holdings.size();
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
