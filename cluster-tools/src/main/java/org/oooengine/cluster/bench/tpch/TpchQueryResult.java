package org.oooengine.cluster.bench.tpch;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.Arrays;
import java.util.List;
import org.oooengine.cluster.bench.Stats;
import org.oooengine.hive.sql.StatementMemory;

/**
 * One query's figures; its JSON form is an element of {@code ooo bench tpch --json}'s
 * {@code queries}. A failed query has an {@code error} and no times or rows.
 *
 * @param spilledBytes bytes the nodes and the coordinator spilled to disk during the untimed first run
 * @param nodeCpuS     CPU seconds all nodes spent per timed run (their mean), when the nodes tell
 * @param coordinatorPeakBytes the most the untimed first run's operators held at once on the coordinator
 * @param nodePeakBytes the most one of its pipelines held at once on one node (both as the engine
 *                     counts against its memory limits; null when the session does not tell)
 * @param resultRows   the rows of the untimed first run (not in the JSON)
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record TpchQueryResult(String query, Double medianS, List<Double> runsS, Long rows, Long spilledBytes, Double nodeCpuS,
                              Long coordinatorPeakBytes, Long nodePeakBytes, String error,
                              @JsonIgnore List<Object[]> resultRows) {

    static TpchQueryResult of(String query, double[] seconds, List<Object[]> rows, long spilledBytes, Double nodeCpuS,
                              StatementMemory held) {
        List<Double> runs = Arrays.stream(seconds).map(TpchQueryResult::millis).boxed().toList();
        return new TpchQueryResult(query, millis(Stats.median(seconds)), runs, (long) rows.size(), spilledBytes,
                nodeCpuS == null ? null : millis(nodeCpuS), held == null ? null : held.coordinatorPeakBytes(),
                held == null ? null : held.nodePeakBytes(), null, rows);
    }

    static TpchQueryResult failed(String query, String error) {
        return new TpchQueryResult(query, null, null, null, null, null, null, null, error, List.of());
    }


    @JsonIgnore
    public boolean ok() {
        return error == null;
    }

    /** Seconds to the millisecond: the machine's noise is larger. */
    private static double millis(double seconds) {
        return Math.round(seconds * 1000) / 1000.0;
    }
}
