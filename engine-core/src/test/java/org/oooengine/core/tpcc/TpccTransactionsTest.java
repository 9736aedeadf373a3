package org.oooengine.core.tpcc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.oooengine.core.storage.BTreeChecker;
import org.oooengine.core.storage.BufferPool;
import org.oooengine.core.storage.SplitPolicy;
import org.oooengine.core.storage.TestPools;

/**
 * The transactions of the standard mix, run in place on one warehouse's tables, keep TPC-C's
 * consistency conditions (clause 3.3.2) and every tree's invariants.
 */
class TpccTransactionsTest {
    private static final long NOW = 1_700_000_000_000L;

    @TempDir
    Path dir;

    @Test
    void theMixKeepsTheConsistencyConditions() throws Exception {
        TpccDatabase.load(dir, 1, 3, NOW);
        BufferPool pool = new BufferPool(4 << 20, TpccDatabase.PAGE_SIZE, TestPools.IO, TestPools.CPU);
        try (TpccDatabase db = TpccDatabase.open(dir, 1, SplitPolicy.PREFIX, pool)) {
            TpccTransactions tx = new TpccTransactions(db, 9, NOW + 1);
            for (int i = 0; i < 2_000; i++) {
                tx.next();
                if (i % 250 == 249) {
                    db.flush();
                }
            }
            db.flush();
            long[] counts = tx.counts();
            assertTrue(counts[TpccTransactions.Kind.NEW_ORDER.ordinal()] > 800 && counts[TpccTransactions.Kind.DELIVERY.ordinal()] > 40,
                    java.util.Arrays.toString(counts));
            // 1: the warehouse's year-to-date is its districts'
            long districtsYtd = 0;
            for (int d = 1; d <= 10; d++) {
                districtsYtd += (Long) db.table("district").get(1, d)[9];
            }
            assertEquals((Long) db.table("warehouse").get(1)[8], districtsYtd);
            for (int d = 1; d <= 10; d++) {
                int next = (Integer) db.table("district").get(1, d)[10];
                int[] maxOrder = {0};
                long[] lines = {0};
                long[] undelivered = {0};
                db.table("orders").scan(new Object[] {1, d}, o -> {
                    maxOrder[0] = Math.max(maxOrder[0], (Integer) o[0]);
                    lines[0] += (Integer) o[6];
                    undelivered[0] += o[5] == null ? 1 : 0;
                    return true;
                });
                int[] newOrders = {Integer.MAX_VALUE, 0, 0}; // min, max, count
                db.table("new_order").scan(new Object[] {1, d}, no -> {
                    newOrders[0] = Math.min(newOrders[0], (Integer) no[0]);
                    newOrders[1] = Math.max(newOrders[1], (Integer) no[0]);
                    newOrders[2]++;
                    return true;
                });
                long[] orderLines = {0};
                db.table("order_line").scan(new Object[] {1, d}, ol -> {
                    orderLines[0]++;
                    return true;
                });
                // 2: the next order id follows the last order and the last new order
                assertEquals(next - 1, maxOrder[0], "district " + d);
                assertEquals(next - 1, newOrders[1], "district " + d);
                // 3: the undelivered orders are one run
                assertEquals(newOrders[1] - newOrders[0] + 1, newOrders[2], "district " + d);
                assertEquals(newOrders[2], undelivered[0], "district " + d);
                // 4: every order's lines are there
                assertEquals(lines[0], orderLines[0], "district " + d);
            }
            for (String table : java.util.List.of("orders", "new_order", "order_line", "stock", "customer")) {
                var problems = BTreeChecker.problems(db.table(table).data().reader());
                assertTrue(problems.isEmpty(), table + ": " + String.join("\n", problems));
            }
        }
    }
}
