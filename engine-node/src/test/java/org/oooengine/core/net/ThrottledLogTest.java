package org.oooengine.core.net;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.junit.jupiter.api.Test;

/** A flood of refused connections writes one line per interval, not one per connection. */
class ThrottledLogTest {
    private static final Duration INTERVAL = Duration.ofSeconds(10);

    @Test
    void aThousandRefusalsInASecondWriteOneLineAndTheNextIntervalAnother() {
        long[] now = {0};
        ThrottledLog log = new ThrottledLog(LogManager.getLogger(ThrottledLogTest.class), Level.WARN,
                "refused connections", INTERVAL, () -> now[0]);
        for (int i = 0; i < 1000; i++) {
            log.log("node n1 refused a connection: /10.0.0.9:{} did not authenticate within 5000 ms", 40000 + i);
            now[0] += 1_000_000;
        }
        assertEquals(1, log.linesWritten());

        log.flush(); // too early: the interval has not passed
        assertEquals(1, log.linesWritten());
        now[0] += INTERVAL.toNanos();
        log.flush(); // the 999 left out, counted in one line
        log.flush(); // nothing new
        assertEquals(2, log.linesWritten());

        now[0] += INTERVAL.toNanos();
        log.log("node n1 refused a connection: /10.0.0.9:50000 did not authenticate within 5000 ms");
        assertEquals(3, log.linesWritten());
    }
}
