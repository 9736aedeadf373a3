package org.oooengine.core.vector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.math.BigDecimal;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.sql.expr.Expr;
import org.oooengine.core.sql.expr.ScalarFunction;

/**
 * Sums, differences and products of integers and decimals on vectors give what the row engine
 * gives for every selected row, nulls included: decimals of other scales brought to the result's,
 * a constant on either side (TPC-H's {@code 1 - l_discount}), INT wrapping to 32 bits.
 */
class ArithmeticTest {
    private static final SqlType PRICE = SqlType.decimal(15, 2);
    private static final SqlType RATE = SqlType.decimal(15, 4);
    private static final int ROWS = 2048;

    @Test
    void decimalsAndIntegersAsTheRowEngineComputesThem() {
        Random random = new Random(5);
        long[] prices = new long[ROWS];
        long[] rates = new long[ROWS];
        long[] ints = new long[ROWS];
        boolean[] nulls = new boolean[ROWS];
        for (int i = 0; i < ROWS; i++) {
            prices[i] = random.nextInt(20_000_000) - 1_000_000;
            rates[i] = random.nextInt(100_000);
            ints[i] = random.nextInt() / (random.nextBoolean() ? 1 : 65536);
            nulls[i] = random.nextInt(9) == 0;
        }
        Vector[] columns = {new LongVector(prices, null), new LongVector(rates, nulls), new LongVector(ints, null)};
        Expr price = new Expr.Column(0, PRICE);
        Expr rate = new Expr.Column(1, RATE);
        Expr n = new Expr.Column(2, SqlType.INT);
        Expr one = new Expr.Literal(1, SqlType.INT);
        Expr half = new Expr.Literal(new BigDecimal("0.5"), SqlType.decimal(2, 1));
        List<Expr> exprs = List.of(
                call(ScalarFunction.SUBTRACT, one, price, SqlType.decimal(16, 2)),
                call(ScalarFunction.ADD, price, half, SqlType.decimal(16, 2)),
                call(ScalarFunction.SUBTRACT, rate, half, SqlType.decimal(16, 4)),
                call(ScalarFunction.ADD, price, rate, SqlType.decimal(17, 4)),
                call(ScalarFunction.SUBTRACT, rate, price, SqlType.decimal(17, 4)),
                call(ScalarFunction.MULTIPLY, price, call(ScalarFunction.SUBTRACT, one, rate, SqlType.decimal(16, 4)),
                        SqlType.decimal(32, 6)),
                call(ScalarFunction.ADD, n, n, SqlType.INT),
                call(ScalarFunction.MULTIPLY, n, n, SqlType.INT),
                call(ScalarFunction.SUBTRACT, n, one, SqlType.INT));
        int[] narrowed = new int[ROWS / 3];
        for (int k = 0; k < narrowed.length; k++) {
            narrowed[k] = 3 * k + 1;
        }
        for (Expr e : exprs) {
            VectorExpr compiled = VectorCompiler.compile(e);
            assertInstanceOf(Arithmetic.Longs.class, compiled, e.toString());
            for (Batch batch : List.of(Batch.of(columns, ROWS), new Batch(columns, narrowed, narrowed.length))) {
                Vector values = compiled.eval(batch);
                for (int k = 0; k < batch.size(); k++) {
                    int i = batch.positions()[k];
                    Object[] row = {box(columns[0], i, PRICE), box(columns[1], i, RATE), box(columns[2], i, SqlType.INT)};
                    assertEquals(e.eval(row), values.isNull(i) ? null : values.box(i, e.type()), e + " at row " + i);
                }
            }
        }
    }

    private static Object box(Vector v, int i, SqlType type) {
        return v.isNull(i) ? null : v.box(i, type);
    }

    private static Expr call(ScalarFunction f, Expr left, Expr right, SqlType type) {
        return new Expr.Call(f, List.of(left, right), type);
    }
}
