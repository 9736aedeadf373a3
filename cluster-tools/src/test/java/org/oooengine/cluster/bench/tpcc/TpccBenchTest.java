package org.oooengine.cluster.bench.tpcc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.oooengine.core.cluster.ClusterSession;
import org.oooengine.core.cluster.TestCluster;
import org.oooengine.core.tpcc.TpccCluster;

/** The TPC-C driver on two nodes: its terminals keep transactions going and the report adds up. */
class TpccBenchTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(value = TpccCluster.Engine.class, names = "OOO") // the driver is the same for both engines
    void terminalsRunTheMixAndTheReportAddsUp(TpccCluster.Engine engine) throws Exception {
        try (TestCluster cluster = new TestCluster(dir, 2); ClusterSession session = cluster.session()) {
            Map<String, Object> r = TpccBench.run(session.peers(), engine, 2, 6, 0.3, 1.5, false, line -> { });
            assertEquals(engine.label(), r.get("engine"));
            assertEquals(6, r.get("clients"));
            assertEquals(true, r.get("consistency_ok"), r::toString);
            @SuppressWarnings("unchecked")
            Map<String, Long> committed = (Map<String, Long>) r.get("committed");
            long total = committed.values().stream().mapToLong(Long::longValue).sum();
            assertTrue(committed.get("new_order") > 0 && committed.get("payment") > 0, r::toString);
            assertEquals((long) (committed.get("new_order") * 60 / 1.5), ((Number) r.get("tpmC")).longValue(), r::toString);
            assertEquals((long) (total / 1.5), ((Number) r.get("tps")).longValue(), r::toString);
            assertTrue((double) r.get("p99_ms") >= (double) r.get("p50_ms"), r::toString);
            assertEquals(0L, r.get("failed"), r::toString);
            assertEquals(List.of(), r.get("consistency_problems"));
        }
    }
}
