package org.oooengine.cluster.bench.tpcc;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.oooengine.cluster.bench.LatencyHistogram;
import org.oooengine.core.cluster.Peers;
import org.oooengine.core.tpcc.TpccCluster;
import org.oooengine.core.tpcc.TpccInput;
import org.oooengine.core.tpcc.TpccInputs;
import org.oooengine.core.tpcc.TpccRandom;
import org.oooengine.core.tpcc.TpccTransactions;

/**
 * TPC-C on a running cluster's transactional tables: terminals without think time, each drawing
 * the standard mix with remote warehouses over all warehouses and waiting for each transaction,
 * which the node of its home warehouse runs (a stored procedure); after the run the consistency
 * conditions are checked.
 */
public final class TpccBench {
    /** How the progress line that the terminals start begins: what follows takes the run's length. */
    public static final String RUNNING = "running ";

    public static final long SEED = 20_241_127;
    /** The time stamped on what is loaded and ordered: 2019-06-08, inside CH-benCHmark's periods (Q6, Q12 and Q14 end in 2020). */
    public static final long NOW = 1_560_000_000_000_000L;

    private TpccBench() {
    }

    /** Checks the consistency conditions only: what the crash test runs after killing nodes. */
    public static Map<String, Object> check(Peers peers, TpccCluster.Engine engine, int warehouses) {
        List<String> problems = new TpccCluster(peers, warehouses, engine).consistencyProblems();
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("warehouses", warehouses);
        r.put("consistency_ok", problems.isEmpty());
        r.put("consistency_problems", problems.subList(0, Math.min(10, problems.size())));
        return r;
    }

    /** A quarter of the measured seconds, at most 5. */
    public static double defaultWarmUp(double seconds) {
        return Math.min(5, seconds / 4);
    }

    /**
     * Loads {@code warehouses} warehouses unless the cluster holds exactly that many (another count
     * is refused unless {@code reload}), runs {@code clients} terminals for {@code warmUp} seconds
     * and then {@code seconds} measured seconds, and reports.
     */
    public static Map<String, Object> run(Peers peers, TpccCluster.Engine engine, int warehouses, int clients,
                                          double warmUp, double seconds, boolean reload, Consumer<String> progress)
            throws InterruptedException {
        TpccCluster tpcc = new TpccCluster(peers, warehouses, engine);
        int held = tpcc.loadedWarehouses();
        if (held != warehouses && held != 0 && !reload) {
            throw new IllegalArgumentException("the cluster holds TPC-C with " + held + " warehouses, not " + warehouses
                    + ": run with --reload to load " + warehouses + " anew");
        }
        if (held != warehouses) {
            if (held != 0) {
                tpcc.drop();
            }
            long t0 = System.nanoTime();
            tpcc.load(SEED, NOW, (table, rows) -> progress.accept(String.format("loaded %s: %,d rows", table, rows)));
            progress.accept(String.format("loaded %d warehouse(s) in %.1f s", warehouses, (System.nanoTime() - t0) / 1e9));
        }
        progress.accept(String.format(java.util.Locale.ROOT, RUNNING + "%d clients: %s s of warm-up, then %s s measured",
                clients, org.oooengine.cluster.bench.Format.significant(warmUp),
                org.oooengine.cluster.bench.Format.significant(seconds)));
        long start = System.nanoTime();
        long measureFrom = start + (long) (warmUp * 1e9);
        long end = measureFrom + (long) (seconds * 1e9);
        Tally tally = drive(tpcc, warehouses, clients, measureFrom, end, () -> { }, progress);
        long[] committed = tally.committed;
        progress.accept("checking the consistency conditions");
        List<String> problems = tpcc.consistencyProblems();
        long total = tally.commits();
        long newOrders = committed[TpccTransactions.Kind.NEW_ORDER.ordinal()];
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("engine", engine.label());
        r.put("warehouses", warehouses);
        r.put("nodes", peers.spec().nodes().size());
        r.put("clients", clients);
        r.put("seconds", seconds);
        r.put("warmup_seconds", warmUp);
        r.put("tpmC", newOrders * 60 / seconds);
        r.put("tps", total / seconds);
        r.put("new_order_tps", newOrders / seconds);
        r.put("abort_rate", tally.abortRate());
        r.put("p50_ms", tally.latencies.quantileMicros(0.5) / 1000);
        r.put("p99_ms", tally.latencies.quantileMicros(0.99) / 1000);
        r.put("remote_txn_share", total == 0 ? 0.0 : (double) tally.remote / total);
        r.put("consistency_ok", problems.isEmpty());
        Map<String, Object> byKind = new LinkedHashMap<>();
        for (TpccTransactions.Kind k : TpccTransactions.Kind.values()) {
            byKind.put(k.name().toLowerCase(java.util.Locale.ROOT), committed[k.ordinal()]);
        }
        r.put("committed", byKind);
        r.put("gave_up", tally.gaveUp);
        r.put("failed", tally.failed);
        r.put("consistency_problems", problems.subList(0, Math.min(10, problems.size())));
        return r;
    }

    /**
     * Runs {@code clients} terminals from now until {@code end} (nanoTime) and returns once they
     * are done with what they counted from {@code measureFrom} on; {@code onCommit} hears each
     * counted commit as it happens.
     */
    public static Tally drive(TpccCluster tpcc, int warehouses, int clients, long measureFrom, long end,
                              Runnable onCommit, Consumer<String> progress) throws InterruptedException {
        Tally tally = new Tally();
        AtomicLong history = new AtomicLong((ThreadLocalRandom.current().nextLong() & 0xffff) << 40 | 1L << 62);
        List<Terminal> terminals = new ArrayList<>();
        for (int t = 0; t < clients; t++) {
            TpccInputs inputs = new TpccInputs(new TpccRandom(SEED + 1000 + t + System.nanoTime()), warehouses, true);
            Terminal terminal = new Terminal(tpcc, inputs, history, measureFrom, end, onCommit, progress);
            terminals.add(terminal);
            terminal.next();
        }
        for (Terminal t : terminals) {
            try {
                t.done.get();
            } catch (java.util.concurrent.ExecutionException e) {
                throw new IllegalStateException("a terminal failed: " + e.getCause().getMessage(), e.getCause());
            }
            t.addTo(tally);
        }
        return tally;
    }

    /** What the terminals counted, summed after the run. */
    public static final class Tally {
        final long[] committed = new long[TpccTransactions.Kind.values().length];
        final LatencyHistogram latencies = new LatencyHistogram();
        long conflicts;
        long gaveUp;
        long failed;
        long remote;

        /** Transactions committed. */
        public long commits() {
            long total = 0;
            for (long c : committed) {
                total += c;
            }
            return total;
        }

        /** Attempts that conflicted and were tried again. */
        public long conflicts() {
            return conflicts;
        }

        /** Conflicts (each a retried attempt) over conflicts and commits. */
        public double abortRate() {
            long total = commits();
            return conflicts + total == 0 ? 0.0 : (double) conflicts / (conflicts + total);
        }
    }

    /**
     * A terminal without think time: one transaction in flight, the next one sent from the answer
     * to the last — on the network thread that received it, so that no terminal thread has to be
     * woken per transaction (the driver shares the machine with the nodes it measures).
     */
    private static final class Terminal {
        private static final java.util.concurrent.ScheduledExecutorService RETRY =
                java.util.concurrent.Executors.newSingleThreadScheduledExecutor(
                        org.oooengine.core.threads.DaemonThreads.named("tpcc-terminal-retry"));
        final java.util.concurrent.CompletableFuture<Void> done = new java.util.concurrent.CompletableFuture<>();
        private final TpccCluster tpcc;
        private final TpccInputs inputs;
        private final AtomicLong history;
        private final long measureFrom;
        private final long end;
        private final Consumer<String> progress;
        private final Runnable onCommit;
        private final Tally mine = new Tally();

        Terminal(TpccCluster tpcc, TpccInputs inputs, AtomicLong history, long measureFrom, long end,
                 Runnable onCommit, Consumer<String> progress) {
            this.onCommit = onCommit;
            this.tpcc = tpcc;
            this.inputs = inputs;
            this.history = history;
            this.measureFrom = measureFrom;
            this.end = end;
            this.progress = progress;
        }

        /** Sends the next transaction, or ends the terminal when the time is up. */
        void next() {
            try {
                TpccInput in = inputs.next();
                long t0 = System.nanoTime();
                if (t0 >= end) {
                    done.complete(null);
                    return;
                }
                tpcc.dispatch(in, history.incrementAndGet(), NOW + 1).whenComplete((o, e) -> {
                    if (e != null) {
                        // the home warehouse's node failed or is down: the transaction did not commit
                        if (++mine.failed == 1) {
                            progress.accept("a transaction failed: " + (e.getCause() != null ? e.getCause() : e).getMessage());
                        }
                        RETRY.schedule(this::next, 20, java.util.concurrent.TimeUnit.MILLISECONDS);
                        return;
                    }
                    if (t0 >= measureFrom) {
                        record(in, o, System.nanoTime() - t0);
                    }
                    next();
                });
            } catch (RuntimeException e) {
                done.completeExceptionally(e);
            }
        }

        private void record(TpccInput in, TpccCluster.Outcome o, long nanos) {
            mine.conflicts += o.conflicts();
            if (o.committed()) {
                onCommit.run();
                mine.committed[in.kind().ordinal()]++;
                mine.remote += o.remote() ? 1 : 0;
                mine.latencies.record(nanos);
            } else {
                mine.gaveUp++;
            }
        }

        /** Adds this terminal's counts to {@code sum}; call once it is done. */
        void addTo(Tally sum) {
            for (int k = 0; k < sum.committed.length; k++) {
                sum.committed[k] += mine.committed[k];
            }
            mine.latencies.addTo(sum.latencies);
            sum.conflicts += mine.conflicts;
            sum.gaveUp += mine.gaveUp;
            sum.failed += mine.failed;
            sum.remote += mine.remote;
        }
    }
}
