package org.oooengine.core.tpcds;

import io.trino.tpcds.Table;
import io.trino.tpcds.column.Column;
import io.trino.tpcds.column.ColumnType;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.oooengine.core.store.TableDefinition;
import org.oooengine.core.types.DataType;
import org.oooengine.core.types.Schema;

/**
 * The 24 TPC-DS tables as stored here, with the columns and types of the specification as the
 * {@code io.trino.tpcds} generator declares them. identifier is BIGINT, integer INT, decimal(p,s)
 * DECIMAL(p,s), date DATE; char(n) is stored as VARCHAR(n): the generated values are never padded
 * and DuckDB, the oracle, has no CHAR, so both engines compare the same strings. Each table is
 * clustered on its primary key: the surrogate key of a dimension, (order or ticket number, item)
 * of a sales or returns table, so a sale and its returns are on one node, and (date, item,
 * warehouse) of inventory. The tables have no secondary indexes: the foreign keys a selective join
 * would probe (the fact tables' date keys, say) can be NULL, and an index key cannot.
 */
public final class TpcdsSchema {
    private record Layout(List<String> primaryKey) {
        boolean dimension() {
            return primaryKey.size() == 1;
        }
    }

    private static final Map<String, Layout> LAYOUTS = Map.ofEntries(
            dimension("call_center", "cc_call_center_sk"),
            dimension("catalog_page", "cp_catalog_page_sk"),
            fact("catalog_returns", List.of("cr_order_number", "cr_item_sk")),
            fact("catalog_sales", List.of("cs_order_number", "cs_item_sk")),
            dimension("customer", "c_customer_sk"),
            dimension("customer_address", "ca_address_sk"),
            dimension("customer_demographics", "cd_demo_sk"),
            dimension("date_dim", "d_date_sk"),
            dimension("household_demographics", "hd_demo_sk"),
            dimension("income_band", "ib_income_band_sk"),
            fact("inventory", List.of("inv_date_sk", "inv_item_sk", "inv_warehouse_sk")),
            dimension("item", "i_item_sk"),
            dimension("promotion", "p_promo_sk"),
            dimension("reason", "r_reason_sk"),
            dimension("ship_mode", "sm_ship_mode_sk"),
            dimension("store", "s_store_sk"),
            fact("store_returns", List.of("sr_ticket_number", "sr_item_sk")),
            fact("store_sales", List.of("ss_ticket_number", "ss_item_sk")),
            dimension("time_dim", "t_time_sk"),
            dimension("warehouse", "w_warehouse_sk"),
            dimension("web_page", "wp_web_page_sk"),
            fact("web_returns", List.of("wr_order_number", "wr_item_sk")),
            fact("web_sales", List.of("ws_order_number", "ws_item_sk")),
            dimension("web_site", "web_site_sk"));

    private static Map.Entry<String, Layout> dimension(String table, String key) {
        return Map.entry(table, new Layout(List.of(key)));
    }

    private static Map.Entry<String, Layout> fact(String table, List<String> key) {
        return Map.entry(table, new Layout(key));
    }

    private TpcdsSchema() {
    }

    /** The 24 tables in load order: dimensions first, then the fact tables, each sales table before its returns. */
    public static List<Table> tables() {
        List<Table> dimensions = new ArrayList<>();
        for (Table t : Table.getBaseTables()) {
            Layout layout = LAYOUTS.get(t.getName());
            if (layout != null && layout.dimension()) {
                dimensions.add(t);
            }
        }
        List<Table> out = new ArrayList<>(dimensions);
        out.addAll(List.of(Table.INVENTORY, Table.STORE_SALES, Table.STORE_RETURNS, Table.CATALOG_SALES,
                Table.CATALOG_RETURNS, Table.WEB_SALES, Table.WEB_RETURNS));
        return out;
    }

    /** Table names in load order. */
    public static List<String> tableNames() {
        return tables().stream().map(Table::getName).toList();
    }

    public static TableDefinition definition(Table table) {
        Layout layout = LAYOUTS.get(table.getName());
        if (layout == null) {
            throw new IllegalArgumentException(table.getName() + " is not one of the 24 TPC-DS tables");
        }
        List<org.oooengine.core.types.Column> cols = new ArrayList<>();
        for (Column c : table.getColumns()) {
            cols.add(new org.oooengine.core.types.Column(c.getName(), typeOf(c.getType())));
        }
        // A dimension's rows come out numbered by their surrogate key; a fact table's do not.
        return new TableDefinition(table.getName(), new Schema(cols), layout.primaryKey(), List.of(), layout.dimension());
    }

    static DataType typeOf(ColumnType type) {
        return switch (type.getBase()) {
            case IDENTIFIER -> DataType.BIGINT;
            case INTEGER -> DataType.INT;
            case DECIMAL -> DataType.decimal(type.getPrecision().orElseThrow(), type.getScale().orElseThrow());
            case DATE -> DataType.DATE;
            case CHAR, VARCHAR -> DataType.varchar(type.getPrecision().orElse(0));
            // Only dbgen_version, which is not one of the 24 tables, has a TIME column.
            case TIME -> throw new IllegalArgumentException("TIME columns are not stored");
        };
    }

    /** One generated row (the generator's text, null for NULL) as Java values matching {@link #definition}. */
    public static Object[] row(Column[] columns, List<String> text) {
        Object[] row = new Object[columns.length];
        for (int i = 0; i < row.length; i++) {
            String v = text.get(i);
            row[i] = v == null ? null : switch (columns[i].getType().getBase()) {
                case IDENTIFIER -> Long.parseLong(v);
                case INTEGER -> Integer.parseInt(v);
                case DECIMAL -> new BigDecimal(v).setScale(columns[i].getType().getScale().orElseThrow())
                        .unscaledValue().longValueExact();
                case DATE -> (int) LocalDate.parse(v).toEpochDay();
                case CHAR, VARCHAR -> v;
                case TIME -> throw new IllegalArgumentException("TIME columns are not stored");
            };
        }
        return row;
    }
}
