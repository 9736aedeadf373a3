package org.oooengine.cluster.bench.tpcds;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The query texts as the bench reads them, DuckDB's spelling of them, and how answers are compared. */
class TpcdsQueriesTextTest {
    @Test
    void everyQueryIsPackagedWithoutItsSemicolon() {
        for (int q : TpcdsQueries.all()) {
            String sql = TpcdsQueries.text(q);
            assertTrue(sql.startsWith("-- TPC-DS Q" + q + "\n"), TpcdsQueries.name(q));
            assertFalse(sql.endsWith(";"), TpcdsQueries.name(q));
        }
        assertEquals(99, TpcdsQueries.all().size());
        assertEquals(5, TpcdsQueries.number("q05"));
        assertEquals(72, TpcdsQueries.number("72"));
        assertThrows(IllegalArgumentException.class, () -> TpcdsQueries.number("q0"));
    }

    @Test
    void duckDbReadsBackquotedNamesInDoubleQuotes() {
        assertEquals("SELECT count(*) AS \"order count\" FROM t", TpcdsQueries.forDuckDb("SELECT count(*) AS `order count` FROM t"));
        assertTrue(TpcdsQueries.forDuckDb(TpcdsQueries.text(16)).contains("\"order count\""));
    }

    @Test
    void onlyAnOuterOrderByOrdersTheRows() {
        assertTrue(TpcdsQueries.ordered("SELECT a FROM t ORDER BY a"));
        assertFalse(TpcdsQueries.ordered("SELECT rank() OVER (PARTITION BY b ORDER BY a) FROM t"));
        assertFalse(TpcdsQueries.ordered("SELECT 'order by' FROM t -- order by\n"));
        assertFalse(TpcdsQueries.ordered("SELECT reorder by_x FROM t"));
        assertTrue(TpcdsQueries.ordered(TpcdsQueries.text(1)));
    }

    @Test
    void answersCompareNumbersByValueAndStringsWithoutTrailingBlanks() {
        List<Object[]> ours = List.<Object[]>of(new Object[] {new BigDecimal("1.500000"), "ab  ", 3L});
        List<Object[]> duck = List.<Object[]>of(new Object[] {1.5d, "ab", 3});
        assertNull(Answers.difference(ours, duck, true));
        assertTrue(Answers.difference(ours, List.<Object[]>of(new Object[] {1.51d, "ab", 3}), true).startsWith("row 1 column 1"));
        assertTrue(Answers.difference(ours, List.of(), false).startsWith("row count 1, DuckDB 0"));
        // Hive rounds the decimal 0.575 half up to 0.58; DuckDB rounds the double 0.57499999... to 0.57
        assertNull(Answers.difference(List.<Object[]>of(new Object[] {new BigDecimal("0.58")}),
                List.<Object[]>of(new Object[] {0.57d}), true));
        assertTrue(Answers.difference(List.<Object[]>of(new Object[] {new BigDecimal("0.59")}),
                List.<Object[]>of(new Object[] {0.57d}), true) != null);
        List<Object[]> two = List.of(new Object[] {1}, new Object[] {2});
        List<Object[]> reversed = List.of(new Object[] {2}, new Object[] {1});
        assertNull(Answers.difference(two, reversed, false));
        assertTrue(Answers.difference(two, reversed, true) != null);
    }
}
