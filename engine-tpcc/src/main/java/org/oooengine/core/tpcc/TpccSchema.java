package org.oooengine.core.tpcc;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.oooengine.core.storage.SplitPolicy;
import org.oooengine.core.store.TableDefinition;
import org.oooengine.core.store.TableDefinition.IndexDefinition;
import org.oooengine.core.types.Column;
import org.oooengine.core.types.DataType;
import org.oooengine.core.types.Schema;

/**
 * The nine TPC-C tables as stored here (clause 1.3), each clustered on its primary key — the order
 * table on (warehouse, district, order number), which new orders grow inside of each
 * (warehouse, district): seed 001's case. Money is DECIMAL(12,2), rates DECIMAL(4,4), times
 * TIMESTAMP (microseconds since 1970). History has no key in the specification; a sequence number
 * per row is its key here. Customers are indexed by last name (Payment and OrderStatus look them
 * up so), orders by customer (OrderStatus's last order).
 */
public final class TpccSchema {
    static final DataType MONEY = DataType.decimal(12, 2);
    static final DataType RATE = DataType.decimal(4, 4);
    static final DataType TIME = DataType.TIMESTAMP;

    public static final List<String> TABLES = List.of("warehouse", "district", "customer", "history", "new_order",
            "orders", "order_line", "item", "stock");

    private static final Map<String, TableDefinition> DEFINITIONS = Map.of(
            "warehouse", table("warehouse", List.of("w_id"), List.of(),
                    "w_id", DataType.INT, "w_name", text(10), "w_street_1", text(20), "w_street_2", text(20),
                    "w_city", text(20), "w_state", text(2), "w_zip", text(9), "w_tax", RATE, "w_ytd", MONEY),
            "district", table("district", List.of("d_w_id", "d_id"), List.of(),
                    "d_id", DataType.INT, "d_w_id", DataType.INT, "d_name", text(10), "d_street_1", text(20),
                    "d_street_2", text(20), "d_city", text(20), "d_state", text(2), "d_zip", text(9), "d_tax", RATE,
                    "d_ytd", MONEY, "d_next_o_id", DataType.INT),
            "customer", table("customer", List.of("c_w_id", "c_d_id", "c_id"),
                    List.of(new IndexDefinition("customer_by_name", List.of("c_w_id", "c_d_id", "c_last", "c_first"))),
                    "c_id", DataType.INT, "c_d_id", DataType.INT, "c_w_id", DataType.INT, "c_first", text(16),
                    "c_middle", text(2), "c_last", text(16), "c_street_1", text(20), "c_street_2", text(20),
                    "c_city", text(20), "c_state", text(2), "c_zip", text(9), "c_phone", text(16), "c_since", TIME,
                    "c_credit", text(2), "c_credit_lim", MONEY, "c_discount", RATE, "c_balance", MONEY,
                    "c_ytd_payment", MONEY, "c_payment_cnt", DataType.INT, "c_delivery_cnt", DataType.INT,
                    "c_data", text(500)),
            "history", table("history", List.of("h_seq"), List.of(),
                    "h_seq", DataType.BIGINT, "h_c_id", DataType.INT, "h_c_d_id", DataType.INT, "h_c_w_id", DataType.INT,
                    "h_d_id", DataType.INT, "h_w_id", DataType.INT, "h_date", TIME, "h_amount", DataType.decimal(6, 2),
                    "h_data", text(24)),
            "new_order", table("new_order", List.of("no_w_id", "no_d_id", "no_o_id"), List.of(),
                    "no_o_id", DataType.INT, "no_d_id", DataType.INT, "no_w_id", DataType.INT),
            "orders", table("orders", List.of("o_w_id", "o_d_id", "o_id"),
                    List.of(new IndexDefinition("orders_by_customer", List.of("o_w_id", "o_d_id", "o_c_id", "o_id"))),
                    "o_id", DataType.INT, "o_d_id", DataType.INT, "o_w_id", DataType.INT, "o_c_id", DataType.INT,
                    "o_entry_d", TIME, "o_carrier_id", DataType.INT, "o_ol_cnt", DataType.INT, "o_all_local", DataType.INT),
            "order_line", table("order_line", List.of("ol_w_id", "ol_d_id", "ol_o_id", "ol_number"), List.of(),
                    "ol_o_id", DataType.INT, "ol_d_id", DataType.INT, "ol_w_id", DataType.INT, "ol_number", DataType.INT,
                    "ol_i_id", DataType.INT, "ol_supply_w_id", DataType.INT, "ol_delivery_d", TIME,
                    "ol_quantity", DataType.INT, "ol_amount", DataType.decimal(6, 2), "ol_dist_info", text(24)),
            "item", table("item", List.of("i_id"), List.of(),
                    "i_id", DataType.INT, "i_im_id", DataType.INT, "i_name", text(24), "i_price", DataType.decimal(5, 2),
                    "i_data", text(50)),
            "stock", table("stock", List.of("s_w_id", "s_i_id"), List.of(), stockColumns()));

    private TpccSchema() {
    }

    public static TableDefinition definition(String table) {
        TableDefinition d = DEFINITIONS.get(table);
        if (d == null) {
            throw new IllegalArgumentException("no TPC-C table " + table + " (" + String.join(", ", TABLES) + ")");
        }
        return d;
    }

    /**
     * How full a run of inserts fills the table's pages (and its load fills them): the rest is
     * room for its rows to grow in place, as Oracle's PCTFREE. The order tables' rows never grow: a
     * new order is only inserted and deleted, and what Delivery sets in an order (its carrier) and
     * its lines (their delivery time) are numbers, which take their bytes while still null. The
     * other tables keep the default 10% (a bad-credit customer's data grows with each payment).
     */
    public static double runFill(String table) {
        definition(table);
        return switch (table) {
            case "orders", "order_line", "new_order" -> 1.0;
            default -> SplitPolicy.RUN_FILL;
        };
    }

    private static Object[] stockColumns() {
        List<Object> cols = new ArrayList<>(List.of("s_i_id", DataType.INT, "s_w_id", DataType.INT, "s_quantity", DataType.INT));
        for (int d = 1; d <= 10; d++) {
            cols.add(String.format("s_dist_%02d", d));
            cols.add(text(24));
        }
        cols.addAll(List.of("s_ytd", DataType.INT, "s_order_cnt", DataType.INT, "s_remote_cnt", DataType.INT,
                "s_data", text(50)));
        return cols.toArray();
    }

    private static DataType text(int length) {
        return DataType.varchar(length);
    }

    /** A table of the named columns ({@code name, type, name, type, ...}), its rows generated in key order. */
    private static TableDefinition table(String name, List<String> key, List<IndexDefinition> indexes, Object... columns) {
        List<Column> cols = new ArrayList<>();
        for (int i = 0; i < columns.length; i += 2) {
            cols.add(new Column((String) columns[i], (DataType) columns[i + 1]));
        }
        return new TableDefinition(name, new Schema(cols), key, indexes, true);
    }
}
