package org.oooengine.core.vector;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.wire.ColumnarRows;
import org.oooengine.core.wire.PayloadReader;
import org.oooengine.core.wire.PayloadWriter;
import org.junit.jupiter.api.Test;

/** Rows gathered from batches' vectors read back as the rows the batches box into. */
class GatheredRowsTest {
    private static final SqlType[] TYPES = {SqlType.BIGINT, SqlType.INT, SqlType.DATE, SqlType.decimal(12, 2),
        SqlType.TIMESTAMP, SqlType.DOUBLE, SqlType.BOOLEAN, SqlType.STRING, SqlType.STRING};

    @Test
    void gatheredRowsReadBackAsTheirBatchesBoxThem() {
        List<Object[]> expected = new ArrayList<>();
        GatheredRows gathered = null;
        for (int b = 0; b < 3; b++) {
            Batch batch = batch(b * 1000, 700);
            int[] every3rd = new int[700];
            int count = 0;
            for (int p = b; p < 700; p += 3) {
                every3rd[count++] = p;
            }
            if (gathered == null) {
                gathered = new GatheredRows(batch, TYPES, 16); // grows as rows come
            }
            assertTrue(gathered.fits(batch));
            gathered.add(batch, every3rd, count);
            expected.addAll(batch.withPositions(every3rd, count).toRows(TYPES));
        }
        PayloadWriter w = new PayloadWriter();
        gathered.write(w);
        PayloadReader r = new PayloadReader(w.toByteArray());
        List<Object[]> read = ColumnarRows.read(r);
        assertEquals(0, r.remaining());
        assertEquals(expected.size(), read.size());
        List<Object[]> own = gathered.toChunk().rows(); // a node's own share, as its receiver reads the others'
        for (int i = 0; i < expected.size(); i++) {
            assertArrayEquals(expected.get(i), read.get(i), "row " + i);
            assertArrayEquals(expected.get(i), own.get(i), "own row " + i);
        }
    }

    @Test
    void aBatchOfOtherVectorsDoesNotFit() {
        Batch batch = batch(0, 10);
        GatheredRows gathered = new GatheredRows(batch, TYPES, 10);
        Vector[] other = new Vector[TYPES.length];
        for (int c = 0; c < other.length; c++) {
            other[c] = batch.column(c);
        }
        other[0] = new ObjectVector(new Object[10]);
        assertFalse(gathered.fits(Batch.of(other, 10)));
    }

    /** {@code n} rows from {@code start}: every kind of vector, nulls in some, a column not read. */
    private static Batch batch(int start, int n) {
        long[] ids = new long[n];
        long[] ints = new long[n];
        boolean[] intNulls = new boolean[n];
        long[] days = new long[n];
        long[] cents = new long[n];
        long[] micros = new long[n];
        double[] doubles = new double[n];
        boolean[] doubleNulls = new boolean[n];
        byte[] flags = new byte[n];
        Object[] strings = new Object[n];
        for (int i = 0; i < n; i++) {
            int row = start + i;
            ids[i] = 6_000_000L * 4 + row;
            ints[i] = -row;
            intNulls[i] = row % 4 == 0;
            days[i] = 9000 + row % 2400;
            cents[i] = row % 5 == 0 ? -row * 101L : row * 99L;
            micros[i] = 1_700_000_000_000_000L + row * 1_000_001L;
            doubles[i] = row / 7.0;
            doubleNulls[i] = row % 9 == 0;
            flags[i] = (byte) (row % 3); // false, true, null
            strings[i] = row % 6 == 0 ? null : "ship" + row % 5;
        }
        Vector[] columns = {new LongVector(ids, null), new LongVector(ints, intNulls), new LongVector(days, null),
            new LongVector(cents, null), new LongVector(micros, null), new DoubleVector(doubles, doubleNulls),
            new BoolVector(flags), new ObjectVector(strings), null};
        return Batch.of(columns, n);
    }
}
