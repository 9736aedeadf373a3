package org.oooengine.mapreduce;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.oooengine.core.types.DataType;

/** Hive's text format: what is written reads back the same; bad lines name where and why. */
class HiveTextTest {
    private final HiveText text = new HiveText(List.of(DataType.BIGINT, DataType.decimal(15, 2), DataType.DATE,
            DataType.varchar(25), DataType.INT));

    @Test
    void rowsRoundTripWithNullsAsBackslashN() {
        Object[] row = {42L, 123456L, 9000, "Brand#13", null};
        String line = text.format(row);
        assertEquals("42\u00011234.56\u00011994-08-23\u0001Brand#13\u0001\\N", line);
        assertArrayEquals(row, text.parse(line, "f:0"));
    }

    @Test
    void aTableMayNameItsOwnDelimiterAndNullText() {
        HiveText csv = new HiveText(List.of(DataType.INT, DataType.varchar(0), DataType.DATE), ',', "");
        Object[] row = {7, "a\u0001b", null};
        assertEquals("7,a\u0001b,", csv.format(row));
        assertArrayEquals(row, csv.parse("7,a\u0001b,", "f, line 1"));
        assertThrows(IllegalArgumentException.class, () -> csv.format(new Object[] {1, "a,b", null}));
    }

    @Test
    void aStringHoldingTheDelimiterIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> text.format(new Object[] {1L, 1L, 1, "a\u0001b", 1}));
        assertTrue(e.getMessage().contains("column 4"), e.getMessage());
    }

    @Test
    void badLinesNameTheFileOffsetAndField() {
        IllegalArgumentException few = assertThrows(IllegalArgumentException.class,
                () -> text.parse("1\u00012.00", "part-m-00000 at byte 77"));
        assertTrue(few.getMessage().startsWith("part-m-00000 at byte 77: 2 fields where 5"), few.getMessage());
        IllegalArgumentException many = assertThrows(IllegalArgumentException.class,
                () -> text.parse("1\u00012.00\u00011994-01-01\u0001x\u00013\u0001extra", "f:9"));
        assertTrue(many.getMessage().contains("more than the 5 fields"), many.getMessage());
        IllegalArgumentException type = assertThrows(IllegalArgumentException.class,
                () -> text.parse("1\u00012.005\u00011994-01-01\u0001x\u00013", "f:9"));
        assertTrue(type.getMessage().startsWith("f:9, field 2: '2.005' is not a DECIMAL(15,2) value"), type.getMessage());
    }
}
