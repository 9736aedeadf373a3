package org.oooengine.cluster.bench.chbench;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.store.TableDefinition;
import org.oooengine.core.tpcc.TpccGenerator;
import org.oooengine.core.tpcc.TpccSchema;
import org.oooengine.core.tpcc.TransactionalTpccTables;
import org.oooengine.core.types.Column;
import org.oooengine.hive.engine.ClusterSqlEngine;
import org.oooengine.hive.sql.Cancellation;
import org.oooengine.hive.sql.SqlSession;
import org.oooengine.hive.sql.analyze.DdlAnalyzer;

/**
 * CH-benCHmark's tables in SQL, database {@value #DATABASE}: TPC-C's eight written tables are the
 * nodes' own transactional tables that the TPC-C driver writes ({@code tpcc.<table>}), entered
 * into the catalog as they are; the items (which the driver keeps whole on every node, for its
 * NewOrders to read locally) and CH's supplier, nation and region are read-only tables created
 * through SQL and loaded with their generated rows.
 */
public final class ChTables {
    public static final String DATABASE = "ch";
    /** TPC-C's tables as the driver keeps them on the nodes. */
    public static final List<String> FROM_TPCC = List.of("warehouse", "district", "customer", "history", "new_order",
            "orders", "order_line", "stock");
    /** Every table the queries read. */
    public static final List<String> ALL = List.of("warehouse", "district", "customer", "history", "new_order",
            "orders", "order_line", "stock", "item", "supplier", "nation", "region");

    private ChTables() {
    }

    /**
     * Enters TPC-C's tables (loaded with {@code seed}) into the catalog and creates and fills the
     * read-only ones; with {@code copies} the nodes keep analytical copies of TPC-C's.
     */
    public static void create(ClusterSqlEngine engine, SqlSession sql, long seed, int warehouses, boolean copies,
                              Consumer<String> progress) {
        run(sql, "CREATE DATABASE IF NOT EXISTS " + DATABASE);
        Map<String, String> properties = copies ? Map.of(DdlAnalyzer.HTAP_COPIES_PROPERTY, "true") : Map.of();
        for (String t : FROM_TPCC) {
            engine.attachTransactionalTable(DATABASE, t, TransactionalTpccTables.PREFIX + t, TpccSchema.definition(t),
                    properties);
        }
        progress.accept("entered TPC-C's tables" + (copies ? ", copied on the nodes" : ""));
        ChGenerator ch = new ChGenerator(seed);
        create(engine, sql, "region", List.of("r_regionkey int", "r_name varchar(55)", "r_comment varchar(152)"), ch::regions, progress);
        create(engine, sql, "nation", List.of("n_nationkey int", "n_name varchar(25)", "n_regionkey int", "n_comment varchar(152)"),
                ch::nations, progress);
        create(engine, sql, "supplier", List.of("su_suppkey int", "su_name varchar(25)", "su_address varchar(40)",
                "su_nationkey int", "su_phone varchar(15)", "su_acctbal decimal(12,2)", "su_comment varchar(101)"),
                ch::suppliers, progress);
        TableDefinition item = TpccSchema.definition("item");
        List<String> itemColumns = new ArrayList<>();
        for (Column c : item.schema().columns()) {
            itemColumns.add(c.name() + " " + SqlType.of(c.type()));
        }
        create(engine, sql, "item", itemColumns, out -> new TpccGenerator(warehouses, seed, 0).rows("item", out), progress);
    }

    /** Drops the tables (TPC-C's with their rows on the nodes) and the database. */
    public static void drop(SqlSession sql) {
        for (String t : ALL) {
            run(sql, "DROP TABLE IF EXISTS " + DATABASE + "." + t);
        }
        run(sql, "DROP DATABASE IF EXISTS " + DATABASE);
    }

    /** Creates {@code table} keyed on its first column and loads its rows. */
    private static void create(ClusterSqlEngine engine, SqlSession sql, String table, List<String> columns,
                               Consumer<Consumer<Object[]>> rows, Consumer<String> progress) {
        String key = columns.get(0).substring(0, columns.get(0).indexOf(' '));
        run(sql, "CREATE TABLE " + DATABASE + "." + table + " (" + String.join(", ", columns) + ", PRIMARY KEY (" + key
                + ") DISABLE NOVALIDATE)");
        List<SqlType> types = columns.stream().map(c -> SqlType.parse(c.substring(c.indexOf(' ') + 1))).toList();
        List<Object[]> values = new ArrayList<>();
        rows.accept(row -> {
            Object[] v = new Object[row.length];
            for (int i = 0; i < v.length; i++) {
                v[i] = types.get(i).fromStored(row[i]);
            }
            values.add(v);
        });
        engine.loadRows(DATABASE, table, values.iterator());
        progress.accept(String.format("created %s.%s: %,d rows", DATABASE, table, values.size()));
    }

    static void run(SqlSession sql, String statement) {
        sql.execute(statement, new Cancellation());
    }
}
