package org.oooengine.core.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The supervisor's record of how a node's previous run ended, as the node reads it and reports it. */
class PreviousEndTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void theSupervisorsLineIsReadAndReportedWithItsAge() throws Exception {
        Path file = PreviousEnd.file(dir, "n1");
        assertEquals(dir.resolve("run").resolve("n1.ended"), file);
        assertEquals(Optional.empty(), PreviousEnd.read(file));
        Files.createDirectories(file.getParent());
        Files.writeString(file, "1795855262 out of memory, exit code 3: java.lang.OutOfMemoryError: Java heap space\n");
        PreviousEnd end = PreviousEnd.read(file).orElseThrow();
        assertEquals(Instant.parse("2026-11-28T08:41:02Z"), end.at());
        assertTrue(end.outOfMemory());
        assertEquals("exit code 3: java.lang.OutOfMemoryError: Java heap space", end.detail());
        assertEquals("out of memory, exit code 3: java.lang.OutOfMemoryError: Java heap space, at 2026-11-28T08:41:02Z",
                end.toString());

        Map<String, Object> stats = Map.of(PreviousEnd.STATS_FIELD, end.toStats(Instant.parse("2026-11-28T08:41:06.500Z")));
        PreviousEnd.Reported reported = PreviousEnd.fromStats(JSON.valueToTree(stats)).orElseThrow();
        assertEquals(end, reported.end());
        assertEquals(4.5, reported.secondsAgo(), 1e-9);
        assertEquals(Optional.empty(), PreviousEnd.fromStats(JSON.valueToTree(Map.of("node", "n1"))));
    }

    @Test
    void theCausesOfTheWatchdogAndOfSystemdReadToo() {
        PreviousEnd watchdog = PreviousEnd.parse("1795855262 out of memory, exit code 3: node n2 ran out of memory: it "
                + "spent 96% of the last 30 s in garbage collection");
        assertEquals("exit code 3: it spent 96% of the last 30 s in garbage collection", watchdog.detail());
        PreviousEnd kernel = PreviousEnd.parse("1795855262 out of memory, killed by the kernel's out-of-memory killer (signal KILL)");
        assertTrue(kernel.outOfMemory());
        assertEquals("killed by the kernel's out-of-memory killer (signal KILL)", kernel.detail());
        assertFalse(PreviousEnd.parse("1795855262 killed by signal 9, exit code 137").outOfMemory());
        assertThrows(IllegalArgumentException.class, () -> PreviousEnd.parse("yesterday out of memory"));
        assertThrows(IllegalArgumentException.class, () -> PreviousEnd.parse("1795855262"));
    }
}
