package org.oooengine.core.fragment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class JoinKeyTableTest {
    /**
     * Each key finds exactly its usable rows, in build order, and a key no row has finds none:
     * keys all distinct, repeated a few times, repeated so much that the table shrinks, spread
     * over the whole range of longs and packed into multiples of a power of two (which a weak hash
     * would pile into a few slots), and in runs of one key as files sorted by it give them.
     */
    @ParameterizedTest
    @CsvSource({"distinct,100000", "fewRepeats,50000", "manyRepeats,200000", "wide,20000", "strided,60000", "clustered,40000", "tiny,3",
            "empty,0"})
    void findsEveryRowOfItsKeyInBuildOrder(String keys, int n) {
        Random random = new Random(n);
        long[] keyOf = new long[n];
        boolean[] usable = new boolean[n];
        for (int r = 0; r < n; r++) {
            keyOf[r] = switch (keys) {
                case "distinct" -> r * 7L;
                case "fewRepeats" -> random.nextInt(n / 3);
                case "manyRepeats" -> random.nextInt(500);
                case "wide" -> random.nextLong();
                case "strided" -> (long) random.nextInt(n) << 20;
                case "clustered" -> r / 4 + (r % 50 == 49 ? n : 0); // runs of 4, now and then another key between
                default -> r % 2;
            };
            usable[r] = random.nextInt(10) != 0;
        }
        Map<Long, List<Integer>> expected = new LinkedHashMap<>();
        for (int r = 0; r < n; r++) {
            if (usable[r]) {
                expected.computeIfAbsent(keyOf[r], k -> new ArrayList<>()).add(r);
            }
        }
        JoinKeyTable table = new JoinKeyTable(keyOf, usable);
        for (Map.Entry<Long, List<Integer>> e : expected.entrySet()) {
            List<Integer> found = new ArrayList<>();
            long rows = table.rows(e.getKey());
            for (int t = JoinKeyTable.first(rows); t < JoinKeyTable.first(rows) + JoinKeyTable.count(rows); t++) {
                found.add(table.order() == null ? t : table.order()[t]);
            }
            assertEquals(e.getValue(), found, "rows of key " + e.getKey());
        }
        int passed = 0;
        int missed = 0;
        for (int i = 0; i < 10_000; i++) {
            long missing = keys.equals("wide") ? random.nextLong() : random.nextInt(Math.max(1, 4 * n)) * 7L + 3;
            if (!expected.containsKey(missing)) {
                assertEquals(0, table.rows(missing));
                missed++;
                passed += table.mayHold(missing) ? 1 : 0;
            }
        }
        // the filter lets few keys the table lacks through to its slots
        assertTrue(passed <= missed / 20, passed + " of " + missed + " keys the table lacks passed its filter");
        if (keys.equals("manyRepeats")) { // 500 keys: no more slots than they need, whatever the rows
            assertTrue(table.bytes() < 4L * n + 64 * 1024, "bytes " + table.bytes());
        }
    }
}
