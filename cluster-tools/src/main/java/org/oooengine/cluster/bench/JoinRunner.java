package org.oooengine.cluster.bench;

import java.util.List;
import java.util.function.Consumer;
import org.oooengine.core.tpch.JoinQueries;

/** Times joins on a single-node store or on a cluster; the benchmark commands drive either alike. */
public interface JoinRunner extends AutoCloseable {
    BenchSettings settings();

    /** Scale factor of the loaded data, if known. */
    Double scaleFactor();

    /** Chooses the query's range once, so every run of every mode answers exactly the same query. */
    JoinQueries.Query query(String name, double selectivity);

    /** Times {@code repeat} runs of one mode after one untimed run, handing each result on as it completes. */
    List<JoinResult> measure(JoinQueries.Query query, JoinMode mode, Consumer<JoinResult> onResult);

    @Override
    void close();
}
