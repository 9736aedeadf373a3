package org.oooengine.core.ooo;

import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs a query fragment out of order: a graph of tasks, each issuing at most one I/O at a time and
 * spawning further tasks as its data arrives. At most {@code budget} tasks are in flight, so at
 * most {@code budget} I/Os are outstanding and memory stays bounded. A budget of 1 is in-order
 * execution of the very same operators.
 *
 * <p>Two queues: spawned work (depth first, so rows are finished before new ones are started) and
 * the producer, the outer input, which only runs while spawned work is short: when the budget is
 * spent the producer pauses.
 */
public final class TaskScheduler {
    /** One unit of work; the returned future completes when its last I/O and computation are done. */
    @FunctionalInterface
    public interface Task {
        CompletableFuture<?> run();
    }

    private final int budget;
    private final Executor executor;
    private final ArrayDeque<Task> work = new ArrayDeque<>();
    private final ArrayDeque<Task> producer = new ArrayDeque<>();
    private final AtomicInteger wip = new AtomicInteger();
    private final CompletableFuture<Void> done = new CompletableFuture<>();
    private int inflight;
    private int maxInflight;
    private long tasksRun;
    private Throwable failure;
    private boolean started;

    public TaskScheduler(int budget, Executor executor) {
        if (budget < 1) {
            throw new IllegalArgumentException("in-flight budget must be at least 1, got " + budget);
        }
        this.budget = budget;
        this.executor = executor;
    }

    public int budget() {
        return budget;
    }

    /** Queues work spawned by a running task. */
    public void spawn(Task task) {
        synchronized (this) {
            work.addLast(task);
        }
        drain();
    }

    /** Queues the next step of the outer input; it runs only when spawned work is below the budget. */
    public void produce(Task task) {
        synchronized (this) {
            producer.addLast(task);
        }
        drain();
    }

    /** Starts running; the future completes when every task has finished, or with the first failure. */
    public CompletableFuture<Void> start() {
        synchronized (this) {
            started = true;
        }
        executor.execute(this::drain);
        return done;
    }

    /** Most tasks that were in flight at once. */
    public synchronized int maxInflight() {
        return maxInflight;
    }

    public synchronized long tasksRun() {
        return tasksRun;
    }

    private synchronized Task next() {
        // Nothing runs before start(): the caller measures from there.
        if (!started || failure != null || inflight >= budget) {
            return null;
        }
        Task t = work.pollLast();
        if (t == null && work.size() < budget) {
            t = producer.pollFirst();
        }
        if (t != null) {
            inflight++;
            tasksRun++;
            maxInflight = Math.max(maxInflight, inflight);
        }
        return t;
    }

    /** Drain loop: re-entrant calls (a task completing synchronously) only mark that more is to do. */
    private void drain() {
        if (wip.getAndIncrement() != 0) {
            return;
        }
        do {
            Task t;
            while ((t = next()) != null) {
                launch(t);
            }
            finishIfDone();
        } while (wip.decrementAndGet() != 0);
    }

    private void launch(Task t) {
        CompletableFuture<?> f;
        try {
            f = t.run();
        } catch (Throwable e) {
            f = CompletableFuture.failedFuture(e);
        }
        f.whenComplete((r, e) -> {
            synchronized (this) {
                inflight--;
                if (e != null && failure == null) {
                    failure = e instanceof java.util.concurrent.CompletionException && e.getCause() != null ? e.getCause() : e;
                    work.clear();
                    producer.clear();
                }
            }
            drain();
        });
    }

    private void finishIfDone() {
        Throwable fail;
        synchronized (this) {
            if (!started || inflight > 0 || (failure == null && (!work.isEmpty() || !producer.isEmpty()))) {
                return;
            }
            fail = failure;
        }
        if (fail != null) {
            done.completeExceptionally(fail);
        } else {
            done.complete(null);
        }
    }
}
