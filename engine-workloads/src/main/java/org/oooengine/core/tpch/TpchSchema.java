package org.oooengine.core.tpch;

import io.trino.tpch.TpchColumn;
import io.trino.tpch.TpchColumnType;
import io.trino.tpch.TpchEntity;
import io.trino.tpch.TpchTable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.oooengine.core.store.TableDefinition;
import org.oooengine.core.store.IndexScope;
import org.oooengine.core.store.TableDefinition.IndexDefinition;
import org.oooengine.core.types.Column;
import org.oooengine.core.types.DataType;
import org.oooengine.core.types.Schema;

/**
 * TPC-H tables as stored here: columns from the {@code io.trino.tpch} generator (money as
 * DECIMAL(15,2)), each table clustered on its primary key, with the secondary indexes of seed 004:
 * every foreign key that does not lead the primary key, plus o_orderdate, o_totalprice,
 * p_retailprice and c_acctbal.
 */
public final class TpchSchema {
    private record Layout(List<String> primaryKey, List<String> indexed, boolean generatedInKeyOrder) {
    }

    private static final Map<String, Layout> LAYOUTS = Map.of(
            "region", new Layout(List.of("r_regionkey"), List.of(), true),
            "nation", new Layout(List.of("n_nationkey"), List.of("n_regionkey"), true),
            "supplier", new Layout(List.of("s_suppkey"), List.of("s_nationkey"), true),
            "customer", new Layout(List.of("c_custkey"), List.of("c_nationkey", "c_acctbal"), true),
            "part", new Layout(List.of("p_partkey"), List.of("p_retailprice"), true),
            // partsupp rows come per part, but not in supplier-key order within a part
            "partsupp", new Layout(List.of("ps_partkey", "ps_suppkey"), List.of("ps_suppkey"), false),
            "orders", new Layout(List.of("o_orderkey"), List.of("o_custkey", "o_orderdate", "o_totalprice"), true),
            "lineitem", new Layout(List.of("l_orderkey", "l_linenumber"), List.of("l_partkey", "l_suppkey"), true));

    /**
     * Indexed columns that queries select ranges on: their indexes stay with the rows, so every
     * partition scans its own range. The other indexes are on foreign keys that joins probe by
     * value: partitioned by that value, so a probe goes to one node.
     */
    private static final Set<String> RANGE_COLUMNS = Set.of("c_acctbal", "p_retailprice", "o_orderdate", "o_totalprice");

    private TpchSchema() {
    }

    /** Tables in load order, smallest first. */
    public static List<TpchTable<?>> tables() {
        return List.of(TpchTable.REGION, TpchTable.NATION, TpchTable.SUPPLIER, TpchTable.CUSTOMER, TpchTable.PART,
                TpchTable.PART_SUPPLIER, TpchTable.ORDERS, TpchTable.LINE_ITEM);
    }

    public static <E extends TpchEntity> TableDefinition definition(TpchTable<E> table) {
        Layout layout = LAYOUTS.get(table.getTableName());
        List<Column> cols = new ArrayList<>();
        for (TpchColumn<E> c : table.getColumns()) {
            cols.add(new Column(c.getColumnName(), typeOf(c.getType())));
        }
        List<IndexDefinition> indexes = layout.indexed().stream()
                .map(c -> new IndexDefinition(c, List.of(c), RANGE_COLUMNS.contains(c) ? IndexScope.LOCAL : IndexScope.GLOBAL))
                .toList();
        return new TableDefinition(table.getTableName(), new Schema(cols), layout.primaryKey(), indexes,
                layout.generatedInKeyOrder());
    }

    static DataType typeOf(TpchColumnType type) {
        return switch (type.getBase()) {
            case INTEGER -> DataType.INT;
            case IDENTIFIER -> DataType.BIGINT;
            case DATE -> DataType.DATE;
            case DOUBLE -> DataType.decimal(15, 2);
            case VARCHAR -> DataType.varchar(type.getPrecision().orElse(0L).intValue());
        };
    }

    /** One generated entity as a row of Java values matching {@link #definition}. */
    public static <E extends TpchEntity> Object[] row(List<TpchColumn<E>> columns, E entity) {
        Object[] row = new Object[columns.size()];
        for (int i = 0; i < row.length; i++) {
            TpchColumn<E> c = columns.get(i);
            row[i] = switch (c.getType().getBase()) {
                case INTEGER -> c.getInteger(entity);
                case IDENTIFIER -> c.getIdentifier(entity);
                case DATE -> c.getDate(entity);
                // TPC-H money has exactly two decimals; the generator hands it out as a double
                case DOUBLE -> Math.round(c.getDouble(entity) * 100);
                case VARCHAR -> c.getString(entity);
            };
        }
        return row;
    }
}
