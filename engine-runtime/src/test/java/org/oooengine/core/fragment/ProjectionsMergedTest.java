package org.oooengine.core.fragment;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.sql.expr.Expr;
import org.oooengine.core.sql.expr.ScalarFunction;

/**
 * A projection of a projection's rows (a subquery's columns, then the outer query's) becomes one
 * projection that makes the same row, unless it would compute one of the inner expressions twice.
 */
class ProjectionsMergedTest {
    private static final Expr A = new Expr.Column(0, SqlType.BIGINT);
    private static final Expr B = new Expr.Column(1, SqlType.BIGINT);

    private static Expr plus(Expr x, Expr y) {
        return new Expr.Call(ScalarFunction.ADD, List.of(x, y), SqlType.BIGINT);
    }

    private static Object[] run(PipelineStep.Project p, Object[] row) {
        return p.exprs().stream().map(e -> e.eval(row)).toArray();
    }

    @Test
    void aProjectionOfAProjectionIsOneThatMakesTheSameRow() {
        PipelineStep.Project inner = new PipelineStep.Project(List.of(plus(A, B), B, new Expr.Literal(7L, SqlType.BIGINT)));
        Expr x = new Expr.Column(0, SqlType.BIGINT);
        Expr y = new Expr.Column(1, SqlType.BIGINT);
        Expr seven = new Expr.Column(2, SqlType.BIGINT);
        PipelineStep.Project outer = new PipelineStep.Project(List.of(y, plus(x, seven), y, seven));
        PipelineStep.Project merged = outer.after(inner);
        Object[] row = {3L, 4L};
        assertArrayEquals(run(outer, run(inner, row)), run(merged, row));
        assertArrayEquals(new Object[] {4L, 14L, 4L, 7L}, run(merged, row));

        List<PipelineStep> steps = PipelineStep.appended(List.of(new PipelineStep.Filter(A), inner), outer);
        assertEquals(List.of(new PipelineStep.Filter(A), merged), steps);
    }

    @Test
    void anInnerExpressionReadTwiceKeepsBothProjections() {
        PipelineStep.Project inner = new PipelineStep.Project(List.of(plus(A, B)));
        Expr sum = new Expr.Column(0, SqlType.BIGINT);
        PipelineStep.Project outer = new PipelineStep.Project(List.of(sum, plus(sum, sum)));
        assertNull(outer.after(inner));
        assertEquals(List.of(inner, outer), PipelineStep.appended(List.of(inner), outer));
        PipelineStep.Project doubled = new PipelineStep.Project(List.of(plus(sum, sum)));
        assertNull(doubled.after(inner), "read twice within one expression");
    }
}
