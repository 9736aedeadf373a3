package org.oooengine.core.tpcc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.oooengine.core.store.TableDefinition;
import org.oooengine.core.types.KeyCodec;
import org.oooengine.core.types.RowCodec;

/** One warehouse's initial database as clause 4.3.3 populates it, each table in its key order. */
class TpccGeneratorTest {
    private static final long NOW = 1_700_000_000_000_000L;
    private static final TpccGenerator ONE = new TpccGenerator(1, 42, NOW);

    /** The table's rows, checked against its schema (types, lengths) and for strictly increasing keys. */
    private static List<Object[]> rows(String table) {
        TableDefinition def = TpccSchema.definition(table);
        RowCodec codec = new RowCodec(def.schema());
        int[] key = def.schema().indexesOf(def.primaryKey());
        KeyCodec keys = new KeyCodec(def.schema().types(key));
        List<Object[]> rows = new ArrayList<>();
        byte[][] last = {null};
        ONE.rows(table, row -> {
            assertEquals(def.schema().size(), row.length, table);
            codec.encode(row);
            Object[] keyValues = new Object[key.length];
            for (int i = 0; i < key.length; i++) {
                keyValues[i] = row[key[i]];
            }
            byte[] k = keys.encode(keyValues);
            assertTrue(last[0] == null || Arrays.compareUnsigned(last[0], k) < 0, table + ": rows out of key order");
            last[0] = k;
            rows.add(row);
        });
        return rows;
    }

    @Test
    void everyTableHasTheSpecificationsRowsPerWarehouse() {
        assertEquals(1, rows("warehouse").size());
        assertEquals(10, rows("district").size());
        assertEquals(30_000, rows("history").size());
        assertEquals(9_000, rows("new_order").size());
        assertEquals(100_000, rows("item").size());
        assertEquals(100_000, rows("stock").size());
        assertThrows(IllegalArgumentException.class, () -> ONE.rows("oorder", row -> { }));
    }

    @Test
    void ordersAndTheirLinesAgreeAndTheLast900OfADistrictAreUndelivered() {
        List<Object[]> orders = rows("orders");
        assertEquals(30_000, orders.size());
        Map<Integer, TreeSet<Integer>> customersByDistrict = new HashMap<>();
        long lines = 0;
        for (Object[] o : orders) {
            int id = (Integer) o[0];
            assertEquals(id >= TpccGenerator.FIRST_NEW_ORDER, o[5] == null, "carrier of order " + id);
            int count = (Integer) o[6];
            assertTrue(count >= 5 && count <= 15);
            lines += count;
            customersByDistrict.computeIfAbsent((Integer) o[1], d -> new TreeSet<>()).add((Integer) o[3]);
        }
        customersByDistrict.values().forEach(c -> assertEquals(3_000, c.size(), "each customer has one order"));
        List<Object[]> orderLines = rows("order_line");
        assertEquals(lines, orderLines.size());
        for (Object[] ol : orderLines) {
            boolean delivered = (Integer) ol[0] < TpccGenerator.FIRST_NEW_ORDER;
            assertEquals(delivered, ol[6] != null);
            assertEquals(delivered, (Long) ol[8] == 0);
        }
    }

    @Test
    void customersLastNamesCreditAndItemsOriginalDataFollowTheSpecification() {
        List<Object[]> customers = rows("customer");
        assertEquals(30_000, customers.size());
        assertEquals("BARBARBAR", customers.get(0)[5]);
        assertEquals("BARBAROUGHT", customers.get(1)[5]);
        assertEquals(TpccRandom.lastName(999), customers.get(999)[5]);
        double badCredit = customers.stream().filter(c -> c[13].equals("BC")).count() / 30_000.0;
        assertTrue(badCredit > 0.08 && badCredit < 0.12, "bad credit " + badCredit);
        double original = rows("item").stream().filter(i -> ((String) i[4]).contains("ORIGINAL")).count() / 100_000.0;
        assertTrue(original > 0.09 && original < 0.11, "original " + original);
        // the same seed, the same database
        List<Object[]> again = new ArrayList<>();
        new TpccGenerator(1, 42, NOW).rows("customer", again::add);
        assertArrayEquals(customers.get(1234), again.get(1234));
    }

    @Test
    void nonUniformNumbersStayInTheirRangeAndFavourSomeValues() {
        TpccRandom r = new TpccRandom(7);
        int[] hits = new int[3_001];
        for (int i = 0; i < 300_000; i++) {
            int c = r.customerId();
            assertTrue(c >= 1 && c <= 3_000);
            hits[c]++;
        }
        int max = Arrays.stream(hits).max().orElse(0);
        assertTrue(max > 3 * 100, "NURand is skewed: the most chosen customer " + max + " times against 100 on average");
    }
}
