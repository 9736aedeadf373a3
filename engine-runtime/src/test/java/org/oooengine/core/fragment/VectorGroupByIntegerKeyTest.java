package org.oooengine.core.fragment;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.sql.expr.AggregateCall;
import org.oooengine.core.sql.expr.Expr;

/**
 * GROUP BY one integer key, whose groups a {@link LongGroupTable} finds: keys in ascending order
 * then out of it, NULLs first, amid and last, keys at the ends of the long range and many keys
 * that grow the table all group as the row engine groups them; the table alone agrees with a map.
 */
class VectorGroupByIntegerKeyTest {
    private static final SqlType DEC = SqlType.decimal(9, 2);

    @Test
    void oneIntegerKeyGroupsAsTheRowEngineDoes() {
        Random random = new Random(17);
        List<List<Long>> inputs = new ArrayList<>();
        List<Long> ascendingThenNot = new ArrayList<>();
        for (long i = 0; i < 3000; i++) {
            ascendingThenNot.add(i / 3); // runs of three, in order
        }
        for (long i = 0; i < 3000; i++) {
            ascendingThenNot.add(i % 500 == 0 ? null : (long) random.nextInt(1500));
        }
        inputs.add(ascendingThenNot);
        List<Long> nullFirst = new ArrayList<>();
        nullFirst.add(null);
        for (int i = 0; i < 20_000; i++) {
            nullFirst.add(switch (i % 97) {
                case 0 -> Long.MIN_VALUE;
                case 1 -> Long.MAX_VALUE;
                case 2 -> 0L;
                case 3 -> null;
                default -> random.nextLong() % 40_000;
            });
        }
        inputs.add(nullFirst);
        List<Long> ascendingEndingInNull = new ArrayList<>();
        for (long i = 0; i < 5000; i++) {
            ascendingEndingInNull.add(i * 7 - 20_000);
        }
        ascendingEndingInNull.add(null);
        inputs.add(ascendingEndingInNull);
        for (List<Long> keys : inputs) {
            List<Object[]> rows = new ArrayList<>();
            for (int i = 0; i < keys.size(); i++) {
                rows.add(new Object[] {keys.get(i), BigDecimal.valueOf(i % 1000, 2)});
            }
            assertEquals(byRows(rows), onBatches(rows), "keys starting " + keys.subList(0, 5));
        }
    }

    @Test
    void theTableFindsEveryKeyPutAsAMapDoes() {
        Random random = new Random(3);
        LongGroupTable table = new LongGroupTable();
        Map<Long, Integer> expected = new HashMap<>();
        for (int i = 0; i < 200_000; i++) {
            long key = i % 3 == 0 ? random.nextInt(1000) : random.nextLong();
            int found = table.find(key);
            Integer there = expected.get(key);
            if (there == null) {
                assertEquals(true, found < 0, "key " + key + " not put yet");
                table.put(~found, key, expected.size());
                expected.put(key, expected.size());
            } else {
                assertEquals(there, found, "key " + key);
            }
        }
        for (Map.Entry<Long, Integer> e : expected.entrySet()) {
            assertEquals(e.getValue(), table.find(e.getKey()));
        }
        LongGroupTable filled = LongGroupTable.forGroups(expected.size());
        expected.forEach((k, g) -> filled.put(~filled.find(k), k, g));
        expected.forEach((k, g) -> assertEquals(g, filled.find(k)));
    }

    private static List<String> byRows(List<Object[]> input) {
        List<String> out = new ArrayList<>();
        Pipeline p = new Pipeline(steps(), 4, Pipeline.BuildSource.ROWS_ONLY, rows -> rows.forEach(r -> out.add(Arrays.toString(r))));
        p.accept(input);
        p.finish();
        return out.stream().sorted().toList();
    }

    private static List<String> onBatches(List<Object[]> input) {
        List<String> out = new ArrayList<>();
        VectorPipeline p = new VectorPipeline(steps(), new SqlType[] {SqlType.BIGINT, DEC}, Pipeline.BuildSource.ROWS_ONLY,
                rows -> rows.forEach(r -> out.add(Arrays.toString(r))), QueryMemory.unbounded());
        p.acceptRows(input);
        p.finish();
        assertEquals(0, p.rowSteps());
        return out.stream().sorted().toList();
    }

    private static List<PipelineStep> steps() {
        return List.of(new PipelineStep.Aggregate(List.of(new Expr.Column(0, SqlType.BIGINT)), List.of(
                new AggregateCall(AggregateCall.Kind.SUM, new Expr.Column(1, DEC), false, SqlType.decimal(19, 2)),
                new AggregateCall(AggregateCall.Kind.COUNT_STAR, null, false, SqlType.BIGINT))));
    }
}
