package org.oooengine.core.cluster;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.oooengine.core.fragment.PartitionPipeline;
import org.oooengine.core.net.RemoteException;
import org.oooengine.core.threads.DaemonThreads;

/**
 * One pipeline run over every partition of a table whose partitions have copies, its rows going
 * to the coordinator, so that a lost or slow node does not hold up the statement. Each run's rows
 * are held until it ends (up to {@value #HELD_ROWS_MAX}; beyond, they are passed on as they come
 * and that run is the partition's only one). A run that loses its node runs again at once on
 * another holder of its partition; with hedging, a run still going when the runs that ended say
 * it is late — over {@value #LATE_FACTOR} times their median time (and {@value #MIN_LATE_MILLIS}
 * ms), once half of them have ended — runs again on another holder too, as MapReduce's
 * speculative tasks and "The Tail at Scale"'s hedged requests do. The first of a partition's runs
 * to end delivers its rows and the other is cancelled.
 */
public final class HedgedPartitions {
    private static final Logger LOG = LogManager.getLogger(HedgedPartitions.class);
    /** Rows a run holds back while another run of its partition might still deliver instead. */
    static final int HELD_ROWS_MAX = 65_536;
    static final double LATE_FACTOR = 2.0;
    static final long MIN_LATE_MILLIS = 50;
    private static final long CHECK_MILLIS = 10;
    private static final ScheduledExecutorService TIMER =
            Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("ooo-hedged-partitions"));

    /** Runs the pipeline over {@code part} on its node, its rows to the consumer; cancelling the future stops it. */
    public interface Run extends BiFunction<ServingNodes.Served, java.util.function.Consumer<List<Object[]>>,
            CompletableFuture<PartitionPipeline.Summary>> {
    }

    /** A partition's run that delivered: where it ran and what it did. */
    public record Ran(ServingNodes.Served part, PartitionPipeline.Summary summary) {
    }

    private final ServingNodes serving;
    private final String table;
    private final Run run;
    private final Function<ServingNodes.Served, java.util.function.Consumer<List<Object[]>>> rowsOf;
    private final boolean hedge;
    private final long startedAt = System.nanoTime();
    private final List<Partition> partitions = new ArrayList<>();
    private final AtomicInteger hedged = new AtomicInteger();
    private final AtomicInteger rerun = new AtomicInteger();
    private ScheduledFuture<?> checks;

    private HedgedPartitions(ServingNodes serving, String table, Run run,
                             Function<ServingNodes.Served, java.util.function.Consumer<List<Object[]>>> rowsOf,
                             boolean hedge) {
        this.serving = serving;
        this.table = table;
        this.run = run;
        this.rowsOf = rowsOf;
        this.hedge = hedge;
    }

    /**
     * Starts {@code run} over each of {@code served} (partitions of {@code table} where they are
     * served now); each run's rows go to {@code rowsOf} of the part that delivered them.
     * Cancelling a partition's future ({@link #runs}) cancels its runs.
     */
    public static HedgedPartitions start(ServingNodes serving, String table, List<ServingNodes.Served> served, Run run,
                                         Function<ServingNodes.Served, java.util.function.Consumer<List<Object[]>>> rowsOf,
                                         boolean hedge) {
        HedgedPartitions h = new HedgedPartitions(serving, table, run, rowsOf, hedge);
        served.forEach(part -> h.partitions.add(h.new Partition(part.partition())));
        for (int i = 0; i < served.size(); i++) {
            h.partitions.get(i).launch(served.get(i).node());
        }
        if (hedge && served.size() > 1) {
            h.checks = TIMER.scheduleWithFixedDelay(h::hedgeLateRuns, CHECK_MILLIS, CHECK_MILLIS, TimeUnit.MILLISECONDS);
            CompletableFuture.allOf(h.runs().toArray(CompletableFuture[]::new)).whenComplete((v, e) -> h.checks.cancel(false));
        }
        return h;
    }

    /** Each partition's outcome, in the order served: the run that delivered its rows. */
    public List<CompletableFuture<Ran>> runs() {
        return partitions.stream().map(p -> p.done).toList();
    }

    /** Runs started on a second holder because the first was late. */
    public int hedged() {
        return hedged.get();
    }

    /** Runs started again because their node was lost. */
    public int rerun() {
        return rerun.get();
    }

    /** Hedges each run late against those that ended (on the timer's thread). */
    private void hedgeLateRuns() {
        List<Long> ended = new ArrayList<>();
        for (Partition p : partitions) {
            if (p.done.isDone() && !p.done.isCompletedExceptionally()) {
                ended.add(p.endedAfterNanos);
            }
        }
        if (ended.isEmpty() || ended.size() * 2 < partitions.size()) {
            return;
        }
        ended.sort(null);
        long late = Math.max(TimeUnit.MILLISECONDS.toNanos(MIN_LATE_MILLIS), (long) (LATE_FACTOR * ended.get(ended.size() / 2)));
        long now = System.nanoTime() - startedAt;
        for (Partition p : partitions) {
            if (now > late && p.mayHedge()) {
                p.hedge(now);
            }
        }
    }

    /** One partition: its runs, of which the first to end delivers. */
    private final class Partition {
        final int partition;
        final CompletableFuture<Ran> done = new CompletableFuture<>();
        /** The nodes a run of it went to. */
        final Set<String> tried = new HashSet<>();
        final List<Attempt> running = new ArrayList<>();
        /** The run whose rows are passed on as they come: the only one from then on. */
        Attempt passing;
        boolean hedgedOnce;
        /** Whether its outcome is decided: the runs cancelled from then on are not failures. */
        boolean settled;
        volatile long endedAfterNanos;

        Partition(int partition) {
            this.partition = partition;
            done.whenComplete((v, e) -> {
                if (done.isCancelled()) { // the statement ended
                    synchronized (this) {
                        settled = true;
                    }
                    cancelAll(null);
                }
            });
        }

        synchronized boolean mayHedge() {
            return !hedgedOnce && !settled && passing == null && running.size() == 1;
        }

        /** A second run on another holder, unless there is none that may serve. */
        void hedge(long afterNanos) {
            synchronized (this) {
                hedgedOnce = true;
            }
            another().ifPresent(node -> {
                hedged.incrementAndGet();
                LOG.info("partition {} of {} is late after {} ms: it runs on {} too", partition, table,
                        afterNanos / 1_000_000, node);
                launch(node);
            });
        }

        /** A holder not tried yet that may serve; asked outside the lock, since asking may connect to a node. */
        private Optional<String> another() {
            Set<String> before;
            synchronized (this) {
                before = Set.copyOf(tried);
            }
            return serving.another(table, partition, before);
        }

        void launch(String node) {
            Attempt a = new Attempt(new ServingNodes.Served(partition, node));
            synchronized (this) {
                if (settled) {
                    return;
                }
                tried.add(node);
                running.add(a);
            }
            CompletableFuture<PartitionPipeline.Summary> f;
            try {
                f = run.apply(a.part, a::rows);
            } catch (RuntimeException e) {
                f = CompletableFuture.failedFuture(e);
            }
            a.future = f;
            synchronized (this) {
                if (settled && !running.contains(a)) {
                    f.cancel(false); // decided while it was being sent
                }
            }
            f.whenComplete((summary, e) -> {
                if (e == null) {
                    ended(a, summary);
                } else {
                    failed(a, e);
                }
            });
        }

        private void ended(Attempt a, PartitionPipeline.Summary summary) {
            synchronized (this) {
                if (settled || (passing != null && passing != a)) {
                    return;
                }
                settled = true;
                if (passing == null) {
                    rowsOf.apply(a.part).accept(a.held);
                }
                endedAfterNanos = System.nanoTime() - startedAt;
                cancelAll(a);
            }
            done.complete(new Ran(a.part, summary));
        }

        private void failed(Attempt a, Throwable e) {
            boolean runAgain;
            synchronized (this) {
                running.remove(a);
                if (settled || (passing != null && passing != a)) {
                    return; // cancelled as the loser
                }
                boolean nodeLost = RemoteException.lostNode(e) != null || RemoteException.notFound(e);
                if (!running.isEmpty() && passing == null && nodeLost) {
                    LOG.info("partition {} of {}: its run on {} failed ({}); its other run goes on", partition, table,
                            a.part.node(), e.getMessage());
                    return;
                }
                runAgain = nodeLost && passing == null;
            }
            if (runAgain) {
                // another() may connect to a node: not on the connection's thread
                TIMER.execute(() -> {
                    Optional<String> other = another();
                    if (other.isPresent()) {
                        rerun.incrementAndGet();
                        LOG.warn("partition {} of {} lost node {}: it runs again on {}", partition, table, a.part.node(),
                                other.get());
                        launch(other.get());
                    } else {
                        fail(e);
                    }
                });
                return;
            }
            fail(e);
        }

        private void fail(Throwable e) {
            synchronized (this) {
                if (settled) {
                    return;
                }
                settled = true;
                cancelAll(null);
            }
            done.completeExceptionally(e);
        }

        /** Cancels every run but {@code kept}. */
        private void cancelAll(Attempt kept) {
            List<Attempt> others;
            synchronized (this) {
                others = new ArrayList<>(running);
                running.clear();
                if (kept != null) {
                    running.add(kept);
                }
            }
            others.stream().filter(o -> o != kept && o.future != null).forEach(o -> o.future.cancel(false));
        }

        /** One run of the partition on one node. */
        private final class Attempt {
            final ServingNodes.Served part;
            List<Object[]> held = new ArrayList<>();
            volatile CompletableFuture<PartitionPipeline.Summary> future;

            Attempt(ServingNodes.Served part) {
                this.part = part;
            }

            void rows(List<Object[]> chunk) {
                synchronized (Partition.this) {
                    if (settled || (passing != null && passing != this)) {
                        return; // a loser's rows
                    }
                    if (passing == this) {
                        rowsOf.apply(part).accept(chunk);
                        return;
                    }
                    held.addAll(chunk);
                    if (held.size() > HELD_ROWS_MAX) { // too many to hold: this run delivers, alone
                        passing = this;
                        cancelAll(this);
                        rowsOf.apply(part).accept(held);
                        held = List.of();
                    }
                }
            }
        }
    }
}
