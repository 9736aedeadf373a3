package org.oooengine.core.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** A pipeline started once its broadcast rows are on the node ({@link PipelineClient#afterwards}). */
class PipelineAfterStagingTest {
    @Test
    void thePipelineStartsOnlyOnceTheRowsAreThere() throws Exception {
        CompletableFuture<Void> staged = new CompletableFuture<>();
        AtomicBoolean started = new AtomicBoolean();
        CompletableFuture<String> result = PipelineClient.afterwards(staged, () -> {
            started.set(true);
            return CompletableFuture.completedFuture("ran");
        });
        assertFalse(started.get());
        staged.complete(null);
        assertEquals("ran", result.get(5, TimeUnit.SECONDS));
    }

    @Test
    void aFailureToStageOrToStartFailsTheResult() {
        IllegalStateException down = new IllegalStateException("node n2 is down");
        ExecutionException staging = assertThrows(ExecutionException.class,
                () -> PipelineClient.afterwards(CompletableFuture.failedFuture(down),
                        () -> CompletableFuture.completedFuture("ran")).get(5, TimeUnit.SECONDS));
        assertSame(down, staging.getCause());
        ExecutionException starting = assertThrows(ExecutionException.class,
                () -> PipelineClient.<String>afterwards(CompletableFuture.completedFuture(null), () -> {
                    throw down;
                }).get(5, TimeUnit.SECONDS));
        assertSame(down, starting.getCause());
    }

    @Test
    void cancellingTheResultStopsThePipeline() {
        CompletableFuture<Void> staged = new CompletableFuture<>();
        CompletableFuture<String> running = new CompletableFuture<>();
        CompletableFuture<String> result = PipelineClient.afterwards(staged, () -> running);
        staged.complete(null);
        result.cancel(false);
        assertTrue(running.isCancelled(), "the node's work is stopped");
    }
}
