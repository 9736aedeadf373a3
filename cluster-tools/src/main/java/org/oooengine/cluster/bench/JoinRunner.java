package org.oooengine.cluster.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.IntFunction;
import org.oooengine.core.tpch.JoinQueries;

/** Times joins on a single-node store or on a cluster; the benchmark commands drive either alike. */
public interface JoinRunner extends AutoCloseable {
    BenchSettings settings();

    /** Scale factor of the loaded data, if known. */
    Double scaleFactor();

    /** Chooses the query's range once, so every run of every mode answers exactly the same query. */
    JoinQueries.Query query(String name, double selectivity);

    /** One mode of a query after its untimed run, ready for its timed runs. */
    Measurement prepare(JoinQueries.Query query, JoinMode mode);

    /** Times the runs of one mode after one untimed run, handing each result on as it completes. */
    default List<JoinResult> measure(JoinQueries.Query query, JoinMode mode, Consumer<JoinResult> onResult) {
        return interleave(List.of(prepare(query, mode)), onResult);
    }

    /**
     * The timed runs of several measurements in turns — the first run of each, then the second of
     * each — so the machine's drift falls on all of them alike and stays out of their ratios.
     */
    static List<JoinResult> interleave(List<Measurement> measurements, Consumer<JoinResult> onResult) {
        List<JoinResult> results = new ArrayList<>();
        int rounds = measurements.stream().mapToInt(Measurement::repeats).max().orElse(0);
        for (int run = 1; run <= rounds; run++) {
            for (Measurement m : measurements) {
                if (run <= m.repeats()) {
                    JoinResult r = m.timedRun().apply(run);
                    results.add(r);
                    onResult.accept(r);
                }
            }
        }
        return results;
    }

    /**
     * A query in one mode, warmed up.
     *
     * @param repeats  timed runs it wants ({@link BenchSettings#repeatsFor} more for short runs)
     * @param timedRun one timed run by its number, caches emptied first on a cold bench
     */
    record Measurement(int repeats, IntFunction<JoinResult> timedRun) {
    }

    @Override
    void close();
}
