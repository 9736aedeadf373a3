package org.oooengine.optimizer.cost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Several calibration runs make one of their medians with each figure's spread; two calibrations compare figure by figure. */
class CalibrationRunsTest {
    @TempDir
    Path cluster;

    private static Calibration run(int nodes, double sequential, double roundTrip, double coldReads8) {
        return new Calibration("2026-01-01T00:00:0" + (int) (sequential % 10) + "Z", nodes, 8192, 8192,
                new Calibration.Disk(sequential, Map.of(1, 17_000.0, 256, 60_000.0), 4),
                new Calibration.Network(roundTrip, Map.of(1, 9_000.0, 1024, 560_000.0)),
                new Calibration.IndexJoin(0.01, Map.of(1, 9_000.0, 8, coldReads8), Map.of(1, 60.0, 128, 2.0), 1.5, 10, 0.9),
                new Calibration.MapReduce(0.3, 0.45, 150, 1.2, 0.4));
    }

    @Test
    void threeRunsMakeTheirMediansWithEachFiguresSpread() {
        Calibration c = CalibrationRuns.combine(List.of(run(4, 1400, 80, 30_000), run(4, 1000, 100, 33_000),
                run(4, 1200, 90, 36_000)));
        assertEquals(1200, c.disk().sequentialMibPerSecond(), 1e-9);
        assertEquals(90, c.network().roundTripMicros(), 1e-9);
        assertEquals(33_000, c.indexJoin().readsPerSecond(8), 1e-9);
        assertEquals(400 / 1200.0, c.spread().get("disk.sequentialMibPerSecond"), 1e-12);
        assertEquals(20 / 90.0, c.spread().get("network.roundTripMicros"), 1e-12);
        assertEquals(6_000 / 33_000.0, c.spread().get("indexJoin.coldReadsPerSecond.8"), 1e-12);
        assertEquals(0, c.spread().get("mapReduce.scanMibPerSecond"), 1e-12);
        assertFalse(c.spread().containsKey("nodes"), "the cluster's shape is not a measurement");
        assertEquals("2026-01-01T00:00:00Z", c.measuredAt(), "taken when the last run was");
        c.write(cluster);
        assertEquals(c, Calibration.require(cluster));
    }

    @Test
    void oneRunHasNoSpread() {
        assertEquals(Map.of(), CalibrationRuns.combine(List.of(run(4, 1400, 80, 30_000))).spread());
    }

    @Test
    void runsOfDifferentClustersAreRefused() {
        assertThrows(IllegalArgumentException.class,
                () -> CalibrationRuns.combine(List.of(run(4, 1400, 80, 30_000), run(2, 1400, 80, 30_000))));
    }

    @Test
    void twoCalibrationsCompareFigureByFigure() {
        Map<String, Double> d = CalibrationRuns.differences(run(4, 1000, 80, 30_000), run(4, 1100, 80, 24_000));
        assertEquals(0.1, d.get("disk.sequentialMibPerSecond"), 1e-12);
        assertEquals(0.2, d.get("indexJoin.coldReadsPerSecond.8"), 1e-12);
        assertEquals(0, d.get("network.roundTripMicros"), 1e-12);
        assertEquals(List.of("indexJoin.coldReadsPerSecond.8"),
                CalibrationRuns.beyond(d, 0.1 + 1e-9).stream().map(Map.Entry::getKey).toList());
    }
}
