package org.oooengine.core.fragment;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.oooengine.core.sql.JoinKind;
import org.oooengine.core.sql.SqlType;

/**
 * {@code x NOT IN (SELECT k ...)} (a null-aware anti join, TPC-H Q16's suppliers with complaints)
 * runs on batches and answers as the row engine does: a NULL among the build's keys lets no row
 * through, a NULL {@code x} is out where the build has rows, and every row passes an empty build.
 */
class VectorNotInJoinTest {
    @Test
    void notInDecidesNullsAsTheRowEngineDoes() {
        List<Object[]> probe = new ArrayList<>();
        for (long k = 0; k < 3000; k++) {
            probe.add(new Object[] {k % 11 == 0 ? null : k % 50, "row " + k});
        }
        List<List<Object[]>> builds = List.of(
                rows(3L, 7L, 49L), // some keys
                rows(3L, null, 7L), // a NULL among them
                rows(), // none
                rows(1000L)); // one no probe row meets
        long nonNull = probe.stream().filter(r -> r[0] != null).count();
        long outOf3749 = probe.stream().filter(r -> r[0] != null && !List.of(3L, 7L, 49L).contains(r[0])).count();
        List<Long> expected = List.of(outOf3749, 0L, 3000L, nonNull);
        for (int b = 0; b < builds.size(); b++) {
            List<PipelineStep> steps = List.of(new PipelineStep.HashJoin(new JoinBuild.Rows(builds.get(b)),
                    JoinKind.ANTI_NULL_AWARE, List.of(0), List.of(0), null, 1));
            List<String> byRow = new ArrayList<>();
            Pipeline rows = new Pipeline(steps, 2, Pipeline.BuildSource.ROWS_ONLY, out -> out.forEach(r -> byRow.add(Arrays.toString(r))));
            rows.accept(probe);
            rows.finish();
            List<String> onBatches = new ArrayList<>();
            VectorPipeline vectors = new VectorPipeline(steps, new SqlType[] {SqlType.BIGINT, SqlType.STRING},
                    Pipeline.BuildSource.ROWS_ONLY, out -> out.forEach(r -> onBatches.add(Arrays.toString(r))),
                    QueryMemory.unbounded());
            vectors.acceptRows(probe);
            vectors.finish();
            assertEquals(0, vectors.rowSteps(), "the join on batches");
            assertEquals(byRow.stream().sorted().toList(), onBatches.stream().sorted().toList(), "build " + b);
            assertEquals(expected.get(b).longValue(), onBatches.size(), "build " + b);
        }
    }

    private static List<Object[]> rows(Long... keys) {
        List<Object[]> rows = new ArrayList<>();
        for (Long k : keys) {
            rows.add(new Object[] {k});
        }
        return rows;
    }
}
