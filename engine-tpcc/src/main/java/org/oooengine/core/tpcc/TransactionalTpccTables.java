package org.oooengine.core.tpcc;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.oooengine.core.cluster.DistributedTransaction;
import org.oooengine.core.cluster.RowAccess;
import org.oooengine.core.cluster.TransactionalWrite;
import org.oooengine.core.store.TableDefinition;
import org.oooengine.core.types.KeyCodec;
import org.oooengine.core.types.RowCodec;

/**
 * TPC-C's tables within one transaction on the cluster's nodes ({@code tpcc.<table>}; the
 * transactional tables, or a baseline engine's), placed by {@link TpccPlacement}. A secondary index is a table of its own ({@code
 * tpcc.<table>.<index>}: the index's columns and the rest of the primary key as the key, the
 * row's encoded primary key as the value), written with the row. The indexed columns of TPC-C's
 * rows never change (a customer's name, an order's customer), so updates leave the indexes alone.
 */
public final class TransactionalTpccTables implements TpccTables {
    public static final String PREFIX = "tpcc.";
    /** Rows a prefix scan asks for first; most stop early (the oldest new order, an order's lines). */
    private static final int FIRST_PAGE = 16;

    /** How one table's rows are keyed, encoded and placed. */
    private record Layout(String name, KeyCodec key, int[] keyColumns, RowCodec rows, int warehouseColumn,
                          List<Index> indexes) {
        byte[] key(Object[] row) {
            Object[] values = new Object[keyColumns.length];
            for (int i = 0; i < values.length; i++) {
                values[i] = row[keyColumns[i]];
            }
            return key.encode(values);
        }
    }

    private record Index(String name, String table, KeyCodec key, int[] columns) {
        byte[] key(Object[] row) {
            Object[] values = new Object[columns.length];
            for (int i = 0; i < values.length; i++) {
                values[i] = row[columns[i]];
            }
            return key.encode(values);
        }
    }

    private static final Map<String, Layout> LAYOUTS = new HashMap<>();

    static {
        for (String table : TpccSchema.TABLES) {
            TableDefinition def = TpccSchema.definition(table);
            int[] keyColumns = def.schema().indexesOf(def.primaryKey());
            List<Index> indexes = new ArrayList<>();
            for (TableDefinition.IndexDefinition ix : def.indexes()) {
                List<String> columns = new ArrayList<>(ix.columns());
                def.primaryKey().stream().filter(c -> !columns.contains(c)).forEach(columns::add);
                int[] cols = def.schema().indexesOf(columns);
                indexes.add(new Index(PREFIX + table + "." + ix.name(), ix.name(), new KeyCodec(def.schema().types(cols)), cols));
            }
            LAYOUTS.put(table, new Layout(PREFIX + table, new KeyCodec(def.schema().types(keyColumns)), keyColumns,
                    new RowCodec(def.schema()), warehouseColumn(table), indexes));
        }
    }

    /** The column holding a row's warehouse; -1 for the items, which every node holds. */
    static int warehouseColumn(String table) {
        return switch (table) {
            case "warehouse" -> 0;
            case "district", "stock" -> 1;
            case "history" -> 5;
            case "item" -> -1;
            default -> 2; // customer, new_order, orders, order_line
        };
    }

    /** The transactional tables TPC-C needs on every node: its tables and their indexes. */
    public static List<String> tableNames() {
        List<String> names = new ArrayList<>();
        for (String table : TpccSchema.TABLES) {
            Layout l = LAYOUTS.get(table);
            names.add(l.name());
            l.indexes().forEach(ix -> names.add(ix.name()));
        }
        return names;
    }

    private final RowAccess tx;
    private final TpccPlacement placement;
    private final String itemNode;

    /** @param itemNode the node whose copy of the items this transaction reads (its own, when it runs on one) */
    public TransactionalTpccTables(RowAccess tx, TpccPlacement placement, String itemNode) {
        this.tx = tx;
        this.placement = placement;
        this.itemNode = itemNode;
    }

    private static Layout layout(String table) {
        Layout l = LAYOUTS.get(table);
        if (l == null) {
            throw new IllegalArgumentException("no TPC-C table " + table);
        }
        return l;
    }

    /** The node of a table's key (or key prefix) whose first column is its warehouse. */
    private String ownerOfKey(Layout l, Object[] key) {
        return l.warehouseColumn() < 0 ? itemNode : placement.owner((Integer) key[0]);
    }

    private String ownerOfRow(Layout l, Object[] row) {
        return l.warehouseColumn() < 0 ? itemNode : placement.owner((Integer) row[l.warehouseColumn()]);
    }

    /** Writes an item on {@code node}: the loader puts every item on every node. */
    public void putItem(String node, Object[] row) {
        Layout l = layout("item");
        tx.write(node, l.name(), TransactionalWrite.PUT, l.key(row), l.rows().encode(row));
    }

    @Override
    public Object[] get(String table, Object... key) {
        Layout l = layout(table);
        byte[] value = tx.get(ownerOfKey(l, key), l.name(), l.key().encode(key));
        return value == null ? null : l.rows().decode(value);
    }

    @Override
    public void insert(String table, Object[] row) {
        add(table, row, TransactionalWrite.INSERT);
    }

    /** Sets a row whatever is there (the loader's write; an index entry with it). */
    public void put(String table, Object[] row) {
        add(table, row, TransactionalWrite.PUT);
    }

    private void add(String table, Object[] row, TransactionalWrite mode) {
        Layout l = layout(table);
        String node = ownerOfRow(l, row);
        byte[] key = l.key(row);
        tx.write(node, l.name(), mode, key, l.rows().encode(row));
        for (Index ix : l.indexes()) {
            tx.write(node, ix.name(), TransactionalWrite.PUT, ix.key(row), key);
        }
    }

    @Override
    public void update(String table, Object[] row) {
        Layout l = layout(table);
        tx.write(ownerOfRow(l, row), l.name(), TransactionalWrite.PUT, l.key(row), l.rows().encode(row));
    }

    @Override
    public void delete(String table, Object... key) {
        Layout l = layout(table);
        if (!l.indexes().isEmpty()) {
            throw new UnsupportedOperationException("TPC-C deletes rows of new_order only, which has no index");
        }
        tx.write(ownerOfKey(l, key), l.name(), TransactionalWrite.DELETE, l.key().encode(key), null);
    }

    @Override
    public void scan(String table, Object[] prefix, Predicate<Object[]> visitor) {
        Layout l = layout(table);
        scanPrefix(ownerOfKey(l, prefix), l.name(), l.key().encodePrefix(prefix, prefix.length),
                value -> visitor.test(l.rows().decode(value)));
    }

    @Override
    public void scanIndex(String table, String index, Object[] prefix, Predicate<Object[]> visitor) {
        Layout l = layout(table);
        Index ix = l.indexes().stream().filter(i -> i.table().equals(index)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("TPC-C table " + table + " has no index " + index));
        String node = ownerOfKey(l, prefix);
        scanPrefix(node, ix.name(), ix.key().encodePrefix(prefix, prefix.length),
                primaryKey -> visitor.test(l.rows().decode(tx.get(node, l.name(), primaryKey))));
    }

    /** Each value under a key starting with {@code prefix}, in key order, fetched a page at a time while wanted. */
    private void scanPrefix(String node, String table, byte[] prefix, Predicate<byte[]> visitor) {
        byte[] from = prefix;
        byte[] to = KeyCodec.successor(prefix);
        int page = FIRST_PAGE;
        while (true) {
            List<DistributedTransaction.Row> rows = tx.scan(node, table, from, to, page);
            for (DistributedTransaction.Row r : rows) {
                if (!visitor.test(r.value())) {
                    return;
                }
            }
            if (rows.size() < page) {
                return;
            }
            byte[] last = rows.get(rows.size() - 1).key();
            from = java.util.Arrays.copyOf(last, last.length + 1);
            page = Integer.MAX_VALUE;
        }
    }
}
