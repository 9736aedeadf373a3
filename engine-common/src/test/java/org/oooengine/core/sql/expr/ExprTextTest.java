package org.oooengine.core.sql.expr;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.Period;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.oooengine.core.sql.SqlType;

/** Expressions written back as SQL: infix with the parentheses precedence needs, literals typed and unscaled. */
class ExprTextTest {
    private static final SqlType PRICE = SqlType.decimal(15, 2);
    private static final List<String> NAMES = List.of("l_extendedprice", "l_discount", "l_shipdate", "n_name");
    private static final Expr PRICE_COL = new Expr.Column(0, PRICE);
    private static final Expr DISCOUNT = new Expr.Column(1, PRICE);
    private static final Expr SHIPDATE = new Expr.Column(2, SqlType.DATE);
    private static final Expr NAME = new Expr.Column(3, SqlType.STRING);

    private static String sql(Expr e) {
        return ExprText.of(e, NAMES::get);
    }

    private static Expr call(ScalarFunction f, SqlType type, Expr... args) {
        return new Expr.Call(f, List.of(args), type);
    }

    private static Expr decimal(String v) {
        return new Expr.Literal(new BigDecimal(v), SqlType.decimal(3, new BigDecimal(v).scale()));
    }

    @Test
    void arithmeticIsInfixWithOnlyTheParenthesesPrecedenceNeeds() {
        Expr one = new Expr.Literal(1, SqlType.INT);
        Expr revenue = call(ScalarFunction.MULTIPLY, PRICE, PRICE_COL, call(ScalarFunction.SUBTRACT, PRICE, one, DISCOUNT));
        assertEquals("l_extendedprice * (1 - l_discount)", sql(revenue));
        assertEquals("sum(l_extendedprice * (1 - l_discount))",
                ExprText.of(new AggregateCall(AggregateCall.Kind.SUM, revenue, false, PRICE), NAMES::get));
        assertEquals("l_extendedprice - (l_discount - 1)", sql(call(ScalarFunction.SUBTRACT, PRICE, PRICE_COL,
                call(ScalarFunction.SUBTRACT, PRICE, DISCOUNT, one))));
        assertEquals("-l_discount * 2", sql(call(ScalarFunction.MULTIPLY, PRICE, call(ScalarFunction.NEGATE, PRICE, DISCOUNT),
                new Expr.Literal(2, SqlType.INT))));
    }

    @Test
    void literalsAreTypedAndUnscaled() {
        assertEquals("10.00", ExprText.literal(new BigDecimal("10.00"), PRICE));
        assertEquals("DATE '1998-09-02'", ExprText.literal(LocalDate.of(1998, 9, 2), SqlType.DATE));
        assertEquals("'O''Brien'", ExprText.literal("O'Brien", SqlType.STRING));
        assertEquals("TIMESTAMP '1998-09-02 10:30:00'", ExprText.literal(LocalDateTime.of(1998, 9, 2, 10, 30), SqlType.STRING));
        assertEquals("INTERVAL '90' DAY", ExprText.literal(Period.ofDays(90), SqlType.INTERVAL));
        assertEquals("NULL", ExprText.literal(null, SqlType.VOID));
        assertEquals("TRUE", ExprText.literal(true, SqlType.BOOLEAN));
    }

    @Test
    void aConstantPartReadsAsTheValueTheRowsAreComparedWith() {
        Expr cutoff = call(ScalarFunction.DATE_MINUS_INTERVAL, SqlType.DATE,
                new Expr.Literal(LocalDate.of(1998, 12, 1), SqlType.DATE), new Expr.Literal(Period.ofDays(90), SqlType.INTERVAL));
        assertEquals("l_shipdate <= DATE '1998-09-02'", sql(call(ScalarFunction.LE, SqlType.BOOLEAN, SHIPDATE, cutoff)));
    }

    @Test
    void boundsOfOneValueAreABetweenAndNegationsReadAsWritten() {
        Expr between = new Expr.And(List.of(
                call(ScalarFunction.GE, SqlType.BOOLEAN, DISCOUNT, call(ScalarFunction.SUBTRACT, PRICE, decimal("0.06"), decimal("0.01"))),
                call(ScalarFunction.LE, SqlType.BOOLEAN, DISCOUNT, call(ScalarFunction.ADD, PRICE, decimal("0.06"), decimal("0.01")))));
        assertEquals("l_discount BETWEEN 0.05 AND 0.07", sql(between));
        Expr in = new Expr.InList(NAME, List.of(new Expr.Literal("A", SqlType.STRING), new Expr.Literal("B", SqlType.STRING)), false);
        Expr either = new Expr.Or(List.of(new Expr.And(List.of(new Expr.Not(in), new Expr.IsNull(NAME, true))),
                new Expr.Not(new Expr.Like(NAME, "%a%", false))));
        assertEquals("(n_name NOT IN ('A', 'B') AND n_name IS NOT NULL) OR n_name NOT LIKE '%a%'", sql(either));
        Expr kase = new Expr.Case(List.of(call(ScalarFunction.EQ, SqlType.BOOLEAN, NAME, new Expr.Literal("x", SqlType.STRING))),
                List.of(call(ScalarFunction.CAST, SqlType.DOUBLE, DISCOUNT)), new Expr.Literal(null, SqlType.DOUBLE), SqlType.DOUBLE);
        assertEquals("CASE WHEN n_name = 'x' THEN CAST(l_discount AS DOUBLE) END", sql(kase));
    }
}
