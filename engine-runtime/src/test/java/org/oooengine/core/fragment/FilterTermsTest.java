package org.oooengine.core.fragment;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.sql.expr.Expr;
import org.oooengine.core.sql.expr.ScalarFunction;
import org.oooengine.core.vector.Batch;
import org.oooengine.core.vector.LongVector;
import org.oooengine.core.vector.ObjectVector;
import org.oooengine.core.vector.Vector;
import org.oooengine.core.vector.VectorCompiler;
import org.oooengine.core.vector.VectorExpr;

/**
 * A filter's terms come to be evaluated selective first, whatever order they were written in
 * (TPC-H Q12's ship modes before its receipt dates), and every batch keeps the rows it kept in
 * the written order, before and after the order changes; NULLs are kept by no term.
 */
class FilterTermsTest {
    @Test
    void theSelectiveTermComesFirstAndTheRowsKeptStayTheSame() {
        Expr mode = new Expr.Column(0, SqlType.STRING);
        Expr day = new Expr.Column(1, SqlType.DATE);
        Expr modes = new Expr.InList(mode, List.of(new Expr.Literal("MAIL", SqlType.STRING),
                new Expr.Literal("SHIP", SqlType.STRING), new Expr.Literal("AIR", SqlType.STRING)), false);
        Expr recent = new Expr.Call(ScalarFunction.GE, List.of(day, new Expr.Literal(java.time.LocalDate.ofEpochDay(900),
                SqlType.DATE)), SqlType.BOOLEAN);
        VectorExpr[] terms = {VectorCompiler.compile(modes), VectorCompiler.compile(recent)};
        FilterTerms adaptive = new FilterTerms(terms);
        Random random = new Random(4);
        String[] names = {"MAIL", "SHIP", "AIR", "RAIL"};
        for (int b = 0; b < 4 * FilterTerms.BATCHES_PER_CHOICE; b++) {
            int n = 1024;
            Object[] modeValues = new Object[n];
            long[] days = new long[n];
            boolean[] nulls = new boolean[n];
            for (int i = 0; i < n; i++) {
                modeValues[i] = random.nextInt(50) == 0 ? null : names[random.nextInt(names.length)];
                days[i] = random.nextInt(1000);
                nulls[i] = random.nextInt(40) == 0;
            }
            Batch batch = Batch.of(new Vector[] {new ObjectVector(modeValues), new LongVector(days, nulls)}, n);
            assertArrayEquals(keptInOrder(terms, batch), positions(adaptive.kept(batch)), "batch " + b);
        }
        assertArrayEquals(new int[] {1, 0}, adaptive.order(), "the dates keep 1 row in 10, the modes 3 in 4");
    }

    /** The rows every term keeps, evaluated in the order written. */
    private static int[] keptInOrder(VectorExpr[] terms, Batch batch) {
        Batch kept = batch;
        for (VectorExpr t : terms) {
            int[] pos = new int[kept.size()];
            kept = kept.withPositions(pos, t.select(kept, pos));
        }
        return positions(kept);
    }

    private static int[] positions(Batch b) {
        return Arrays.copyOf(b.positions(), b.size());
    }
}
