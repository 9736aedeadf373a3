package org.oooengine.core.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.oooengine.core.fragment.NodeMemory;
import org.oooengine.core.fragment.QueryMemory;
import org.oooengine.core.fragment.SpillSpace;

/**
 * A node's queue of statements: no more than its limit run at once, none starts while those
 * running hold most of its memory, one that waited too long fails by name, and the next one
 * starts as soon as one ends.
 */
@Timeout(30)
class AdmissionTest {
    @Test
    void statementsBeyondTheLimitWaitTheirTurnAndFailClearlyAfterTheWait() throws Exception {
        NodeMemory memory = new NodeMemory("node n1", 100 << 20, "ooo node --statements-memory");
        Admission admission = new Admission("n1", NodeService.Caps.DEFAULTS.withStatements(0, 1, Duration.ofMillis(1500)), memory);
        admission.enter(() -> false, () -> { });
        AtomicInteger beats = new AtomicInteger();
        Admission.AdmissionException e = assertThrows(Admission.AdmissionException.class,
                () -> admission.enter(() -> false, beats::incrementAndGet));
        assertTrue(e.getMessage().startsWith("node n1 did not start the statement within 1 s: 1 statements were running"),
                e.getMessage());
        assertTrue(beats.get() >= 1, "the requester heard the node was alive while it waited");
        // the next starts when the first ends
        CompletableFuture<Void> next = CompletableFuture.runAsync(() -> {
            try {
                admission.enter(() -> false, () -> { });
            } catch (InterruptedException ex) {
                throw new IllegalStateException(ex);
            }
        });
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (admission.waiting() == 0 && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertEquals(1, admission.waiting());
        assertTrue(!next.isDone(), "the next started while the first still ran");
        admission.exit();
        next.get(20, TimeUnit.SECONDS);
        assertEquals(1, admission.running());
        admission.exit();
    }

    @Test
    void noStatementStartsWhileThoseRunningHoldMostOfTheMemoryButOneAlwaysMay() throws Exception {
        NodeMemory memory = new NodeMemory("node n1", 100 << 20, "ooo node --statements-memory");
        Admission admission = new Admission("n1", NodeService.Caps.DEFAULTS.withStatements(0,
                NodeService.Caps.DEFAULT_MAX_STATEMENTS, Duration.ofMillis(1200)),
                memory);
        QueryMemory held = new QueryMemory("node n1", 100 << 20, QueryMemory.raiseWith("ooo.query.max-memory-per-node"), null, Long.MAX_VALUE,
                SpillSpace.unbounded(), memory);
        held.reserve("sort", 90 << 20);
        admission.enter(() -> false, () -> { }); // none running: it starts whatever is held
        assertThrows(Admission.AdmissionException.class, () -> admission.enter(() -> false, () -> { }));
        held.close();
        admission.enter(() -> false, () -> { });
        assertEquals(2, admission.running());
        assertThrows(java.util.concurrent.CancellationException.class, () -> {
            held.reserve("sort", 0);
            NodeMemory full = new NodeMemory("node n2", 1, "");
            Admission busy = new Admission("n2", NodeService.Caps.DEFAULTS.withStatements(0, 1,
                    Duration.ofSeconds(60)), full);
            busy.enter(() -> false, () -> { });
            busy.enter(() -> true, () -> { }); // the requester went away while it waited
        });
    }
}
