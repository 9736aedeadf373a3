package org.oooengine.core.vector;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.sql.expr.Expr;

/**
 * x [NOT] IN (strings) answers alike whether the strings are a dictionary's few objects repeated,
 * more objects than the answers kept by identity, or each of its own; nulls give null. A cast of
 * a VARCHAR to STRING reads the column as it is.
 */
class InObjectsTest {
    @Test
    void answersAsTheSetDoesForRepeatedAndUniqueStrings() {
        String[] modes = {"MAIL", "SHIP", "AIR", "RAIL", "TRUCK", "FOB", "REG AIR", "AIR REG", "BOAT", "CAR", "MAIL2"};
        Random random = new Random(7);
        int n = 4096;
        Object[] values = new Object[n];
        for (int i = 0; i < n; i++) {
            int pick = random.nextInt(modes.length + 1);
            values[i] = pick == modes.length ? null
                    : i < n / 2 ? modes[pick] // the same objects again and again, more than are kept
                    : new String(modes[pick].toCharArray()); // a string of its own each row
        }
        Expr column = new Expr.Column(0, SqlType.varchar(10));
        Expr asString = new Expr.Call(org.oooengine.core.sql.expr.ScalarFunction.CAST, List.of(column), SqlType.STRING);
        for (boolean negated : List.of(false, true)) {
            // a VARCHAR read as a STRING, as the analyzer makes it meet a STRING literal: the same strings
            Expr in = new Expr.InList(negated ? asString : column,
                    List.of(new Expr.Literal("MAIL", SqlType.STRING), new Expr.Literal("SHIP", SqlType.STRING)), negated);
            VectorExpr compiled = VectorCompiler.compile(in);
            assertEquals(ColumnRef.class, ((Membership.InObjects) compiled).value().getClass());
            BoolVector out = (BoolVector) compiled.eval(Batch.of(new Vector[] {new ObjectVector(values)}, n));
            List<Byte> expected = new ArrayList<>();
            List<Byte> actual = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                boolean member = "MAIL".equals(values[i]) || "SHIP".equals(values[i]);
                expected.add(values[i] == null ? BoolVector.NULL : member != negated ? BoolVector.TRUE : BoolVector.FALSE);
                actual.add(out.values[i]);
            }
            assertEquals(expected, actual, negated ? "NOT IN" : "IN");
        }
    }
}
