package org.oooengine.cluster.bench.txn;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.Locale;

/** One {@code ooo bench txn} run; its JSON form (snake_case fields) is what {@code --json} prints. */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record TxnResult(String engine, String protocol, String durability, String workload, long rows, double theta,
                        int threads, double seconds, long commits, long aborts, double tps, double abortRate,
                        double p50Us, double p99Us) {

    /** A one-line human-readable form. */
    public String summary() {
        return String.format(Locale.ROOT,
                "%s %s %s %s threads=%d rows=%d theta=%.2f: tps %,.0f  abort_rate %.4f  p50_us %.1f  p99_us %.1f"
                        + "  (%,d commits, %,d aborts in %.1f s)",
                engine, protocol, durability, workload, threads, rows, theta, tps, abortRate, p50Us, p99Us, commits,
                aborts, seconds);
    }
}
