package org.oooengine.optimizer.cost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The calibration file: written and read back whole; one from before a figure existed is refused with what to do. */
class CalibrationFileTest {
    @TempDir
    Path cluster;

    private static Calibration sample() {
        return new Calibration("2026-01-01T00:00:00Z", 4, 8192, 8192,
                new Calibration.Disk(1400, Map.of(1, 17_000.0, 256, 60_000.0), 4),
                new Calibration.Network(80, Map.of(1, 9_000.0, 1024, 560_000.0)),
                new Calibration.IndexJoin(0.01, Map.of(1, 9_000.0, 128, 40_000.0), Map.of(1, 60.0, 128, 2.0), 1.5, 10, 0.9),
                new Calibration.MapReduce(0.3, 0.45, 150, 1.2, 0.4));
    }

    @Test
    void writtenAndReadBack() {
        Calibration c = sample();
        c.write(cluster);
        assertEquals(c, Calibration.require(cluster));
    }

    @Test
    void aFileWithoutTheStageStartUpAsksForANewCalibration() throws Exception {
        assertRefused(sample().toJson().replaceAll("\"stageStartupSeconds\" : [0-9.]+,", ""));
    }

    @Test
    void aFileWithoutTheCpuOfAColdReadAsksForANewCalibration() throws Exception {
        assertRefused(sample().toJson().replaceAll(",\\s*\"readCpuMicros\" : [0-9.]+,\\s*\"coldCoresBusy\" : [0-9.]+", ""));
    }

    private void assertRefused(String old) throws Exception {
        assertTrue(!old.contains("stageStartupSeconds") || !old.contains("coldCoresBusy"), old);
        Files.writeString(Calibration.file(cluster), old);
        UncheckedIOException e = assertThrows(UncheckedIOException.class, () -> Calibration.read(cluster));
        assertTrue(e.getMessage().contains("run 'ooo calibrate --cluster' again"), e.getMessage());
        assertTrue(e.getMessage().contains(Calibration.file(cluster).toString()), e.getMessage());
    }
}
