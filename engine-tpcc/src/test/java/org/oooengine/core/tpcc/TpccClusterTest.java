package org.oooengine.core.tpcc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.io.TempDir;
import org.oooengine.core.cluster.ClusterSession;
import org.oooengine.core.cluster.TestCluster;

/**
 * TPC-C on two nodes, one warehouse each, on the transactional tables and on the RocksDB baseline: the standard mix with remote
 * warehouses (NewOrder lines and Payments crossing to the other node by two-phase commit) run by
 * concurrent terminals through the nodes' stored procedure, then consistency conditions 1 to 4.
 */
class TpccClusterTest {
    private static final long NOW = 1_700_000_000_000_000L;

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(TpccCluster.Engine.class)
    void theMixOnTwoNodesKeepsTheConsistencyConditions(TpccCluster.Engine engine) throws Exception {
        try (TestCluster cluster = new TestCluster(dir, 2); ClusterSession session = cluster.session()) {
            TpccCluster tpcc = new TpccCluster(session.peers(), 2, engine);
            tpcc.load(7, NOW, (table, rows) -> { });
            assertEquals(2, tpcc.loadedWarehouses());
            assertEquals(List.of(), tpcc.consistencyProblems(), "as loaded");
            AtomicLong committed = new AtomicLong();
            AtomicLong remote = new AtomicLong();
            AtomicLong history = new AtomicLong(1L << 40);
            List<CompletableFuture<Void>> terminals = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                TpccInputs inputs = new TpccInputs(new TpccRandom(100 + t), 2, true);
                terminals.add(CompletableFuture.runAsync(() -> {
                    for (int i = 0; i < 150; i++) {
                        TpccCluster.Outcome o = tpcc.dispatch(inputs.next(), history.incrementAndGet(), NOW + 1).join();
                        committed.addAndGet(o.committed() ? 1 : 0);
                        remote.addAndGet(o.remote() ? 1 : 0);
                    }
                }));
            }
            CompletableFuture.allOf(terminals.toArray(CompletableFuture[]::new)).join();
            assertEquals(600, committed.get());
            assertTrue(remote.get() > 10, remote + " transactions crossed to the other node");
            assertEquals(List.of(), tpcc.consistencyProblems());
        }
    }
}
