package org.oooengine.core.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.trino.tpch.TpchTable;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * A requester that pauses longer than a request's timeout between reads — a map task sorting and
 * spilling its output on a busy host — still gets every row of its scan: the node waits for a
 * live reader far longer than for an answer.
 */
class SlowReaderTest {
    @Test
    void aScanWaitsForAReaderThatPausesLongerThanTheTimeout() throws Exception {
        try (TpchCluster tpch = new TpchCluster("ooo-slow-reader", 1, 0.02, List.of())) {
            String node = tpch.session.spec().nodes().get(0).id();
            AtomicLong rows = new AtomicLong();
            AtomicBoolean paused = new AtomicBoolean();
            long scanned = tpch.session.scan(node, "lineitem", chunk -> {
                if (paused.compareAndSet(false, true)) {
                    sleep(TestCluster.TIMEOUT.toMillis() * 3 / 2); // the node's buffers fill meanwhile
                }
                rows.addAndGet(chunk.size());
            }).join();
            assertEquals(tpch.single.table("lineitem").rows(), scanned);
            assertEquals(scanned, rows.get());
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
