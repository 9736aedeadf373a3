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
        return interleave(List.of(prepare(query, mode)), settings(), onResult);
    }

    /**
     * The timed runs of several measurements in turns — the first run of each, then the second of
     * each — so the machine's drift falls on all of them alike and stays out of their ratios. Those
     * that may, and whose runs turn out short, then take their further turns
     * ({@link BenchSettings#shortRunRepeats}).
     */
    static List<JoinResult> interleave(List<Measurement> measurements, BenchSettings settings,
                                       Consumer<JoinResult> onResult) {
        List<List<JoinResult>> runs = new ArrayList<>();
        measurements.forEach(m -> runs.add(new ArrayList<>()));
        List<JoinResult> results = new ArrayList<>();
        boolean anyRan = true;
        for (int run = 1; anyRan && run <= settings.shortRunRepeats(); run++) {
            anyRan = false;
            for (int i = 0; i < measurements.size(); i++) {
                Measurement m = measurements.get(i);
                boolean wanted = run <= settings.repeat()
                        || m.repeatsShortRuns() && settings.isShort(medianSeconds(runs.get(i)));
                if (wanted) {
                    JoinResult r = m.timedRun().apply(run);
                    runs.get(i).add(r);
                    results.add(r);
                    onResult.accept(r);
                    anyRan = true;
                }
            }
        }
        return results;
    }

    private static double medianSeconds(List<JoinResult> runs) {
        return Stats.median(runs.stream().mapToDouble(JoinResult::seconds).toArray());
    }

    /**
     * A query in one mode, warmed up.
     *
     * @param repeatsShortRuns whether runs that turn out short are repeated more often: a few
     *                         milliseconds on a cluster, where one hiccup would decide the median
     * @param timedRun         one timed run by its number, caches emptied first on a cold bench
     */
    record Measurement(boolean repeatsShortRuns, IntFunction<JoinResult> timedRun) {
    }

    @Override
    void close();
}
