package org.oooengine.optimizer.rel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.sql.expr.Expr;
import org.oooengine.core.sql.expr.ScalarFunction;

/** Without statistics, filters keep a quarter of the rows each, or, on a column whose span is known, the part of it their range covers. */
class RowEstimatesTest {
    private static final Expr SHIPPED = new Expr.Column(0, SqlType.DATE);
    private static final Expr PRICE = new Expr.Column(1, SqlType.decimal(15, 2));
    private static final Expr NAME = new Expr.Column(2, SqlType.STRING);
    private static final long FIRST = LocalDate.of(1992, 1, 1).toEpochDay();
    private static final long LAST = LocalDate.of(1998, 12, 31).toEpochDay();
    private static final RowEstimates.Ranges SPANS = column -> column == 0 ? new long[] {FIRST, LAST}
            : column == 1 ? new long[] {100, 10_000_000} : null;

    @Test
    void aRangeOfAKnownSpanKeepsItsPart() {
        Expr year = and(cmp(ScalarFunction.GE, SHIPPED, date(1994, 1, 1)), cmp(ScalarFunction.LT, SHIPPED, date(1995, 1, 1)));
        assertEquals(365.0 / (LAST - FIRST + 1), RowEstimates.share(year, SPANS), 1e-9);
        // reversed operands, one open end, past the span, a bound the type cannot hold exactly
        assertEquals((LAST - LocalDate.of(1998, 1, 1).toEpochDay() + 1.0) / (LAST - FIRST + 1),
                RowEstimates.share(cmp(ScalarFunction.LE, date(1998, 1, 1), SHIPPED), SPANS), 1e-9);
        assertEquals(1.0 / (LAST - FIRST + 1), RowEstimates.share(cmp(ScalarFunction.GT, SHIPPED, date(2001, 1, 1)), SPANS),
                1e-12);
        assertEquals(0.25, RowEstimates.share(cmp(ScalarFunction.LT, PRICE, new Expr.Literal(new BigDecimal("5.005"),
                SqlType.decimal(4, 3))), SPANS), 1e-12);
        // other filters and unknown spans: a quarter each, a range counting once
        assertEquals(0.25 * 365.0 / (LAST - FIRST + 1), RowEstimates.share(and(year.children().get(0), year.children().get(1),
                cmp(ScalarFunction.EQ, NAME, new Expr.Literal("x", SqlType.STRING))), SPANS), 1e-9);
        assertEquals(0.25, RowEstimates.share(year, RowEstimates.Ranges.NONE), 1e-12);
    }

    /** An estimate is the expected rows to the nearest, at least one where any is kept: 25 nations over a sketch's 24.9 names keep one. */
    @Test
    void keptRowsRoundToTheNearestAtLeastOne() {
        assertEquals(1, RowEstimates.kept(25, 1 / 24.9));
        assertEquals(3, RowEstimates.kept(10, 0.26));
        assertEquals(1, RowEstimates.kept(10, 0.01));
        assertEquals(0, RowEstimates.kept(10, 0));
        assertEquals(-1, RowEstimates.kept(-1, 0.5));
    }

    /** A column spread evenly over its span: the part below or above a bound, at least one value's. */
    @Test
    void aSpanSharesOnEitherSideOfABound() {
        long[] quantity = {100, 5000}; // 1.00 to 50.00
        assertEquals(410.0 / 4901, RowEstimates.spanShare(quantity, 510, true), 1e-12);
        assertEquals(4490.0 / 4901, RowEstimates.spanShare(quantity, 510, false), 1e-12);
        assertEquals(1.0 / 4901, RowEstimates.spanShare(quantity, 6000, false), 1e-12);
        assertEquals(1, RowEstimates.spanShare(quantity, 6000, true), 1e-12);
    }

    private static Expr and(Expr... terms) {
        return new Expr.And(List.of(terms));
    }

    private static Expr cmp(ScalarFunction f, Expr a, Expr b) {
        return new Expr.Call(f, List.of(a, b), SqlType.BOOLEAN);
    }

    private static Expr date(int y, int m, int d) {
        return new Expr.Literal(LocalDate.of(y, m, d), SqlType.DATE);
    }
}
