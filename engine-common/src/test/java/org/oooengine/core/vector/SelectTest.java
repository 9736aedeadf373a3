package org.oooengine.core.vector;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.sql.expr.Expr;
import org.oooengine.core.sql.expr.ScalarFunction;

/**
 * A comparison of a long column with a constant keeps, in one pass, exactly the positions at which
 * its value is TRUE: every operator, with and without nulls, over a batch a filter before it had
 * already narrowed; a string column's, with the constant on either side, also the values the
 * kernel of two columns gives.
 */
class SelectTest {
    @Test
    void aComparisonWithAConstantKeepsThePositionsItsValueSaysTrue() {
        Random random = new Random(11);
        int rows = 2048;
        long[] values = new long[rows];
        boolean[] nulls = new boolean[rows];
        for (int i = 0; i < rows; i++) {
            values[i] = random.nextInt(20);
            nulls[i] = random.nextInt(7) == 0;
        }
        int[] narrowed = new int[rows / 2];
        int n = 0;
        for (int i = 0; i < rows; i++) {
            if (random.nextBoolean() && n < narrowed.length) {
                narrowed[n++] = i;
            }
        }
        Expr column = new Expr.Column(0, SqlType.BIGINT);
        for (ScalarFunction f : List.of(ScalarFunction.EQ, ScalarFunction.NE, ScalarFunction.LT, ScalarFunction.LE,
                ScalarFunction.GT, ScalarFunction.GE)) {
            VectorExpr compiled = VectorCompiler.compile(new Expr.Call(f, List.of(column, new Expr.Literal(9L, SqlType.BIGINT)),
                    SqlType.BOOLEAN));
            assertEquals(Comparisons.LongWithConstant.class, compiled.getClass());
            for (boolean withNulls : List.of(false, true)) {
                Vector[] columns = {new LongVector(values, withNulls ? nulls : null)};
                for (Batch batch : List.of(Batch.of(columns, rows), new Batch(columns, narrowed, n))) {
                    int[] kept = new int[batch.size()];
                    int count = compiled.select(batch, kept);
                    assertArrayEquals(trueAt(compiled, batch), Arrays.copyOf(kept, count), f + (withNulls ? " with nulls" : ""));
                }
            }
        }
    }

    @Test
    void aStringComparedWithAConstantAgreesWithTheKernelOfTwoColumns() {
        Random random = new Random(12);
        int rows = 2048;
        String[] flags = {"A", "N", "R", "RR", ""};
        Object[] values = new Object[rows];
        Object[] constants = new Object[rows];
        for (int i = 0; i < rows; i++) {
            values[i] = random.nextInt(9) == 0 ? null : flags[random.nextInt(flags.length)];
            constants[i] = "R";
        }
        int[] narrowed = java.util.stream.IntStream.range(0, rows).filter(i -> i % 3 != 1).toArray();
        Expr column = new Expr.Column(0, SqlType.STRING);
        Expr constant = new Expr.Literal("R", SqlType.STRING);
        Vector[] columns = {new ObjectVector(values), new ObjectVector(constants)};
        for (ScalarFunction f : List.of(ScalarFunction.EQ, ScalarFunction.NE, ScalarFunction.LT, ScalarFunction.LE,
                ScalarFunction.GT, ScalarFunction.GE)) {
            for (boolean constantFirst : List.of(false, true)) {
                VectorExpr compiled = VectorCompiler.compile(new Expr.Call(f, constantFirst ? List.of(constant, column)
                        : List.of(column, constant), SqlType.BOOLEAN));
                assertEquals(Comparisons.ObjectWithConstant.class, compiled.getClass());
                CompareOp op = CompareOp.of(f);
                VectorExpr left = b -> b.column(constantFirst ? 1 : 0);
                VectorExpr right = b -> b.column(constantFirst ? 0 : 1);
                VectorExpr twoColumns = new Comparisons.Objects(op, left, right);
                for (Batch batch : List.of(Batch.of(columns, rows), new Batch(columns, narrowed, narrowed.length))) {
                    String what = f + (constantFirst ? " with the constant first" : "");
                    assertArrayEquals(((BoolVector) twoColumns.eval(batch)).values, ((BoolVector) compiled.eval(batch)).values, what);
                    int[] kept = new int[batch.size()];
                    int count = compiled.select(batch, kept);
                    assertArrayEquals(trueAt(compiled, batch), Arrays.copyOf(kept, count), what);
                }
            }
        }
    }

    /** The positions at which the predicate's value is TRUE, as the vector of its values says. */
    private static int[] trueAt(VectorExpr predicate, Batch batch) {
        byte[] value = ((BoolVector) predicate.eval(batch)).values;
        return Arrays.stream(batch.positions(), 0, batch.size()).filter(p -> value[p] == BoolVector.TRUE).toArray();
    }
}
