package org.oooengine.core.vector;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.sql.expr.Expr;
import org.oooengine.core.sql.expr.ScalarFunction;

/**
 * A string column that carries its dictionary is tested entry by entry: comparisons with a
 * constant, IN lists and LIKE give, at every position of a whole or narrowed batch, with and
 * without nulls, what they give over the same values without the dictionary, and keep the same
 * positions; a gather (a join's output) keeps the dictionary and its answers.
 */
class DictionaryKernelsTest {
    private static final String[] ENTRIES = {"AIR", "AIR REG", "MAIL", "RAIL", "REG AIR", "SHIP", "TRUCK", ""};
    private static final int ROWS = 2048;

    @Test
    void everyStringKernelAnswersPerEntryAsItDoesPerRow() {
        Expr column = new Expr.Column(0, SqlType.STRING);
        List<Expr> predicates = new ArrayList<>();
        for (ScalarFunction f : List.of(ScalarFunction.EQ, ScalarFunction.NE, ScalarFunction.LT, ScalarFunction.LE,
                ScalarFunction.GT, ScalarFunction.GE)) {
            predicates.add(new Expr.Call(f, List.of(column, new Expr.Literal("MAIL", SqlType.STRING)), SqlType.BOOLEAN));
        }
        for (boolean negated : List.of(false, true)) {
            predicates.add(new Expr.InList(column, List.of(new Expr.Literal("AIR", SqlType.STRING),
                    new Expr.Literal("AIR REG", SqlType.STRING), new Expr.Literal("NONE", SqlType.STRING)), negated));
            predicates.add(new Expr.Like(column, "%AIR%", negated));
        }
        for (boolean withNulls : List.of(false, true)) {
            ObjectVector coded = dictionaryVector(new Random(withNulls ? 5 : 6), withNulls);
            ObjectVector plain = new ObjectVector(coded.values.clone());
            int[] narrowed = IntStream.range(0, ROWS).filter(i -> i % 3 != 1).toArray();
            for (Expr predicate : predicates) {
                VectorExpr compiled = VectorCompiler.compile(predicate);
                assertNotNull(compiled, predicate::toString);
                for (int[] positions : List.of(IntStream.range(0, ROWS).toArray(), narrowed)) {
                    Batch withDictionary = new Batch(new Vector[] {coded}, positions, positions.length);
                    Batch without = new Batch(new Vector[] {plain}, positions, positions.length);
                    String what = predicate + (withNulls ? " with nulls" : "") + " over " + positions.length + " rows";
                    assertArrayEquals(at(compiled.eval(without), positions), at(compiled.eval(withDictionary), positions), what);
                    assertArrayEquals(kept(compiled, without), kept(compiled, withDictionary), what);
                }
            }
        }
    }

    @Test
    void aGatherKeepsTheDictionaryAndItsNulls() {
        ObjectVector coded = dictionaryVector(new Random(7), false);
        int[] index = {5, -1, 0, 2047, 5};
        ObjectVector gathered = (ObjectVector) Vectors.gather(coded, index, index.length);
        assertNotNull(gathered.dictionary());
        assertEquals(true, gathered.dictionary().nullable());
        for (int k = 0; k < index.length; k++) {
            Object expected = index[k] < 0 ? null : coded.values[index[k]];
            assertEquals(expected, gathered.values[k]);
            if (expected != null) {
                assertEquals(expected, gathered.dictionary().entries()[gathered.dictionary().codes()[k] & 0xFF]);
            }
        }
        VectorExpr eq = VectorCompiler.compile(new Expr.Call(ScalarFunction.EQ, List.of(new Expr.Column(0, SqlType.STRING),
                new Expr.Literal(coded.values[5], SqlType.STRING)), SqlType.BOOLEAN));
        byte[] out = ((BoolVector) eq.eval(Batch.of(new Vector[] {gathered}, index.length))).values;
        assertEquals(BoolVector.TRUE, out[0]);
        assertEquals(BoolVector.NULL, out[1]);
        assertEquals(BoolVector.TRUE, out[4]);
        assertNull(((ObjectVector) Vectors.gather(new ObjectVector(new Object[] {"x"}), new int[] {0}, 1)).dictionary());
    }

    @Test
    void aDictionaryVectorIsReadOnlyAndHoldsAtMost256Entries() {
        ObjectVector coded = dictionaryVector(new Random(8), false);
        assertThrows(UnsupportedOperationException.class, () -> coded.setBoxed(0, "other", SqlType.STRING));
        assertThrows(IllegalArgumentException.class, () -> new ObjectVector.Dictionary(new Object[257], new byte[0], false));
    }

    /** Strings drawn from {@link #ENTRIES} by code, a ninth of them null where {@code withNulls}. */
    private static ObjectVector dictionaryVector(Random random, boolean withNulls) {
        Object[] values = new Object[ROWS];
        byte[] codes = new byte[ROWS];
        for (int i = 0; i < ROWS; i++) {
            codes[i] = (byte) random.nextInt(ENTRIES.length);
            values[i] = withNulls && random.nextInt(9) == 0 ? null : ENTRIES[codes[i]];
        }
        return new ObjectVector(values, new ObjectVector.Dictionary(ENTRIES, codes, withNulls));
    }

    private static byte[] at(Vector bools, int[] positions) {
        byte[] out = new byte[positions.length];
        for (int k = 0; k < positions.length; k++) {
            out[k] = ((BoolVector) bools).values[positions[k]];
        }
        return out;
    }

    private static int[] kept(VectorExpr predicate, Batch batch) {
        int[] kept = new int[batch.size()];
        return Arrays.copyOf(kept, predicate.select(batch, kept));
    }
}
