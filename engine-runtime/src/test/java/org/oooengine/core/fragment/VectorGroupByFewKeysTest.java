package org.oooengine.core.fragment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.LongFunction;
import org.junit.jupiter.api.Test;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.sql.expr.AggregateCall;
import org.oooengine.core.sql.expr.Expr;
import org.oooengine.core.vector.LongVector;
import org.oooengine.core.vector.ObjectVector;
import org.oooengine.core.vector.Vector;

/**
 * GROUP BY keys of few values a batch (Q01's flags) numbered per batch ({@link FewKeys}), and
 * keys that are not: each answers as the row engine does — NULLs, equal strings held as
 * different objects, two values of one slot, a key of many values, an integer key beside a string;
 * a column with its dictionary numbered by its codes as by its values.
 */
class VectorGroupByFewKeysTest {
    private static final SqlType DEC = SqlType.decimal(9, 2);

    @Test
    void keysOfFewValuesAndOfManyGroupAsTheRowEngineDoes() {
        List<LongFunction<Object[]>> inputs = List.of(
                i -> new Object[] {i % 7 == 0 ? null : new String(new char[] {(char) ('A' + i % 3)}), i % 2 == 0 ? "F" : "O", i},
                i -> new Object[] {"A", i % 5 == 0 ? null : "k" + i % 40, i}, // 40 values: past the slots
                i -> new Object[] {i % 3 == 0 ? "A" : "Q", "x", i}); // 'A' and 'Q' take one slot of 16
        for (LongFunction<Object[]> row : inputs) {
            List<Object[]> input = new ArrayList<>();
            for (long i = 0; i < 5000; i++) {
                Object[] r = row.apply(i);
                input.add(new Object[] {r[0], r[1], i % 4 == 0 ? null : (long) (i % 3), BigDecimal.valueOf((Long) r[2], 2)});
            }
            for (List<Integer> keys : List.of(List.of(0, 1), List.of(2, 0), List.of(0))) {
                assertEquals(byRows(keys, input), onBatches(keys, input), "keys " + keys + " of " + input.get(1)[0]);
            }
        }
    }

    @Test
    void aBatchIsNumberedOnlyWhereEachColumnHoldsFewValues() {
        int n = 64;
        int[] pos = new int[n];
        Object[] flags = new Object[n];
        Object[] many = new Object[n];
        long[] ints = new long[n];
        for (int i = 0; i < n; i++) {
            pos[i] = i;
            flags[i] = i % 3 == 0 ? null : i % 2 == 0 ? "R" : "N";
            many[i] = "v" + i;
            ints[i] = i % 4;
        }
        FewKeys codes = FewKeys.of(new Vector[] {new ObjectVector(flags), new LongVector(ints, null)}, pos, n);
        assertNotNull(codes);
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                boolean same = java.util.Objects.equals(flags[i], flags[j]) && ints[i] == ints[j];
                assertEquals(same, codes.of(i) == codes.of(j), i + " and " + j);
            }
        }
        assertNull(FewKeys.of(new Vector[] {new ObjectVector(many)}, pos, n), "64 values do not fit 16 slots");
        Vector[] three = {new ObjectVector(flags), new ObjectVector(flags), new ObjectVector(flags)};
        assertNull(FewKeys.of(three, pos, n), "three columns are not numbered");
    }

    @Test
    void aDictionaryColumnIsNumberedByItsCodesAsItsValuesAre() {
        int n = 512;
        int[] pos = new int[n / 2];
        for (int k = 0; k < pos.length; k++) {
            pos[k] = 2 * k + 1; // a batch a filter narrowed
        }
        Object[] entries = {"A", "N", "R", "O", "F"};
        byte[] rowCodes = new byte[n];
        Object[] values = new Object[n];
        for (int i = 0; i < n; i++) {
            rowCodes[i] = (byte) (i * 7 % entries.length);
            values[i] = i % 11 == 0 ? null : entries[rowCodes[i]];
        }
        Vector coded = new ObjectVector(values, new ObjectVector.Dictionary(entries, rowCodes, true));
        long[] ints = new long[n];
        for (int i = 0; i < n; i++) {
            ints[i] = i % 3;
        }
        FewKeys byCode = FewKeys.of(new Vector[] {coded, new LongVector(ints, null)}, pos, pos.length);
        FewKeys byValue = FewKeys.of(new Vector[] {new ObjectVector(values.clone()), new LongVector(ints, null)}, pos, pos.length);
        assertNotNull(byCode);
        for (int k = 0; k < pos.length; k++) {
            assertEquals(byValue.of(k), byCode.of(k), "row " + pos[k]);
        }
        Object[] colliding = {"A", "Q"}; // one slot of 16 by their hashes
        Vector both = new ObjectVector(new Object[] {"A", "Q"}, new ObjectVector.Dictionary(colliding, new byte[] {0, 1}, false));
        assertNull(FewKeys.of(new Vector[] {both}, new int[] {0, 1}, 2), "two entries of one slot");
    }

    private static List<String> byRows(List<Integer> keys, List<Object[]> input) {
        List<String> out = new ArrayList<>();
        Pipeline p = new Pipeline(steps(keys), 4, Pipeline.BuildSource.ROWS_ONLY, rows -> rows.forEach(r -> out.add(Arrays.toString(r))));
        p.accept(input);
        p.finish();
        return out.stream().sorted().toList();
    }

    private static List<String> onBatches(List<Integer> keys, List<Object[]> input) {
        List<String> out = new ArrayList<>();
        VectorPipeline p = new VectorPipeline(steps(keys), new SqlType[] {SqlType.STRING, SqlType.STRING, SqlType.BIGINT, DEC},
                Pipeline.BuildSource.ROWS_ONLY, rows -> rows.forEach(r -> out.add(Arrays.toString(r))), QueryMemory.unbounded());
        p.acceptRows(input);
        p.finish();
        assertEquals(0, p.rowSteps());
        return out.stream().sorted().toList();
    }

    private static List<PipelineStep> steps(List<Integer> keys) {
        SqlType[] types = {SqlType.STRING, SqlType.STRING, SqlType.BIGINT};
        return List.of(new PipelineStep.Aggregate(keys.stream().map(k -> (Expr) new Expr.Column(k, types[k])).toList(), List.of(
                new AggregateCall(AggregateCall.Kind.SUM, new Expr.Column(3, DEC), false, SqlType.decimal(19, 2)),
                new AggregateCall(AggregateCall.Kind.COUNT_STAR, null, false, SqlType.BIGINT))));
    }
}
