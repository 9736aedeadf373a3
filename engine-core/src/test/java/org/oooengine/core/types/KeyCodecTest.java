package org.oooengine.core.types;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
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
}
