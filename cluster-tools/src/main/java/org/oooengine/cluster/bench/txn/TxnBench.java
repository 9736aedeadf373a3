package org.oooengine.cluster.bench.txn;

import org.oooengine.cluster.bench.LatencyHistogram;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * Runs a transaction micro-benchmark: loads the rows, then {@code threads} threads run the
 * workload back to back for the given time. Throughput counts acknowledged (durable) commits
 * after a warm-up; latency runs from a transaction's first attempt to its acknowledgement; the
 * abort rate is aborted attempts over all attempts.
 *
 * <p>The engine's files live in {@code <dir>/txn-bench-<engine>}, created fresh and deleted
 * afterwards.
 */
public final class TxnBench {
    private static final Logger LOG = LogManager.getLogger(TxnBench.class);

    private TxnBench() {
    }

    /** One thread's counters; reset when measuring starts. */
    private static final class ThreadStats {
        long commits;
        long aborts;
        LatencyHistogram latencies = new LatencyHistogram();
    }

    public static TxnResult run(TxnBenchSettings s) throws InterruptedException {
        Path home = s.dir().resolve("txn-bench-" + s.engine());
        deleteTree(home);
        try (BenchEngine engine = open(s, home)) {
            return measure(s, engine);
        } finally {
            deleteTree(home);
        }
    }

    private static BenchEngine open(TxnBenchSettings s, Path home) {
        return switch (s.engine()) {
            case OOO -> new OooBenchEngine(home, s.rows(), s.protocol(), s.durability());
            case ROCKSDB_OPTIMISTIC -> new RocksBenchEngine(home, s.rows(), true, s.durability());
            case ROCKSDB_PESSIMISTIC -> new RocksBenchEngine(home, s.rows(), false, s.durability());
        };
    }

    private static TxnResult measure(TxnBenchSettings s, BenchEngine engine) throws InterruptedException {
        int threads = s.threads();
        ThreadStats[] stats = new ThreadStats[threads];
        var state = new Object() {
            volatile boolean measure;
            volatile boolean stop;
        };
        List<Thread> workers = new ArrayList<>();
        List<Throwable> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
        for (int t = 0; t < threads; t++) {
            int id = t;
            BenchEngine.Session session = engine.session();
            stats[t] = new ThreadStats();
            Thread th = new Thread(() -> {
                ZipfKeys zipf = new ZipfKeys(s.rows(), s.theta(), 0x5EED + id);
                long[] keys = new long[s.workload().keys()];
                boolean counting = false;
                ThreadStats st = stats[id];
                while (!state.stop) {
                    if (!counting && state.measure) {
                        counting = true;
                        stats[id] = st = new ThreadStats();
                    }
                    zipf.distinct(keys);
                    long start = System.nanoTime();
                    ThreadStats target = counting ? st : null;
                    int attempts = session.run(keys, s.workload(), () -> {
                        if (target != null && !state.stop) {
                            target.commits++;
                            target.latencies.record(System.nanoTime() - start);
                        }
                    });
                    if (target != null) {
                        target.aborts += attempts - 1;
                    }
                }
                session.drain();
            }, "txn-bench-" + t);
            th.setUncaughtExceptionHandler((x, e) -> {
                failures.add(e);
                state.stop = true;
            });
            workers.add(th);
        }
        workers.forEach(Thread::start);
        Thread.sleep((long) (s.warmupSeconds() * 1000));
        state.measure = true;
        long begin = System.nanoTime();
        Thread.sleep((long) (s.seconds() * 1000));
        state.stop = true;
        double elapsed = (System.nanoTime() - begin) / 1e9;
        for (Thread th : workers) {
            th.join();
        }
        if (!failures.isEmpty()) {
            Throwable f = failures.get(0);
            throw f instanceof RuntimeException r ? r : new IllegalStateException(f);
        }
        long commits = 0;
        long aborts = 0;
        LatencyHistogram all = new LatencyHistogram();
        for (ThreadStats st : stats) {
            commits += st.commits;
            aborts += st.aborts;
            st.latencies.addTo(all);
        }
        LOG.debug("{} commits, {} aborts in {} s", commits, aborts, elapsed);
        boolean ours = s.engine() == TxnEngineKind.OOO;
        return new TxnResult(s.engine().toString(), ours ? s.protocol().toString() : "rocksdb", s.durability().toString(),
                s.workload().toString(), s.rows(), s.theta(), threads, round(elapsed), commits, aborts,
                round(commits / elapsed), aborts + commits == 0 ? 0 : round4((double) aborts / (aborts + commits)),
                all.quantileMicros(0.50), all.quantileMicros(0.99));
    }

    private static double round(double v) {
        return Math.round(v * 10) / 10.0;
    }

    private static double round4(double v) {
        return Math.round(v * 10_000) / 10_000.0;
    }

    private static void deleteTree(Path p) {
        if (!Files.exists(p)) {
            return;
        }
        try (Stream<Path> files = Files.walk(p)) {
            for (Path f : (Iterable<Path>) files.sorted(Comparator.reverseOrder())::iterator) {
                Files.delete(f);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete benchmark directory " + p, e);
        }
    }
}
