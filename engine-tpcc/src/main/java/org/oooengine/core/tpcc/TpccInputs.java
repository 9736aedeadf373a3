package org.oooengine.core.tpcc;

import java.util.HashSet;
import java.util.Set;

/**
 * A terminal's stream of inputs in the standard mix (clause 5.2.3): NewOrder 45%, Payment 43%,
 * OrderStatus, Delivery and StockLevel 4% each, home warehouses uniform. With {@code remote}, 1% of
 * NewOrder's lines are supplied by another warehouse and 15% of Payments are by a customer of
 * another warehouse (clauses 2.4.1.5 and 2.5.1.2); without, everything is of the home warehouse.
 */
public final class TpccInputs {
    private final TpccRandom r;
    private final int warehouses;
    private final boolean remote;

    public TpccInputs(TpccRandom r, int warehouses, boolean remote) {
        this.r = r;
        this.warehouses = warehouses;
        this.remote = remote && warehouses > 1;
    }

    /** The next transaction's inputs. */
    public TpccInput next() {
        int roll = r.uniform(1, 100);
        int w = r.uniform(1, warehouses);
        if (roll <= 45) {
            return newOrder(w, r.uniform(1, TpccGenerator.DISTRICTS_PER_WAREHOUSE), r.customerId());
        } else if (roll <= 88) {
            int d = r.uniform(1, TpccGenerator.DISTRICTS_PER_WAREHOUSE);
            long amount = r.decimal(100, 500_000);
            int cw = w;
            int cd = d;
            if (remote && r.uniform(1, 100) <= 15) {
                cw = otherWarehouse(w);
                cd = r.uniform(1, TpccGenerator.DISTRICTS_PER_WAREHOUSE);
            }
            int[] byId = {0};
            String name = customer(byId);
            return new TpccInput.Payment(w, d, cw, cd, byId[0], name, amount);
        } else if (roll <= 92) {
            int d = r.uniform(1, TpccGenerator.DISTRICTS_PER_WAREHOUSE);
            int[] byId = {0};
            String name = customer(byId);
            return new TpccInput.OrderStatus(w, d, byId[0], name);
        } else if (roll <= 96) {
            return new TpccInput.Delivery(w, r.uniform(1, 10));
        }
        return new TpccInput.StockLevel(w, r.uniform(1, TpccGenerator.DISTRICTS_PER_WAREHOUSE), r.uniform(10, 20));
    }

    private TpccInput.NewOrder newOrder(int w, int d, int c) {
        int lines = r.uniform(5, 15);
        int[] items = new int[lines];
        int[] supply = new int[lines];
        int[] quantities = new int[lines];
        Set<Integer> chosen = new HashSet<>();
        for (int line = 0; line < lines; line++) {
            int item = r.itemId();
            while (!chosen.add(item)) { // one line per item, as the order lines' key allows
                item = r.itemId();
            }
            items[line] = item;
            supply[line] = remote && r.uniform(1, 100) == 1 ? otherWarehouse(w) : w;
            quantities[line] = r.uniform(1, 10);
        }
        return new TpccInput.NewOrder(w, d, c, items, supply, quantities);
    }

    /** Clause 2.5.1.2: by last name 60% of the time (the name in the result), else by id (in {@code byId[0]}). */
    private String customer(int[] byId) {
        if (r.uniform(1, 100) > 60) {
            byId[0] = r.customerId();
            return null;
        }
        return r.lastName();
    }

    private int otherWarehouse(int w) {
        int other = r.uniform(1, warehouses - 1);
        return other >= w ? other + 1 : other;
    }
}
