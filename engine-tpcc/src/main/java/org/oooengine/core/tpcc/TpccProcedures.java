package org.oooengine.core.tpcc;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * The bodies of TPC-C's five transactions (clause 2) over any {@link TpccTables}: the reads and
 * writes of the specification, on the rows of the home warehouse and, where an input names one, of
 * another warehouse. Every order line's item is valid (no rolled-back orders). Money is in unscaled
 * DECIMAL units. A body has no effect outside its tables: run again after a conflict, it is the same
 * transaction.
 */
public final class TpccProcedures {
    private final TpccRandom fallback;
    private final long now;
    private final LongSupplier historyKeys;

    /**
     * @param fallback    draws a customer by id when one chosen by last name does not exist
     * @param now         the time stamped on orders, deliveries and payments
     * @param historyKeys gives each history row its key, unique among all terminals
     */
    public TpccProcedures(TpccRandom fallback, long now, LongSupplier historyKeys) {
        this.fallback = fallback;
        this.now = now;
        this.historyKeys = historyKeys;
    }

    /** Runs the transaction {@code input} describes; returns what it counts (an order id, lines, orders, items). */
    public long run(TpccInput input, TpccTables db) {
        if (input instanceof TpccInput.NewOrder n) {
            return newOrder(n, db);
        } else if (input instanceof TpccInput.Payment p) {
            payment(p, db);
            return 0;
        } else if (input instanceof TpccInput.OrderStatus o) {
            return orderStatus(o, db);
        } else if (input instanceof TpccInput.Delivery d) {
            return delivery(d, db);
        }
        return stockLevel((TpccInput.StockLevel) input, db);
    }

    /** Clause 2.4: a new order; returns its id. */
    int newOrder(TpccInput.NewOrder in, TpccTables db) {
        int w = in.warehouse();
        int d = in.district();
        Object[] dist = db.get("district", w, d);
        int orderId = (Integer) dist[10];
        dist[10] = orderId + 1;
        db.update("district", dist);
        db.get("warehouse", w);
        db.get("customer", w, d, in.customer());
        int lines = in.items().length;
        boolean allLocal = true;
        for (int sw : in.supplyWarehouses()) {
            allLocal &= sw == w;
        }
        db.insert("orders", new Object[] {orderId, d, w, in.customer(), now, null, lines, allLocal ? 1 : 0});
        db.insert("new_order", new Object[] {orderId, d, w});
        for (int line = 0; line < lines; line++) {
            int item = in.items()[line];
            int supply = in.supplyWarehouses()[line];
            int quantity = in.quantities()[line];
            Object[] it = db.get("item", item);
            Object[] s = db.get("stock", supply, item);
            int left = (Integer) s[2];
            s[2] = left - quantity >= 10 ? left - quantity : left - quantity + 91;
            s[13] = (Integer) s[13] + quantity;
            s[14] = (Integer) s[14] + 1;
            if (supply != w) {
                s[15] = (Integer) s[15] + 1;
            }
            db.update("stock", s);
            db.insert("order_line", new Object[] {orderId, d, w, line + 1, item, supply, null, quantity,
                    quantity * (Long) it[3], s[2 + d]});
        }
        return orderId;
    }

    /** Clause 2.5: a payment. */
    void payment(TpccInput.Payment in, TpccTables db) {
        int w = in.warehouse();
        int d = in.district();
        Object[] wh = db.get("warehouse", w);
        wh[8] = (Long) wh[8] + in.amount();
        db.update("warehouse", wh);
        Object[] dist = db.get("district", w, d);
        dist[9] = (Long) dist[9] + in.amount();
        db.update("district", dist);
        int cw = in.customerWarehouse();
        int cd = in.customerDistrict();
        Object[] customer = customer(db, cw, cd, in.customerId(), in.lastName());
        customer[16] = (Long) customer[16] - in.amount();
        customer[17] = (Long) customer[17] + in.amount();
        customer[18] = (Integer) customer[18] + 1;
        if ("BC".equals(customer[13])) {
            String data = customer[0] + " " + cd + " " + cw + " " + d + " " + w + " " + in.amount() + " | " + customer[20];
            customer[20] = data.substring(0, Math.min(500, data.length()));
        }
        db.update("customer", customer);
        db.insert("history", new Object[] {historyKeys.getAsLong(), customer[0], cd, cw, d, w, now, in.amount(),
                wh[1] + "    " + dist[2]});
    }

    /** Clause 2.6: a customer's last order and its lines; returns the lines read. */
    int orderStatus(TpccInput.OrderStatus in, TpccTables db) {
        int w = in.warehouse();
        int d = in.district();
        Object[] customer = customer(db, w, d, in.customerId(), in.lastName());
        int[] last = {-1};
        db.scanIndex("orders", "orders_by_customer", new Object[] {w, d, customer[0]}, o -> {
            last[0] = Math.max(last[0], (Integer) o[0]);
            return true;
        });
        int[] lines = {0};
        if (last[0] >= 0) {
            db.scan("order_line", new Object[] {w, d, last[0]}, ol -> {
                lines[0]++;
                return true;
            });
        }
        return lines[0];
    }

    /** Clause 2.7: the oldest undelivered order of each district delivered; returns the orders delivered. */
    int delivery(TpccInput.Delivery in, TpccTables db) {
        int w = in.warehouse();
        int delivered = 0;
        for (int d = 1; d <= TpccGenerator.DISTRICTS_PER_WAREHOUSE; d++) {
            Object[][] oldest = {null};
            db.scan("new_order", new Object[] {w, d}, no -> {
                oldest[0] = no;
                return false;
            });
            if (oldest[0] == null) {
                continue;
            }
            int orderId = (Integer) oldest[0][0];
            db.delete("new_order", w, d, orderId);
            Object[] order = db.get("orders", w, d, orderId);
            order[5] = in.carrier();
            db.update("orders", order);
            List<Object[]> lines = new ArrayList<>();
            db.scan("order_line", new Object[] {w, d, orderId}, lines::add);
            long total = 0;
            for (Object[] line : lines) {
                line[6] = now;
                total += (Long) line[8];
                db.update("order_line", line);
            }
            Object[] customer = db.get("customer", w, d, order[3]);
            customer[16] = (Long) customer[16] + total;
            customer[19] = (Integer) customer[19] + 1;
            db.update("customer", customer);
            delivered++;
        }
        return delivered;
    }

    /** Clause 2.8: how many items of the district's last 20 orders are below the threshold in stock. */
    int stockLevel(TpccInput.StockLevel in, TpccTables db) {
        int w = in.warehouse();
        int d = in.district();
        int next = (Integer) db.get("district", w, d)[10];
        Set<Integer> items = new HashSet<>();
        for (int o = Math.max(1, next - 20); o < next; o++) {
            db.scan("order_line", new Object[] {w, d, o}, ol -> items.add((Integer) ol[4]) || true);
        }
        int low = 0;
        for (int item : items) {
            if ((Integer) db.get("stock", w, item)[2] < in.threshold()) {
                low++;
            }
        }
        return low;
    }

    /** Clause 2.5.2.2: by id, or the middle one of the district's customers of that last name. */
    private Object[] customer(TpccTables db, int w, int d, int id, String lastName) {
        if (lastName == null) {
            return db.get("customer", w, d, id);
        }
        List<Object[]> named = new ArrayList<>();
        db.scanIndex("customer", "customer_by_name", new Object[] {w, d, lastName}, named::add);
        if (named.isEmpty()) { // a name no customer of the district has: one by id instead
            return db.get("customer", w, d, fallback.customerId());
        }
        return named.get((named.size() - 1) / 2);
    }
}
