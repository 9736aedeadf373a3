package org.oooengine.core.net;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import org.apache.logging.log4j.LogManager;
import org.junit.jupiter.api.Test;

/** A flood of refused connections writes one WARN line per interval, not one per connection. */
class RefusalLogTest {
    private static final Duration INTERVAL = Duration.ofSeconds(10);

    @Test
    void aThousandRefusalsInASecondWriteOneWarningAndTheNextIntervalAnother() {
        long[] now = {0};
        RefusalLog log = new RefusalLog(LogManager.getLogger(RefusalLogTest.class), "n1", INTERVAL, () -> now[0]);
        for (int i = 0; i < 1000; i++) {
            log.refused("/10.0.0.9:" + (40000 + i) + " did not authenticate within 5000 ms");
            now[0] += 1_000_000;
        }
        assertEquals(1, log.warnings());

        now[0] += INTERVAL.toNanos();
        log.refused("/10.0.0.9:50000 did not authenticate within 5000 ms");
        assertEquals(2, log.warnings());
    }
}
