package org.oooengine.core.tpcc;

import java.util.function.Consumer;

/**
 * The initial TPC-C database of {@code warehouses} warehouses (clause 4.3.3), a table's rows in its
 * primary-key order ({@link TpccSchema}), the same for the same seed. Per warehouse: 10 districts,
 * 30,000 customers with a history row each, 30,000 orders (the last 900 per district not yet
 * delivered: new orders, without carrier, their lines without delivery date and with an amount),
 * 5 to 15 lines per order, and stock for each of the 100,000 items. DECIMAL values are unscaled,
 * as stored (300000.00 is 30,000,000 at scale 2).
 */
public final class TpccGenerator {
    public static final int ITEMS = 100_000;
    public static final int DISTRICTS_PER_WAREHOUSE = 10;
    public static final int CUSTOMERS_PER_DISTRICT = 3_000;
    public static final int ORDERS_PER_DISTRICT = 3_000;
    public static final int NEW_ORDERS_PER_DISTRICT = 900;
    /** The first order of a district not yet delivered. */
    public static final int FIRST_NEW_ORDER = ORDERS_PER_DISTRICT - NEW_ORDERS_PER_DISTRICT + 1;

    private final int warehouses;
    private final long seed;
    private final long now;

    /** @param now the load's time (microseconds since 1970): entry, delivery and customer dates */
    public TpccGenerator(int warehouses, long seed, long now) {
        if (warehouses < 1) {
            throw new IllegalArgumentException("TPC-C needs at least one warehouse, got " + warehouses);
        }
        this.warehouses = warehouses;
        this.seed = seed;
        this.now = now;
    }

    /** Sends {@code table}'s rows (values in {@link TpccSchema}'s column order) to {@code out}, in key order. */
    public void rows(String table, Consumer<Object[]> out) {
        TpccRandom r = new TpccRandom(seed * 31 + TpccSchema.TABLES.indexOf(table));
        switch (table) {
            case "warehouse" -> warehouses(r, out);
            case "district" -> districts(r, out);
            case "customer" -> customers(r, out);
            case "history" -> history(r, out);
            case "new_order" -> newOrders(out);
            case "orders" -> orders(out);
            case "order_line" -> orderLines(r, out);
            case "item" -> items(r, out);
            case "stock" -> stock(r, out);
            default -> TpccSchema.definition(table); // names the tables there are
        }
    }

    private void warehouses(TpccRandom r, Consumer<Object[]> out) {
        for (int w = 1; w <= warehouses; w++) {
            out.accept(new Object[] {w, r.alphanumeric(6, 10), r.alphanumeric(10, 20), r.alphanumeric(10, 20),
                    r.alphanumeric(10, 20), r.alphanumeric(2, 2), r.zip(), r.decimal(0, 2000),
                    30_000_000L});
        }
    }

    private void districts(TpccRandom r, Consumer<Object[]> out) {
        for (int w = 1; w <= warehouses; w++) {
            for (int d = 1; d <= DISTRICTS_PER_WAREHOUSE; d++) {
                out.accept(new Object[] {d, w, r.alphanumeric(6, 10), r.alphanumeric(10, 20), r.alphanumeric(10, 20),
                        r.alphanumeric(10, 20), r.alphanumeric(2, 2), r.zip(), r.decimal(0, 2000),
                        3_000_000L, ORDERS_PER_DISTRICT + 1});
            }
        }
    }

    private void customers(TpccRandom r, Consumer<Object[]> out) {
        for (int w = 1; w <= warehouses; w++) {
            for (int d = 1; d <= DISTRICTS_PER_WAREHOUSE; d++) {
                for (int c = 1; c <= CUSTOMERS_PER_DISTRICT; c++) {
                    String last = c <= 1000 ? TpccRandom.lastName(c - 1) : r.lastName();
                    out.accept(new Object[] {c, d, w, r.alphanumeric(8, 16), "OE", last, r.alphanumeric(10, 20),
                            r.alphanumeric(10, 20), r.alphanumeric(10, 20), r.alphanumeric(2, 2), r.zip(),
                            r.numeric(16, 16), now, r.percent(10) ? "BC" : "GC", 5_000_000L,
                            r.decimal(0, 5000), -1_000L, 1_000L, 1, 0,
                            r.alphanumeric(300, 500)});
                }
            }
        }
    }

    private void history(TpccRandom r, Consumer<Object[]> out) {
        long seq = 0;
        for (int w = 1; w <= warehouses; w++) {
            for (int d = 1; d <= DISTRICTS_PER_WAREHOUSE; d++) {
                for (int c = 1; c <= CUSTOMERS_PER_DISTRICT; c++) {
                    out.accept(new Object[] {++seq, c, d, w, d, w, now, 1_000L, r.alphanumeric(12, 24)});
                }
            }
        }
    }

    private void newOrders(Consumer<Object[]> out) {
        for (int w = 1; w <= warehouses; w++) {
            for (int d = 1; d <= DISTRICTS_PER_WAREHOUSE; d++) {
                for (int o = FIRST_NEW_ORDER; o <= ORDERS_PER_DISTRICT; o++) {
                    out.accept(new Object[] {o, d, w});
                }
            }
        }
    }

    private void orders(Consumer<Object[]> out) {
        for (int w = 1; w <= warehouses; w++) {
            for (int d = 1; d <= DISTRICTS_PER_WAREHOUSE; d++) {
                DistrictOrders plan = new DistrictOrders(w, d);
                for (int o = 1; o <= ORDERS_PER_DISTRICT; o++) {
                    out.accept(new Object[] {o, d, w, plan.customer[o - 1], now, plan.carrier[o - 1], plan.lines[o - 1], 1});
                }
            }
        }
    }

    private void orderLines(TpccRandom r, Consumer<Object[]> out) {
        for (int w = 1; w <= warehouses; w++) {
            for (int d = 1; d <= DISTRICTS_PER_WAREHOUSE; d++) {
                DistrictOrders plan = new DistrictOrders(w, d);
                for (int o = 1; o <= ORDERS_PER_DISTRICT; o++) {
                    boolean delivered = o < FIRST_NEW_ORDER;
                    for (int line = 1; line <= plan.lines[o - 1]; line++) {
                        out.accept(new Object[] {o, d, w, line, r.uniform(1, ITEMS), w, delivered ? now : null, 5,
                                delivered ? 0L : r.decimal(1, 999_999), r.alphanumeric(24, 24)});
                    }
                }
            }
        }
    }

    private void items(TpccRandom r, Consumer<Object[]> out) {
        for (int i = 1; i <= ITEMS; i++) {
            out.accept(new Object[] {i, r.uniform(1, 10_000), r.alphanumeric(14, 24), r.decimal(100, 10_000), r.data()});
        }
    }

    private void stock(TpccRandom r, Consumer<Object[]> out) {
        for (int w = 1; w <= warehouses; w++) {
            for (int i = 1; i <= ITEMS; i++) {
                Object[] row = new Object[17];
                row[0] = i;
                row[1] = w;
                row[2] = r.uniform(10, 100);
                for (int d = 0; d < 10; d++) {
                    row[3 + d] = r.alphanumeric(24, 24);
                }
                row[13] = 0;
                row[14] = 0;
                row[15] = 0;
                row[16] = r.data();
                out.accept(row);
            }
        }
    }

    /**
     * What the orders of one district and their lines agree on: each order's customer (a random
     * permutation), carrier (none for new orders) and line count; the same for the same seed.
     */
    private final class DistrictOrders {
        final int[] customer;
        final Integer[] carrier = new Integer[ORDERS_PER_DISTRICT];
        final int[] lines = new int[ORDERS_PER_DISTRICT];

        DistrictOrders(int w, int d) {
            TpccRandom r = new TpccRandom(seed * 1_000_003L + w * 31L + d);
            customer = r.permutation(CUSTOMERS_PER_DISTRICT);
            for (int o = 1; o <= ORDERS_PER_DISTRICT; o++) {
                carrier[o - 1] = o < FIRST_NEW_ORDER ? r.uniform(1, 10) : null;
                lines[o - 1] = r.uniform(5, 15);
            }
        }
    }
}
