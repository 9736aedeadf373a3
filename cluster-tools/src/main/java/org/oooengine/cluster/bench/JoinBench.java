package org.oooengine.cluster.bench;

import java.nio.file.Path;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.oooengine.core.exec.CountingSink;
import org.oooengine.core.exec.ExecutionStats;
import org.oooengine.core.exec.HashJoin;
import org.oooengine.core.exec.IndexNestedLoopJoin;
import org.oooengine.core.store.Store;
import org.oooengine.core.tpch.JoinQueries;

/**
 * Join measurements on one opened store: the single code path behind {@code bench join},
 * {@code bench sweep} and {@code quickstart}.
 */
public final class JoinBench implements JoinRunner {
    private static final Logger LOG = LogManager.getLogger(JoinBench.class);

    private final Store store;
    /** Opened on first use by a mode that reads synchronously; same files, no I/O threads. */
    private Store synchronousStore;
    private final BenchSettings settings;
    private final Double scaleFactor;

    public JoinBench(Path dir, BenchSettings settings) {
        this.store = Store.open(dir, settings.storeOptions());
        this.settings = settings;
        this.scaleFactor = store.manifest().source().get("scaleFactor") instanceof Number n ? n.doubleValue() : null;
    }

    @Override
    public BenchSettings settings() {
        return settings;
    }

    @Override
    public Double scaleFactor() {
        return scaleFactor;
    }

    /** Chooses the query's range once, so every run of every mode answers exactly the same query. */
    @Override
    public JoinQueries.Query query(String name, double selectivity) {
        return JoinQueries.byName(store, name, selectivity);
    }

    /**
     * Times {@code repeat} runs of one mode, handing each result to {@code onResult} as it completes.
     * Every measurement starts with one untimed run, so the JIT has compiled the operators; warm
     * measurements keep what it cached, cold ones empty the buffer pool before every run (direct
     * I/O keeps the operating system's cache out of the way).
     */
    @Override
    public Measurement prepare(JoinQueries.Query query, JoinMode mode) {
        if (mode.distributed()) {
            throw new IllegalArgumentException("mode " + mode + " runs on a cluster only: pass --cluster");
        }
        LOG.debug("warm-up run of {} {} {}", query.name(), query.selectivity(), mode);
        execute(query, mode, new CountingSink());
        return new Measurement(false, run -> {
            if (settings.cold()) {
                storeFor(mode).bufferPool().clear();
            }
            return timedRun(query, mode, run);
        });
    }

    private ExecutionStats execute(JoinQueries.Query query, JoinMode mode, CountingSink sink) {
        Integer budget = mode.budget(settings.inflight());
        Store s = storeFor(mode);
        return budget == null
                ? new HashJoin(s, query.spec()).run(sink)
                : new IndexNestedLoopJoin(s, query.spec()).run(budget, sink);
    }

    private Store storeFor(JoinMode mode) {
        if (!mode.synchronousReads()) {
            return store;
        }
        if (synchronousStore == null) {
            synchronousStore = Store.open(store.dir(), settings.storeOptions().withIoThreads(0));
        }
        return synchronousStore;
    }

    private JoinResult timedRun(JoinQueries.Query q, JoinMode mode, int run) {
        CountingSink sink = new CountingSink();
        ExecutionStats s = execute(q, mode, sink);
        return new JoinResult(q.name(), mode, scaleFactor, q.selectivity(), q.actualSelectivity(), q.outerRows(),
                sink.rows(), sink.checksum(), s.seconds(), s.pageReads(), s.bytesRead(), s.iops(),
                mode.budget(settings.inflight()), s.maxIoInflight(), s.maxTasksInflight(), s.tasks(),
                s.bufferPoolHits(), s.bufferPoolMisses(), settings.cold(), settings.bufferPoolBytes() >> 20, run,
                null, null, null, null, null, null, null, null);
    }

    @Override
    public void close() {
        store.close();
        if (synchronousStore != null) {
            synchronousStore.close();
        }
    }
}
