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
    public static final long SEED = 20_241_127;
    static final long NOW = 1_700_000_000_000L;

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
        long start = System.nanoTime();
        long measureFrom = start + (long) (warmUp * 1e9);
        long end = measureFrom + (long) (seconds * 1e9);
        long[] committed = new long[TpccTransactions.Kind.values().length];
        AtomicLong conflicts = new AtomicLong();
        AtomicLong failed = new AtomicLong();
        AtomicLong failures = new AtomicLong();
        AtomicLong remote = new AtomicLong();
        AtomicLong history = new AtomicLong((ThreadLocalRandom.current().nextLong() & 0xffff) << 40 | 1L << 62);
        LatencyHistogram latencies = new LatencyHistogram();
        List<Thread> terminals = new ArrayList<>();
        List<Throwable> errors = new ArrayList<>();
        for (int t = 0; t < clients; t++) {
            TpccInputs inputs = new TpccInputs(new TpccRandom(SEED + 1000 + t + System.nanoTime()), warehouses, true);
            Thread terminal = new Thread(() -> {
                LatencyHistogram mine = new LatencyHistogram();
                long[] kinds = new long[committed.length];
                long myConflicts = 0;
                long myFailed = 0;
                long myRemote = 0;
                long myErrors = 0;
                try {
                    while (true) {
                        TpccInput in = inputs.next();
                        long t0 = System.nanoTime();
                        if (t0 >= end) {
                            break;
                        }
                        TpccCluster.Outcome o;
                        try {
                            o = tpcc.dispatch(in, history.incrementAndGet(), NOW + 1).join();
                        } catch (java.util.concurrent.CompletionException e) {
                            // the home warehouse's node failed or is down: the transaction did not commit
                            if (++myErrors == 1) {
                                progress.accept("a transaction failed: " + e.getCause().getMessage());
                            }
                            Thread.sleep(20);
                            continue;
                        }
                        long t1 = System.nanoTime();
                        if (t0 < measureFrom) {
                            continue;
                        }
                        myConflicts += o.conflicts();
                        if (o.committed()) {
                            kinds[in.kind().ordinal()]++;
                            myRemote += o.remote() ? 1 : 0;
                            mine.record(t1 - t0);
                        } else {
                            myFailed++;
                        }
                    }
                } catch (RuntimeException | InterruptedException e) {
                    synchronized (errors) {
                        errors.add(e);
                    }
                }
                failures.addAndGet(myErrors);
                synchronized (committed) {
                    for (int k = 0; k < kinds.length; k++) {
                        committed[k] += kinds[k];
                    }
                    mine.addTo(latencies);
                }
                conflicts.addAndGet(myConflicts);
                failed.addAndGet(myFailed);
                remote.addAndGet(myRemote);
            }, "tpcc-terminal-" + t);
            terminal.start();
            terminals.add(terminal);
        }
        for (Thread t : terminals) {
            t.join();
        }
        if (!errors.isEmpty()) {
            throw new IllegalStateException("a terminal failed: " + errors.get(0).getMessage(), errors.get(0));
        }
        progress.accept("checking the consistency conditions");
        List<String> problems = tpcc.consistencyProblems();
        long total = 0;
        for (long c : committed) {
            total += c;
        }
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
        r.put("abort_rate", conflicts.get() + total == 0 ? 0.0 : (double) conflicts.get() / (conflicts.get() + total));
        r.put("p50_ms", latencies.quantileMicros(0.5) / 1000);
        r.put("p99_ms", latencies.quantileMicros(0.99) / 1000);
        r.put("remote_txn_share", total == 0 ? 0.0 : (double) remote.get() / total);
        r.put("consistency_ok", problems.isEmpty());
        Map<String, Object> byKind = new LinkedHashMap<>();
        for (TpccTransactions.Kind k : TpccTransactions.Kind.values()) {
            byKind.put(k.name().toLowerCase(java.util.Locale.ROOT), committed[k.ordinal()]);
        }
        r.put("committed", byKind);
        r.put("gave_up", failed.get());
        r.put("failed", failures.get());
        r.put("consistency_problems", problems.subList(0, Math.min(10, problems.size())));
        return r;
    }
}
