package org.oooengine.core.ooo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TaskSchedulerTest {
    private static final ScheduledExecutorService POOL = Executors.newScheduledThreadPool(4);

    @AfterAll
    static void shutdown() {
        POOL.shutdownNow();
    }

    /** A fake I/O that completes after a random delay, counting how many are outstanding. */
    private static CompletableFuture<Void> io(AtomicInteger outstanding, AtomicInteger peak) {
        int now = outstanding.incrementAndGet();
        peak.accumulateAndGet(now, Math::max);
        CompletableFuture<Void> f = new CompletableFuture<>();
        POOL.schedule(() -> {
            outstanding.decrementAndGet();
            f.complete(null);
        }, java.util.concurrent.ThreadLocalRandom.current().nextInt(300), TimeUnit.MICROSECONDS);
        return f;
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 7, 64, 500})
    void budgetIsNeverExceededAndEveryTaskRuns(int budget) {
        AtomicInteger outstanding = new AtomicInteger();
        AtomicInteger peak = new AtomicInteger();
        LongAdder leaves = new LongAdder();
        TaskScheduler s = new TaskScheduler(budget, POOL);
        int outerBatches = 40;
        AtomicInteger batch = new AtomicInteger();
        TaskScheduler.Task[] producer = new TaskScheduler.Task[1];
        producer[0] = () -> io(outstanding, peak).thenRun(() -> {
            for (int i = 0; i < 25; i++) {
                // each outer row: one probe I/O, then a fan-out of fetches, some of them synchronous
                s.spawn(() -> io(outstanding, peak).thenRun(() -> {
                    for (int j = 0; j < 3; j++) {
                        boolean cached = (j & 1) == 0;
                        s.spawn(() -> cached ? CompletableFuture.runAsync(leaves::increment, Runnable::run)
                                : io(outstanding, peak).thenRun(leaves::increment));
                    }
                }));
            }
            if (batch.incrementAndGet() < outerBatches) {
                s.produce(producer[0]);
            }
        });
        s.produce(producer[0]);
        s.start().join();
        assertEquals(outerBatches * 25 * 3, leaves.sum());
        assertTrue(s.maxInflight() <= budget, "tasks in flight " + s.maxInflight() + " > budget " + budget);
        assertTrue(peak.get() <= budget, "I/Os in flight " + peak.get() + " > budget " + budget);
        if (budget >= 64) {
            assertTrue(s.maxInflight() >= 32, "out-of-order run kept only " + s.maxInflight() + " tasks in flight");
        }
        assertEquals(outerBatches + outerBatches * 25 + outerBatches * 25 * 3, s.tasksRun());
    }

    @Test
    void firstFailureEndsTheRun() {
        TaskScheduler s = new TaskScheduler(8, POOL);
        IllegalStateException boom = new IllegalStateException("boom");
        s.produce(() -> {
            for (int i = 0; i < 100; i++) {
                int n = i;
                s.spawn(() -> n == 50 ? CompletableFuture.failedFuture(boom) : CompletableFuture.completedFuture(null));
            }
            return CompletableFuture.completedFuture(null);
        });
        CompletionException e = assertThrows(CompletionException.class, () -> s.start().join());
        assertSame(boom, e.getCause());
    }

    @Test
    void emptyRunCompletes() {
        new TaskScheduler(4, POOL).start().join();
    }
}
