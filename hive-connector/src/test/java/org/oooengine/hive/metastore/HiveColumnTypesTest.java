package org.oooengine.hive.metastore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.oooengine.core.sql.SqlType;
import org.oooengine.hive.files.StoredTypes;

/** A metastore's decimal columns: every precision Hive allows maps, with the stored type that holds it. */
class HiveColumnTypesTest {
    @Test
    void decimalsUpToPrecision38MapAndWiderAreRefused() {
        assertEquals(SqlType.decimal(38, 10), HiveColumnTypes.sqlType("decimal(38,10)"));
        assertEquals(SqlType.decimal(19, 0), HiveColumnTypes.sqlType("DECIMAL(19)"));
        assertEquals(SqlType.decimal(10, 0), HiveColumnTypes.sqlType("decimal"));
        assertTrue(StoredTypes.of(SqlType.decimal(38, 10)).isWideDecimal());
        assertEquals("DECIMAL(18,2)", StoredTypes.of(SqlType.decimal(18, 2)).toString());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> HiveColumnTypes.sqlType("decimal(39,2)"));
        assertTrue(e.getMessage().contains("precision above 38"), e.getMessage());
    }
}
