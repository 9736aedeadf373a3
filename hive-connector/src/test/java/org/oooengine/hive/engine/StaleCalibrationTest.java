package org.oooengine.hive.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.trino.tpch.TpchTable;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.oooengine.core.cluster.TestCluster;
import org.oooengine.core.cluster.TpchCluster;
import org.oooengine.hive.sql.Cancellation;
import org.oooengine.hive.sql.SqlSession;
import org.oooengine.optimizer.cost.Calibration;

/** A calibration an older version wrote does not keep the coordinator from serving SQL. */
class StaleCalibrationTest {
    @Test
    void theCoordinatorServesWithoutTheOptimizerWhenItCannotReadTheCalibration() throws Exception {
        try (TpchCluster tpch = new TpchCluster("ooo-stale-calibration-test", 2, 0.01, List.of(TpchTable.NATION))) {
            // an index join's figures from before a cold read's CPU was calibrated
            Files.writeString(Calibration.file(tpch.cluster.dir), "{\"nodes\": 2, \"indexJoin\": {\"dispatchSeconds\": 0.01,"
                    + " \"coldReadsPerSecond\": {\"1\": 9000}, \"requestMicros\": {\"1\": 60}, \"warmRowMicros\": 1.5}}");
            assertThrows(UncheckedIOException.class, () -> Calibration.read(tpch.cluster.dir));
            try (ClusterSqlEngine engine = ClusterSqlEngine.open(tpch.cluster.dir, TestCluster.TIMEOUT)) {
                SqlSession s = engine.openSession("test", "default", Map.of());
                List<Object[]> rows = new ArrayList<>();
                s.execute("SELECT count(*) FROM nation WHERE n_regionkey = 1", new Cancellation()).rows()
                        .forEachRemaining(rows::add);
                assertEquals(5L, ((Number) rows.get(0)[0]).longValue());
            }
        }
    }
}
