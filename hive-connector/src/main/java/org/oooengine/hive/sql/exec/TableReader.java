package org.oooengine.hive.sql.exec;

import java.util.BitSet;
import java.util.List;
import java.util.function.Consumer;
import org.oooengine.core.fragment.Pipeline;
import org.oooengine.core.fragment.PipelineStep;
import org.oooengine.core.fragment.ScanPipeline;
import org.oooengine.hive.catalog.TableInfo;
import org.oooengine.hive.sql.Cancellation;

/** Where a table's rows come from: the cluster's nodes, or files. */
public interface TableReader {
    /**
     * Every row of {@code table}, as SQL values in its column order; columns not in
     * {@code needed} may be left null. {@code sink} may be called from several threads at once.
     */
    void scan(TableInfo table, BitSet needed, Cancellation cancel, Consumer<Object[]> sink);

    /**
     * The rows that come out of {@code pipeline} run over {@code table}'s rows. {@code sink} may be
     * called from several threads at once. Here the pipeline runs where the rows arrive; a reader
     * whose rows live on nodes runs it there.
     */
    default void pipeline(TableInfo table, ScanPipeline pipeline, Cancellation cancel, Consumer<Object[]> sink) {
        Pipeline local = new Pipeline(pipeline.steps(), pipeline.width(), Pipeline.BuildSource.ROWS_ONLY,
                batch -> batch.forEach(sink));
        // filters and projections keep nothing between rows: only joins and aggregates need the rows one at a time
        boolean stateless = pipeline.steps().stream()
                .allMatch(step -> step instanceof PipelineStep.Filter || step instanceof PipelineStep.Project);
        scan(table, pipeline.columns(), cancel, row -> {
            if (stateless) {
                local.accept(List.<Object[]>of(row));
            } else {
                synchronized (local) {
                    local.accept(List.<Object[]>of(row));
                }
            }
        });
        local.finish();
    }
}
