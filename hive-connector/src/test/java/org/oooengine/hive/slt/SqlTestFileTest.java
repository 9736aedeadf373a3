package org.oooengine.hive.slt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The {@code .test} format: records, both spellings of an expected error, sort modes, mistakes named by line. */
class SqlTestFileTest {
    @Test
    void readsEveryKindOfRecord() {
        SqlTestFile f = SqlTestFile.parse("x.test", List.of(
                "# a comment", "statement ok", "CREATE TABLE t (a INT)", "",
                "statement error not supported", "SELECT 1", "",
                "statement error", "SELECT 2", "----", "no such", "",
                "query IT rowsort", "SELECT a,", "  'x' FROM t", "----", "1\tx", "NULL\t(empty)", "",
                "query I", "SELECT 1 WHERE false", "----"));
        assertEquals(5, f.records().size());
        SqlTestFile.Statement ok = (SqlTestFile.Statement) f.records().get(0);
        assertEquals(2, ok.line());
        assertNull(ok.errorFragment());
        assertEquals("not supported", ((SqlTestFile.Statement) f.records().get(1)).errorFragment());
        assertEquals("no such", ((SqlTestFile.Statement) f.records().get(2)).errorFragment());
        SqlTestFile.Query q = (SqlTestFile.Query) f.records().get(3);
        assertEquals("SELECT a,\n  'x' FROM t", q.sql());
        assertEquals("IT", q.types());
        assertTrue(q.rowSort());
        assertEquals(List.of("1\tx", "NULL\t(empty)"), q.expected());
        SqlTestFile.Query empty = (SqlTestFile.Query) f.records().get(4);
        assertFalse(empty.rowSort());
        assertTrue(empty.expected().isEmpty());
    }

    @Test
    void namesTheLineOfAMistake() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> SqlTestFile.parse("x.test",
                List.of("", "query", "SELECT 1", "----", "1"))).getMessage().startsWith("x.test:2: "));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> SqlTestFile.parse("x.test",
                List.of("query I", "SELECT 1"))).getMessage().contains("'----'"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> SqlTestFile.parse("x.test",
                List.of("statment ok", "SELECT 1"))).getMessage().contains("unknown record"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> SqlTestFile.parse("x.test",
                List.of("query I valuesort", "SELECT 1", "----"))).getMessage().contains("sort mode"));
    }

    @Test
    void realValuesMatchToTheExpectedDecimals() {
        assertTrue(SqlTestValues.matches("3.3333333333", "3.33", 'R'));
        assertFalse(SqlTestValues.matches("3.336", "3.33", 'R'));
        assertFalse(SqlTestValues.matches("3", "3.0", 'I'), "an I value is compared as text");
        assertFalse(SqlTestValues.matches("NULL", "0", 'R'));
        assertEquals("(empty)", SqlTestValues.render("", 'T'));
        assertEquals("2", SqlTestValues.render(new java.math.BigDecimal("2.00"), 'I'));
        assertEquals("2.00", SqlTestValues.render(new java.math.BigDecimal("2.00"), 'R'));
    }
}
