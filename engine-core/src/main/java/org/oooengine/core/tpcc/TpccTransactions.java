package org.oooengine.core.tpcc;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.oooengine.core.store.TableWriter;

/**
 * TPC-C's five transactions (clause 2) on a {@link TpccDatabase}, as one terminal runs them in the
 * standard mix: NewOrder 45%, Payment 43%, OrderStatus, Delivery and StockLevel 4% each. Every
 * order line's item is of the home warehouse and valid (no remote stock, no rolled-back orders);
 * otherwise the reads and writes are the specification's. Money is in unscaled DECIMAL units.
 */
public final class TpccTransactions {
    /** The transaction kinds, in the order of {@link #counts()}. */
    public enum Kind { NEW_ORDER, PAYMENT, ORDER_STATUS, DELIVERY, STOCK_LEVEL }

    private final TpccDatabase db;
    private final TpccRandom r;
    private final long now;
    private long historySeq;
    private final long[] counts = new long[Kind.values().length];

    public TpccTransactions(TpccDatabase db, long seed, long now) {
        this.db = db;
        this.r = new TpccRandom(seed);
        this.now = now;
        this.historySeq = (long) db.warehouses() * TpccGenerator.DISTRICTS_PER_WAREHOUSE * TpccGenerator.CUSTOMERS_PER_DISTRICT;
    }

    /** Runs the next transaction of the mix; returns its kind. */
    public Kind next() {
        int roll = r.uniform(1, 100);
        int w = r.uniform(1, db.warehouses());
        Kind kind = roll <= 45 ? Kind.NEW_ORDER : roll <= 88 ? Kind.PAYMENT : roll <= 92 ? Kind.ORDER_STATUS
                : roll <= 96 ? Kind.DELIVERY : Kind.STOCK_LEVEL;
        switch (kind) {
            case NEW_ORDER -> newOrder(w, r.uniform(1, TpccGenerator.DISTRICTS_PER_WAREHOUSE), r.customerId());
            case PAYMENT -> payment(w, r.uniform(1, TpccGenerator.DISTRICTS_PER_WAREHOUSE), r.decimal(100, 500_000));
            case ORDER_STATUS -> orderStatus(w, r.uniform(1, TpccGenerator.DISTRICTS_PER_WAREHOUSE));
            case DELIVERY -> delivery(w, r.uniform(1, 10));
            case STOCK_LEVEL -> stockLevel(w, r.uniform(1, TpccGenerator.DISTRICTS_PER_WAREHOUSE), r.uniform(10, 20));
        }
        counts[kind.ordinal()]++;
        return kind;
    }

    /** Transactions run so far, by kind. */
    public long[] counts() {
        return counts.clone();
    }

    /** Clause 2.4: a new order of 5 to 15 lines in district {@code d} for customer {@code c}. */
    public int newOrder(int w, int d, int c) {
        TableWriter district = db.table("district");
        Object[] dist = district.get(w, d);
        int orderId = (Integer) dist[10];
        dist[10] = orderId + 1;
        district.update(dist);
        db.table("warehouse").get(w);
        db.table("customer").get(w, d, c);
        int lines = r.uniform(5, 15);
        db.table("orders").insert(new Object[] {orderId, d, w, c, now, null, lines, 1});
        db.table("new_order").insert(new Object[] {orderId, d, w});
        TableWriter stock = db.table("stock");
        Set<Integer> items = new HashSet<>();
        for (int line = 1; line <= lines; line++) {
            int item = r.itemId();
            while (!items.add(item)) { // one line per item, as the order lines' key allows
                item = r.itemId();
            }
            Object[] it = db.table("item").get(item);
            int quantity = r.uniform(1, 10);
            Object[] s = stock.get(w, item);
            int left = (Integer) s[2];
            s[2] = left - quantity >= 10 ? left - quantity : left - quantity + 91;
            s[13] = (Integer) s[13] + quantity;
            s[14] = (Integer) s[14] + 1;
            stock.update(s);
            db.table("order_line").insert(new Object[] {orderId, d, w, line, item, w, null, quantity,
                    quantity * (Long) it[3], s[2 + d]});
        }
        return orderId;
    }

    /** Clause 2.5: a payment by a customer chosen by id (40%) or by last name (60%). */
    public void payment(int w, int d, long amount) {
        TableWriter warehouse = db.table("warehouse");
        Object[] wh = warehouse.get(w);
        wh[8] = (Long) wh[8] + amount;
        warehouse.update(wh);
        TableWriter district = db.table("district");
        Object[] dist = district.get(w, d);
        dist[9] = (Long) dist[9] + amount;
        district.update(dist);
        Object[] customer = chooseCustomer(w, d);
        customer[16] = (Long) customer[16] - amount;
        customer[17] = (Long) customer[17] + amount;
        customer[18] = (Integer) customer[18] + 1;
        if ("BC".equals(customer[13])) {
            String data = customer[0] + " " + d + " " + w + " " + d + " " + w + " " + amount + " | " + customer[20];
            customer[20] = data.substring(0, Math.min(500, data.length()));
        }
        db.table("customer").update(customer);
        db.table("history").insert(new Object[] {++historySeq, customer[0], d, w, d, w, now, amount,
                wh[1] + "    " + dist[2]});
    }

    /** Clause 2.6: a customer's last order and its lines; returns the lines read. */
    public int orderStatus(int w, int d) {
        Object[] customer = chooseCustomer(w, d);
        int[] last = {-1};
        db.table("orders").scanIndex("orders_by_customer", new Object[] {w, d, customer[0]}, o -> {
            last[0] = Math.max(last[0], (Integer) o[0]);
            return true;
        });
        int[] lines = {0};
        if (last[0] >= 0) {
            db.table("order_line").scan(new Object[] {w, d, last[0]}, ol -> {
                lines[0]++;
                return true;
            });
        }
        return lines[0];
    }

    /** Clause 2.7: the oldest undelivered order of each district delivered by {@code carrier}; returns the orders delivered. */
    public int delivery(int w, int carrier) {
        int delivered = 0;
        for (int d = 1; d <= TpccGenerator.DISTRICTS_PER_WAREHOUSE; d++) {
            Object[][] oldest = {null};
            db.table("new_order").scan(new Object[] {w, d}, no -> {
                oldest[0] = no;
                return false;
            });
            if (oldest[0] == null) {
                continue;
            }
            int orderId = (Integer) oldest[0][0];
            db.table("new_order").delete(w, d, orderId);
            TableWriter orders = db.table("orders");
            Object[] order = orders.get(w, d, orderId);
            order[5] = carrier;
            orders.update(order);
            TableWriter orderLines = db.table("order_line");
            List<Object[]> lines = new ArrayList<>();
            orderLines.scan(new Object[] {w, d, orderId}, lines::add);
            long total = 0;
            for (Object[] line : lines) {
                line[6] = now;
                total += (Long) line[8];
                orderLines.update(line);
            }
            TableWriter customers = db.table("customer");
            Object[] customer = customers.get(w, d, order[3]);
            customer[16] = (Long) customer[16] + total;
            customer[19] = (Integer) customer[19] + 1;
            customers.update(customer);
            delivered++;
        }
        return delivered;
    }

    /** Clause 2.8: how many items of the district's last 20 orders are below {@code threshold} in stock. */
    public int stockLevel(int w, int d, int threshold) {
        int next = (Integer) db.table("district").get(w, d)[10];
        Set<Integer> items = new HashSet<>();
        for (int o = Math.max(1, next - 20); o < next; o++) {
            db.table("order_line").scan(new Object[] {w, d, o}, ol -> items.add((Integer) ol[4]) || true);
        }
        int low = 0;
        for (int item : items) {
            if ((Integer) db.table("stock").get(w, item)[2] < threshold) {
                low++;
            }
        }
        return low;
    }

    /** Clause 2.5.1.2: by last name 60% of the time (the middle one of those of that name), else by id. */
    private Object[] chooseCustomer(int w, int d) {
        if (r.uniform(1, 100) > 60) {
            return db.table("customer").get(w, d, r.customerId());
        }
        List<Object[]> named = new ArrayList<>();
        db.table("customer").scanIndex("customer_by_name", new Object[] {w, d, r.lastName()}, named::add);
        if (named.isEmpty()) { // a name no customer of the district has: one by id instead
            return db.table("customer").get(w, d, r.customerId());
        }
        return named.get((named.size() - 1) / 2);
    }
}
