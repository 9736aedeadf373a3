package org.oooengine.core.vector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.types.Column;
import org.oooengine.core.types.DataType;
import org.oooengine.core.types.RowCodec;
import org.oooengine.core.types.Schema;

/** Stored values into vectors and back, every type vectors hold, nulls among them. */
class StoredVectorsTest {
    private static final List<DataType> TYPES = List.of(DataType.INT, DataType.BIGINT, DataType.DOUBLE, DataType.BOOLEAN,
            DataType.varchar(0), DataType.DATE, DataType.decimal(12, 2), DataType.decimal(30, 4), DataType.TIMESTAMP);

    @Test
    void rowsBecomeVectorsAndComeBackAsTheyWere() {
        List<Object[]> rows = List.of(
                new Object[] {7, 8L, 1.5, true, "a", 19_000, -1234L, new BigInteger("123456789012345678901234"), 5L},
                new Object[] {null, null, null, null, null, null, null, null, null},
                new Object[] {-1, Long.MAX_VALUE, -0.0, false, "", -3, 0L, BigInteger.ONE.negate(), -9L});
        Vector[] columns = new Vector[TYPES.size()];
        for (int c = 0; c < columns.length; c++) {
            columns[c] = StoredVectors.column(rows, c, TYPES.get(c));
        }
        Batch batch = Batch.of(columns, rows.size());
        List<Object[]> back = StoredVectors.rows(batch, TYPES, TYPES.size() + 1);
        for (int r = 0; r < rows.size(); r++) {
            Object[] want = Arrays.copyOf(rows.get(r), TYPES.size() + 1);
            assertEquals(Arrays.asList(want), Arrays.asList(back.get(r)), "row " + r);
        }
        // as SQL values: a decimal at its scale, a wide one a BigDecimal
        assertEquals(new BigDecimal("-12.34"), columns[6].box(0, SqlType.of(TYPES.get(6))));
        assertEquals(new BigDecimal("12345678901234567890.1234"), columns[7].box(0, SqlType.of(TYPES.get(7))));
        assertTrue(columns[3].isNull(1) && columns[0].isNull(1) && !columns[0].isNull(0));
    }

    /**
     * Encoded rows decoded straight into vectors hold what the rows decoded as objects give: every
     * type, nulls, a column not wanted (an array between them) left out, a second batch after the first.
     */
    @Test
    void encodedRowsDecodedIntoVectorsAreTheRowsDecoded() {
        List<DataType> types = new java.util.ArrayList<>(TYPES);
        types.add(3, DataType.array(DataType.INT));
        Schema schema = new Schema(java.util.stream.IntStream.range(0, types.size())
                .mapToObj(c -> new Column("c" + c, types.get(c))).toList());
        List<Object[]> rows = List.of(
                new Object[] {7, 8L, 1.5, List.of(1, 2), true, "a", 19_000, -1234L, new BigInteger("123456789012345678901234"), 5L},
                new Object[] {null, null, null, null, null, null, null, null, null, null},
                new Object[] {-1, Long.MAX_VALUE, -0.0, List.of(), false, "é", -3, 0L, BigInteger.ONE.negate(), -9L});
        RowCodec codec = new RowCodec(schema);
        boolean[] wanted = new boolean[types.size()];
        Arrays.fill(wanted, true);
        wanted[3] = false;
        StoredColumns into = new StoredColumns(schema, wanted, 4);
        for (int take = 0; take < 2; take++) { // the vectors taken, the next batch starts on new ones
            List<Object[]> decoded = new java.util.ArrayList<>();
            for (int r = 0; r < rows.size(); r++) {
                byte[] encoded = codec.encode(rows.get(r));
                codec.decodeInto(encoded, 0, wanted, into, r);
                decoded.add(codec.decode(encoded, 0, wanted));
            }
            Batch batch = into.take(rows.size());
            Batch expected = StoredVectors.batch(decoded, schema, wanted);
            assertEquals(null, batch.column(3));
            for (int c = 0; c < types.size(); c++) {
                if (!wanted[c]) {
                    continue;
                }
                SqlType type = SqlType.of(types.get(c));
                for (int r = 0; r < rows.size(); r++) {
                    assertEquals(expected.column(c).box(r, type), batch.column(c).box(r, type), "column " + c + ", row " + r);
                }
            }
        }
    }

    @Test
    void aConstantFillsEveryPosition() {
        Vector v = StoredVectors.constant(1995, DataType.INT, 3);
        assertEquals(List.of(1995L, 1995L, 1995L), Arrays.stream(((LongVector) v).values).boxed().toList());
        Vector none = StoredVectors.constant(null, DataType.BOOLEAN, 2);
        assertTrue(none.isNull(0) && none.isNull(1));
        assertFalse(StoredVectors.holds(DataType.array(DataType.INT)));
        assertTrue(StoredVectors.holds(DataType.decimal(38, 0)));
    }
}
