package org.oooengine.core.tpcc;

import java.util.ArrayList;
import java.util.List;

/** TPC-C's consistency conditions 1 to 4 (clause 3.3.2), checked for one warehouse. */
public final class TpccConsistency {
    private TpccConsistency() {
    }

    /** What breaks the conditions in warehouse {@code w}; empty when they hold. */
    public static List<String> problems(TpccTables db, int w) {
        List<String> problems = new ArrayList<>();
        long districtsYtd = 0;
        for (int d = 1; d <= TpccGenerator.DISTRICTS_PER_WAREHOUSE; d++) {
            districtsYtd += (Long) db.get("district", w, d)[9];
        }
        long warehouseYtd = (Long) db.get("warehouse", w)[8];
        if (warehouseYtd != districtsYtd) {
            problems.add("warehouse " + w + ": W_YTD " + warehouseYtd + " is not the sum of its districts' D_YTD "
                    + districtsYtd + " (condition 1)");
        }
        for (int d = 1; d <= TpccGenerator.DISTRICTS_PER_WAREHOUSE; d++) {
            String where = "warehouse " + w + " district " + d + ": ";
            int next = (Integer) db.get("district", w, d)[10];
            int[] maxOrder = {0};
            long[] lines = {0};
            long[] undelivered = {0};
            db.scan("orders", new Object[] {w, d}, o -> {
                maxOrder[0] = Math.max(maxOrder[0], (Integer) o[0]);
                lines[0] += (Integer) o[6];
                undelivered[0] += o[5] == null ? 1 : 0;
                return true;
            });
            int[] newOrders = {Integer.MAX_VALUE, 0, 0}; // min, max, count
            db.scan("new_order", new Object[] {w, d}, no -> {
                newOrders[0] = Math.min(newOrders[0], (Integer) no[0]);
                newOrders[1] = Math.max(newOrders[1], (Integer) no[0]);
                newOrders[2]++;
                return true;
            });
            long[] orderLines = {0};
            db.scan("order_line", new Object[] {w, d}, ol -> {
                orderLines[0]++;
                return true;
            });
            if (next - 1 != maxOrder[0] || newOrders[2] > 0 && next - 1 != newOrders[1]) {
                problems.add(where + "D_NEXT_O_ID - 1 = " + (next - 1) + ", the last order " + maxOrder[0]
                        + ", the last new order " + newOrders[1] + " (condition 2)");
            }
            if (newOrders[2] > 0 && newOrders[1] - newOrders[0] + 1 != newOrders[2]) {
                problems.add(where + newOrders[2] + " new orders from " + newOrders[0] + " to " + newOrders[1]
                        + " (condition 3)");
            }
            if (newOrders[2] != undelivered[0]) {
                problems.add(where + newOrders[2] + " new orders but " + undelivered[0] + " orders without a carrier");
            }
            if (lines[0] != orderLines[0]) {
                problems.add(where + "the orders count " + lines[0] + " lines, the order lines are " + orderLines[0]
                        + " (condition 4)");
            }
        }
        return problems;
    }
}
