package org.oooengine.core.fragment;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import org.oooengine.core.sql.JoinKind;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.sql.expr.Expr;
import org.oooengine.core.sql.expr.ScalarFunction;
import org.junit.jupiter.api.Test;

/** Which columns the steps after a join read: the join gathers only those into its pairs. */
class ColumnsReadTest {
    private static Expr column(int i) {
        return new Expr.Column(i, SqlType.BIGINT);
    }

    private static PipelineStep.HashJoin join(int probeKey, int buildWidth) {
        return new PipelineStep.HashJoin(new JoinBuild.Rows(List.of()), JoinKind.INNER, List.of(probeKey), List.of(0), null,
                buildWidth);
    }

    @Test
    void aProjectionEndsWhatIsRead() {
        List<PipelineStep> steps = List.of(join(0, 2), new PipelineStep.Filter(new Expr.Call(ScalarFunction.EQ,
                List.of(column(1), column(1)), SqlType.BOOLEAN)),
                join(3, 1), new PipelineStep.Project(List.of(column(4))));
        // after the first join, rows 4 wide: a filter reads 1, the next join's key is 3, the projection 4 (the second join's build column)
        assertArrayEquals(new boolean[] {false, true, false, true}, VectorPipeline.columnsRead(steps, 1, 4));
    }

    @Test
    void rowsLeavingAsTheyAreNeedEveryColumn() {
        assertNull(VectorPipeline.columnsRead(List.of(join(0, 2), join(1, 1)), 1, 4));
        assertNull(VectorPipeline.columnsRead(List.of(join(0, 2), new PipelineStep.Limit(5)), 1, 4));
    }
}
