package org.oooengine.core.types;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class KeyCodecTest {
    private static final DataType[] TYPES = {DataType.INT, DataType.BIGINT, DataType.DOUBLE, DataType.varchar(10),
            DataType.decimal(15, 2), DataType.DATE};
    private final KeyCodec codec = new KeyCodec(TYPES);

    private static Object[] random(Random r) {
        String s = r.nextInt(4) == 0 ? "" : Integer.toString(r.nextInt(50), 36) + (r.nextBoolean() ? "\0x" : "");
        return new Object[] {r.nextInt(7) - 3, r.nextLong() % 5, (r.nextDouble() - 0.5) * (r.nextInt(3) * 100.0), s,
                (long) r.nextInt(2001) - 1000, r.nextInt(20000) - 10000};
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static int compareValues(Object[] a, Object[] b) {
        for (int i = 0; i < a.length; i++) {
            int c = ((Comparable) a[i]).compareTo(b[i]);
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }

    @Test
    void byteOrderIsValueOrder() {
        Random r = new Random(42);
        for (int i = 0; i < 20_000; i++) {
            Object[] a = random(r);
            Object[] b = random(r);
            int expected = Integer.signum(compareValues(a, b));
            int actual = Integer.signum(Arrays.compareUnsigned(codec.encode(a), codec.encode(b)));
            assertEquals(expected, actual, () -> Arrays.toString(a) + " vs " + Arrays.toString(b));
        }
    }

    @Test
    void decodeInvertsEncode() {
        Random r = new Random(7);
        for (int i = 0; i < 5_000; i++) {
            Object[] a = random(r);
            assertArrayEquals(a, codec.decode(codec.encode(a)));
            assertArrayEquals(Arrays.copyOfRange(a, 2, a.length), codec.decodeSuffix(codec.encode(a), 2));
        }
    }

    @Test
    void prefixRangeCoversExactlyTheKeysWithThatPrefix() {
        Random r = new Random(3);
        for (int i = 0; i < 5_000; i++) {
            Object[] a = random(r);
            Object[] b = random(r);
            byte[] prefix = codec.encodePrefix(a, 2);
            byte[] upper = KeyCodec.successor(prefix);
            byte[] kb = codec.encode(b);
            boolean inRange = Arrays.compareUnsigned(kb, prefix) >= 0 && Arrays.compareUnsigned(kb, upper) < 0;
            boolean samePrefix = a[0].equals(b[0]) && a[1].equals(b[1]);
            assertEquals(samePrefix, inRange);
        }
    }

    @Test
    void rowCodecRoundTripsWithNulls() {
        Schema schema = new Schema(java.util.List.of(new Column("a", DataType.INT), new Column("b", DataType.varchar(20)),
                new Column("c", DataType.decimal(15, 2)), new Column("d", DataType.DOUBLE), new Column("e", DataType.BOOLEAN)));
        RowCodec rc = new RowCodec(schema);
        Object[] row = {5, null, 12345L, -0.5, true};
        assertArrayEquals(row, rc.decode(rc.encode(row)));
        Object[] withText = {null, "héllo wörld", null, null, false};
        assertArrayEquals(withText, rc.decode(rc.encode(withText)));
        assertTrue(rc.encode(row).length < 30);
    }

    @Test
    void typesParseAndPrint() {
        for (String s : new String[] {"INT", "BIGINT", "DOUBLE", "DATE", "DECIMAL(15,2)", "VARCHAR(25)", "CHAR(1)", "BOOLEAN"}) {
            assertEquals(s, DataType.parse(s).toString());
        }
        assertEquals("1234.56", DataType.decimal(15, 2).format(123456L));
        assertEquals("1995-03-15", DataType.DATE.format((int) java.time.LocalDate.parse("1995-03-15").toEpochDay()));
    }

    /** Unscaled values of a DECIMAL(38,s) around zero, ±2^63 and ±(10^38 - 1), and random ones of every length. */
    private static List<BigInteger> wideValues(Random r) {
        BigInteger max = BigInteger.TEN.pow(38).subtract(BigInteger.ONE);
        BigInteger longEdge = BigInteger.valueOf(Long.MAX_VALUE);
        List<BigInteger> values = new ArrayList<>(List.of(BigInteger.ZERO, BigInteger.ONE, BigInteger.ONE.negate(),
                max, max.negate(), max.subtract(BigInteger.ONE), max.negate().add(BigInteger.ONE),
                longEdge, longEdge.add(BigInteger.ONE), longEdge.negate(), longEdge.negate().subtract(BigInteger.TWO),
                BigInteger.valueOf(255), BigInteger.valueOf(256), BigInteger.valueOf(-256), BigInteger.valueOf(-257)));
        for (int i = 0; i < 2_000; i++) {
            BigInteger v = new BigInteger(1 + r.nextInt(126), r);
            values.add(r.nextBoolean() ? v : v.negate());
        }
        return values;
    }

    @Test
    void wideDecimalsOrderAsTheirValuesAndDecodeBack() {
        DataType wide = DataType.decimal(38, 10);
        KeyCodec keys = new KeyCodec(new DataType[] {wide, DataType.INT});
        List<BigInteger> values = wideValues(new Random(11));
        for (int i = 0; i < values.size(); i++) {
            BigInteger a = values.get(i);
            byte[] ka = keys.encode(a, 1);
            assertEquals(16 + 4, ka.length);
            assertArrayEquals(new Object[] {a, 1}, keys.decode(ka));
            for (int j = Math.max(0, i - 40); j < i; j++) {
                BigInteger b = values.get(j);
                int expected = Integer.signum(a.compareTo(b));
                assertEquals(expected, Integer.signum(Arrays.compareUnsigned(ka, keys.encode(b, 1))), a + " vs " + b);
            }
        }
        // the column ends where 16 bytes end: the next column is compared only between equal decimals
        BigInteger v = BigInteger.TEN.pow(30).negate();
        assertEquals(1, keys.sharedColumns(keys.encode(v, 1), keys.encode(v, 2)));
        assertTrue(Arrays.compareUnsigned(keys.encode(v, 2), keys.encode(v.add(BigInteger.ONE), 1)) < 0);
    }

    @Test
    void wideDecimalRowsRoundTrip() {
        Schema schema = new Schema(List.of(new Column("a", DataType.decimal(38, 2)), new Column("b", DataType.decimal(18, 2)),
                new Column("c", DataType.decimal(20, 0))));
        RowCodec rows = new RowCodec(schema);
        for (BigInteger v : wideValues(new Random(5))) {
            Object[] row = {v, 7L, null};
            assertArrayEquals(row, rows.decode(rows.encode(row)));
        }
        assertEquals("-99999999999999999999999999999999999.99",
                DataType.decimal(38, 2).format(DataType.decimal(38, 2).parseValue("-99999999999999999999999999999999999.99")));
    }
}
