package org.oooengine.cluster.bench.txn;

import java.nio.file.Path;
import org.oooengine.core.txn.Durability;
import org.oooengine.core.txn.LogProtocol;

/** One {@code ooo bench txn} run's settings, checked. */
public record TxnBenchSettings(Path dir, TxnWorkload workload, long rows, double theta, int threads,
                               TxnEngineKind engine, LogProtocol protocol, Durability durability, double seconds) {
    public static final long DEFAULT_ROWS = 100_000;
    public static final double DEFAULT_THETA = 0.5;

    public TxnBenchSettings {
        if (rows < workload.keys()) {
            throw new IllegalArgumentException("--rows must be at least " + workload.keys() + " for " + workload);
        }
        if (theta < 0 || theta >= 1) {
            throw new IllegalArgumentException("--theta must be in [0, 1), not " + theta);
        }
        if (threads < 1) {
            throw new IllegalArgumentException("--threads must be at least 1, not " + threads);
        }
        if (!(seconds > 0)) {
            throw new IllegalArgumentException("--duration must be positive, not " + seconds);
        }
    }

    /** The untimed first part of a run, so the code is compiled and caches are warm. */
    double warmupSeconds() {
        return Math.min(1.0, seconds / 4);
    }
}
