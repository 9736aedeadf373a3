package org.oooengine.core.types;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.BigInteger;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Arrays and maps in stored rows: their types' spelling, and the row encoding around other columns. */
class NestedValuesTest {
    private static final DataType INTS = DataType.array(DataType.INT);
    private static final DataType PRICES = DataType.map(DataType.varchar(0), DataType.decimal(10, 2));
    private static final DataType NESTED = DataType.array(DataType.array(DataType.decimal(30, 4)));
    private static final Schema SCHEMA = new Schema(List.of(new Column("k", DataType.INT), new Column("a", INTS),
            new Column("m", PRICES), new Column("s", DataType.varchar(0)), new Column("n", NESTED),
            new Column("d", DataType.array(DataType.DATE))));

    @Test
    void typesAreSpelledAndParsedBack() {
        for (Column c : SCHEMA.columns()) {
            assertEquals(c.type(), DataType.parse(c.type().toString()), c.type().toString());
        }
        assertEquals("MAP<VARCHAR,DECIMAL(10,2)>", PRICES.toString());
        assertEquals(DataType.map(DataType.INT, DataType.array(DataType.varchar(5))), DataType.parse("map<int, array<varchar(5)>>"));
        assertThrows(IllegalArgumentException.class, () -> new DataType(TypeKind.ARRAY, 0, 0));
    }

    @Test
    void rowsKeepArraysAndMapsWithTheirNulls() {
        Map<Object, Object> prices = new LinkedHashMap<>();
        prices.put("b", 150L);
        prices.put("a", null);
        Object[] row = {7, Arrays.asList(3, null, 1), prices, "after", List.of(List.of(BigInteger.TEN.pow(20)), List.of()),
                Arrays.asList(19000, null)};
        RowCodec codec = new RowCodec(SCHEMA);
        Object[] back = codec.decode(codec.encode(row));
        assertArrayEquals(row, back);
        assertEquals(List.of("b", "a"), List.copyOf(((Map<?, ?>) back[2]).keySet()), "a map keeps its order");

        Object[] empties = {8, List.of(), Map.of(), null, Arrays.asList((Object) null), List.of()};
        assertArrayEquals(empties, codec.decode(codec.encode(empties)));
        Object[] nulls = {9, null, null, "s", null, null};
        assertArrayEquals(nulls, codec.decode(codec.encode(nulls)));
    }

    @Test
    void aScanThatSkipsTheColumnsStillFindsTheOthers() {
        RowCodec codec = new RowCodec(SCHEMA);
        Object[] row = {1, List.of(1, 2, 3), Map.of("x", 5L), "tail", List.of(List.of()), List.of(1)};
        boolean[] wanted = {true, false, false, true, false, false};
        Object[] back = codec.decode(codec.encode(row), 0, wanted);
        assertArrayEquals(new Object[] {1, null, null, "tail", null, null}, back);
    }

    @Test
    void arraysAndMapsAreNoKeys() {
        assertThrows(IllegalArgumentException.class, () -> new KeyCodec(new DataType[] {DataType.INT, INTS}));
    }
}
