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
    private static final long NOW = 1_700_000_000_000_000L;

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
            assertEquals(java.util.List.of(), TpccConsistency.problems(db, 1));
            for (String table : java.util.List.of("orders", "new_order", "order_line", "stock", "customer")) {
                var problems = BTreeChecker.problems(db.table(table).data().reader());
                assertTrue(problems.isEmpty(), table + ": " + String.join("\n", problems));
            }
        }
    }
}
