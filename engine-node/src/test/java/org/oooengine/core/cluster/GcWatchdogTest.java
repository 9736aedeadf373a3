package org.oooengine.core.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The garbage collection watchdog on a clock of its own: it ends a process that spent at least 90%
 * of 30 s in collection, and only that, after its farewell, with the out-of-memory exit code.
 */
class GcWatchdogTest {
    private static final long SECOND = 1_000_000_000L;

    @TempDir
    Path tmp;

    private final AtomicLong now = new AtomicLong(123 * SECOND);
    private final AtomicLong gcMillis = new AtomicLong();
    private final AtomicInteger haltedWith = new AtomicInteger(-1);
    private final List<String> farewells = new ArrayList<>();

    private GcWatchdog watchdog(Path report) {
        return new GcWatchdog("node n2", gcMillis::get, now::get, report, farewells::add, haltedWith::set);
    }

    /** One second passes, {@code gcMs} of it in garbage collection; then a sample. */
    private boolean second(GcWatchdog w, long gcMs) {
        now.addAndGet(SECOND);
        gcMillis.addAndGet(gcMs);
        return w.sample();
    }

    @Test
    void thrashingForAWholeWindowEndsTheProcessAfterItsFarewell() {
        GcWatchdog w = watchdog(null);
        w.sample();
        for (int i = 1; i < 30; i++) {
            assertFalse(second(w, 970), "not before a whole window, second " + i);
        }
        assertTrue(second(w, 970));
        assertEquals(0.97, w.share(), 1e-9);
        assertEquals(Duration.ofSeconds(30), w.observed());

        w.end();
        assertEquals(List.of("node n2 ran out of memory: it spent 97% of the last 30 s in garbage collection"), farewells);
        assertEquals(GcWatchdog.EXIT_CODE, haltedWith.get());
        assertEquals(3, GcWatchdog.EXIT_CODE, "the exit code of -XX:+ExitOnOutOfMemoryError");
    }

    @Test
    void muchCollectionBelowTheLimitOrABurstShorterThanTheWindowIsLeftAlone() {
        GcWatchdog w = watchdog(null);
        w.sample();
        for (int i = 0; i < 120; i++) {
            assertFalse(second(w, 850), "85% of every second, for ever");
        }
        assertEquals(0.85, w.share(), 1e-9);
        for (int i = 0; i < 30; i++) {
            assertFalse(second(w, 0));
        }
        // 20 s of nothing but collection, after which the heap is freed: 20 of the last 30 s.
        for (int i = 0; i < 20; i++) {
            assertFalse(second(w, 1000));
        }
        for (int i = 0; i < 40; i++) {
            assertFalse(second(w, 10));
        }
        assertEquals(0.01, w.share(), 1e-9);
        assertEquals(-1, haltedWith.get());
    }

    @Test
    void aWatchdogStarvedByOneLongCollectionJudgesTheWholeTimeItMissed() {
        GcWatchdog w = watchdog(null);
        w.sample();
        second(w, 0);
        // The sampling thread did not run for 40 s, 39 of them in collections.
        now.addAndGet(40 * SECOND);
        gcMillis.addAndGet(39_000);
        assertTrue(w.sample());
        assertTrue(w.share() > 0.9, () -> "share " + w.share());
    }

    @Test
    void theReportFileTellsTheShareForStatusToRead() {
        Path report = tmp.resolve("n2.gc");
        GcWatchdog w = watchdog(report);
        w.sample();
        for (int i = 0; i < 10; i++) {
            second(w, 600);
        }
        GcWatchdog.Report r = GcWatchdog.Report.read(report).orElseThrow();
        assertEquals(0.6, r.share(), 1e-3);
        assertEquals(10, r.seconds());
        assertTrue(Duration.between(r.at(), Instant.now()).abs().getSeconds() < 60, r::toString);
        assertEquals("60% of the last 10 s in garbage collection", r.describe());
        assertTrue(GcWatchdog.Report.read(tmp.resolve("none.gc")).isEmpty());
    }

    @Test
    void theRealCollectorsAreCountedAndNoWatchdogRunsUnlessStarted() {
        assertTrue(GcWatchdog.collectorMillis() >= 0);
        assertNull(GcWatchdog.running().orElse(null), "only ooo node and ooo server start one");
    }
}
