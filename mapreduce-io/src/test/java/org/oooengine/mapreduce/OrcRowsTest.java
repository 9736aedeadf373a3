package org.oooengine.mapreduce;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;
import org.apache.orc.TypeDescription;
import org.junit.jupiter.api.Test;
import org.oooengine.core.types.DataType;

/** Engine rows through ORC column vectors read back exactly; a file of another shape is named as such. */
class OrcRowsTest {
    private final List<DataType> types = List.of(DataType.BIGINT, DataType.decimal(15, 2), DataType.DATE,
            DataType.varchar(25), DataType.INT, DataType.DOUBLE, DataType.BOOLEAN);
    private final TypeDescription schema = OrcRows.schema(List.of("k", "price", "day", "name", "n", "x", "b"), types);

    @Test
    void rowsRoundTripWithNulls() {
        OrcRows orc = new OrcRows(types);
        VectorizedRowBatch batch = schema.createRowBatch();
        Object[] full = {42L, 123456L, 9000, "Brand#13", 7, 0.5, true};
        Object[] empty = {null, null, null, null, null, null, null};
        orc.write(batch, batch.size++, full);
        orc.write(batch, batch.size++, empty);
        assertArrayEquals(full, orc.read(batch, 0));
        assertArrayEquals(empty, orc.read(batch, 1));
    }

    @Test
    void timestampsRoundTripToTheMicrosecond() {
        List<DataType> ts = List.of(DataType.TIMESTAMP);
        OrcRows orc = new OrcRows(ts);
        VectorizedRowBatch batch = OrcRows.schema(List.of("t"), ts).createRowBatch();
        long[] micros = {0L, 1_704_164_645_123_456L, -14_182_939_500_000L};
        for (long m : micros) {
            orc.write(batch, batch.size++, new Object[] {m});
        }
        for (int i = 0; i < micros.length; i++) {
            assertArrayEquals(new Object[] {micros[i]}, orc.read(batch, i));
        }
    }

    @Test
    void wideDecimalsRoundTripAsTheirUnscaledValues() {
        List<DataType> wide = List.of(DataType.decimal(38, 10), DataType.decimal(18, 2));
        OrcRows orc = new OrcRows(wide);
        VectorizedRowBatch batch = OrcRows.schema(List.of("w", "n"), wide).createRowBatch();
        java.math.BigInteger max = java.math.BigInteger.TEN.pow(38).subtract(java.math.BigInteger.ONE);
        Object[][] rows = {{max, 1L}, {max.negate(), -1L}, {java.math.BigInteger.valueOf(-5), 0L},
            {java.math.BigInteger.ZERO, 999_999_999_999_999_999L}};
        for (Object[] row : rows) {
            orc.write(batch, batch.size++, row);
        }
        for (int i = 0; i < rows.length; i++) {
            assertArrayEquals(rows[i], orc.read(batch, i));
        }
    }

    @Test
    void aFileOfAnotherShapeIsNamed() {
        assertNull(OrcRows.mismatch(schema, types));
        assertNull(OrcRows.mismatch(TypeDescription.fromString(
                "struct<a:bigint,b:decimal(12,2),c:date,d:string,e:int,f:double,g:boolean>"), types));
        assertEquals("column 2 is decimal(15,4) in the file, DECIMAL(15,2) in the table", OrcRows.mismatch(
                TypeDescription.fromString("struct<a:bigint,b:decimal(15,4),c:date,d:string,e:int,f:double,g:boolean>"),
                types));
        assertEquals("it holds struct<a:bigint>, not 7 columns",
                OrcRows.mismatch(TypeDescription.fromString("struct<a:bigint>"), types));
    }
}
