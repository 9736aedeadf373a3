package org.oooengine.hive.metastore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.oooengine.core.sql.SqlType;

/** A metastore's column types: Hive's primitive ones map, decimals of every precision Hive allows, complex ones are refused. */
class HiveColumnTypesTest {
    @Test
    void hivesPrimitiveTypesMap() {
        assertEquals(SqlType.TINYINT, HiveColumnTypes.sqlType("tinyint"));
        assertEquals(SqlType.SMALLINT, HiveColumnTypes.sqlType("SMALLINT"));
        assertEquals(SqlType.FLOAT, HiveColumnTypes.sqlType("float"));
        assertEquals(SqlType.TIMESTAMP, HiveColumnTypes.sqlType("timestamp"));
        assertEquals(SqlType.BOOLEAN, HiveColumnTypes.sqlType("boolean"));
        for (String refused : new String[] {"binary", "array<int>", "map<string,int>", "struct<a:int>"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> HiveColumnTypes.sqlType(refused));
            assertTrue(e.getMessage().contains("not supported yet"), e.getMessage());
        }
    }

    @Test
    void decimalsUpToPrecision38MapAndWiderAreRefused() {
        assertEquals(SqlType.decimal(38, 10), HiveColumnTypes.sqlType("decimal(38,10)"));
        assertEquals(SqlType.decimal(19, 0), HiveColumnTypes.sqlType("DECIMAL(19)"));
        assertEquals(SqlType.decimal(10, 0), HiveColumnTypes.sqlType("decimal"));
        assertTrue(SqlType.decimal(38, 10).storedType().isWideDecimal());
        assertEquals("DECIMAL(18,2)", SqlType.decimal(18, 2).storedType().toString());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> HiveColumnTypes.sqlType("decimal(39,2)"));
        assertTrue(e.getMessage().contains("precision above 38"), e.getMessage());
    }
}
