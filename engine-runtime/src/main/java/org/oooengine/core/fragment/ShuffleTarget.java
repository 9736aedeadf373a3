package org.oooengine.core.fragment;

import java.util.ArrayList;
import java.util.List;
import org.oooengine.core.wire.PayloadReader;
import org.oooengine.core.wire.PayloadWriter;
import org.oooengine.core.wire.ProtocolException;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.sql.expr.ExprCodec;

/**
 * Where a shuffle sends each row, to exchange {@code exchangeId} on one of {@code owners}
 * (for a table's partitions, the node serving each partition, and the partition's own exchange):
 * <ul>
 *   <li>{@link #toPartitionOf}: to the node that owns, of a table hash-partitioned on its key's
 *       first column, the rows whose key equals the row's column — where its join partners are.
 *       The key is hashed as the table's loader hashed it (its stored encoding), so
 *       {@code keyType} must be that column's type; a row whose key is null joins nothing and goes
 *       nowhere, unless {@code keepsNulls}: the rows are the side a join keeps whole (the
 *       preserved side of an outer join, built from), and such a row goes to the first owner;</li>
 *   <li>{@link #byGroup}: to the node that merges the row's group (a GROUP BY's partial states),
 *       by a hash of the values of {@code keyColumns}, nulls included; {@code keyType} is null.</li>
 * </ul>
 */
public record ShuffleTarget(String exchangeId, List<Integer> keyColumns, SqlType keyType, List<String> owners,
                            boolean keepsNulls) {
    public ShuffleTarget {
        keyColumns = List.copyOf(keyColumns);
        owners = List.copyOf(owners);
        if (owners.isEmpty()) {
            throw new IllegalArgumentException("a shuffle needs a node to send to");
        }
        if (keyType != null && keyColumns.size() != 1) {
            throw new IllegalArgumentException("a shuffle to a table's partitions goes by one key column, not "
                    + keyColumns.size());
        }
        for (int c : keyColumns) {
            if (c < 0) {
                throw new IllegalArgumentException("a shuffle keyed on column " + c);
            }
        }
    }

    public static ShuffleTarget toPartitionOf(String exchangeId, int keyColumn, SqlType keyType, List<String> owners) {
        return new ShuffleTarget(exchangeId, List.of(keyColumn), keyType, owners, false);
    }

    /** This shuffle to a table's partitions, a row whose key is null sent to the first owner rather than dropped. */
    public ShuffleTarget keepingNulls() {
        if (byGroup()) {
            throw new IllegalStateException("a shuffle by group sends every row already");
        }
        return new ShuffleTarget(exchangeId, keyColumns, keyType, owners, true);
    }

    public static ShuffleTarget byGroup(String exchangeId, List<Integer> keyColumns, List<String> owners) {
        return new ShuffleTarget(exchangeId, keyColumns, null, owners, false);
    }

    /**
     * The exchange the rows for destination {@code d} go to: a shuffle by group has one on each node;
     * one to a table's partitions has one per partition ({@link #partitionExchange}), since a node
     * holding another's partition besides its own receives for both.
     */
    public String exchangeFor(int d) {
        return byGroup() ? exchangeId : partitionExchange(exchangeId, d);
    }

    /** The exchange of partition {@code partition} of a shuffle to a table's partitions named {@code exchangeId}. */
    public static String partitionExchange(String exchangeId, int partition) {
        return exchangeId + "/partition-" + partition;
    }

    /** Whether rows go to the nodes that merge their groups rather than to a table's partitions. */
    public boolean byGroup() {
        return keyType == null;
    }

    /** The widest column the rows must have. */
    public int lastKeyColumn() {
        return keyColumns.stream().mapToInt(Integer::intValue).max().orElse(-1);
    }

    /** For {@link #byGroup}: which owner (by index) merges a row's group. */
    public java.util.function.ToIntFunction<Object[]> groupOwners() {
        int[] keys = keyColumns.stream().mapToInt(Integer::intValue).toArray();
        int n = owners.size();
        return row -> KeyHash.bucket(row, keys, 0, n);
    }

    /**
     * For {@link #byGroup}: which owner merges the group of each row of {@code batch} (its k-th at
     * {@code batch.positions()[k]}), as {@link #groupOwners()} finds it of the row boxed; column c
     * is of type {@code types[c]}.
     */
    public int[] groupOwners(org.oooengine.core.vector.Batch batch, SqlType[] types) {
        return KeyHash.buckets(batch, keyColumns.stream().mapToInt(Integer::intValue).toArray(), types, 0, owners.size());
    }

    public void write(PayloadWriter w) {
        w.putString(exchangeId).putVarInt(keyColumns.size());
        keyColumns.forEach(w::putVarInt);
        w.put(keyType == null ? 0 : keepsNulls ? 2 : 1);
        if (keyType != null) {
            ExprCodec.writeType(w, keyType);
        }
        w.putVarInt(owners.size());
        owners.forEach(w::putString);
    }

    public static ShuffleTarget read(PayloadReader r) {
        String id = r.getString();
        int keys = r.getCount(1);
        List<Integer> columns = new ArrayList<>(keys);
        for (int i = 0; i < keys; i++) {
            columns.add(r.getVarInt());
        }
        byte keyed = r.get();
        if (keyed < 0 || keyed > 2) {
            throw new ProtocolException("a shuffle target of kind " + keyed);
        }
        SqlType type = keyed == 0 ? null : ExprCodec.readType(r);
        int n = r.getCount(1);
        String[] owners = new String[n];
        for (int i = 0; i < n; i++) {
            owners[i] = r.getString();
        }
        try {
            return new ShuffleTarget(id, columns, type, List.of(owners), keyed == 2);
        } catch (IllegalArgumentException e) {
            throw new ProtocolException(e.getMessage());
        }
    }
}
