package org.oooengine.hive.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.oooengine.core.sql.SqlException;
import org.oooengine.core.stats.ColumnStatistics;
import org.oooengine.optimizer.stats.ClusterStatistics;

/**
 * DECIMAL columns of precision 19 to 38, as Hive allows: stored as unscaled 128-bit integers
 * beside the scaled longs of narrower decimals. Filters, ORDER BY, GROUP BY, joins, aggregates and
 * arithmetic against DuckDB, over the columnar copy a new table gets, the rows written in place
 * afterwards and a table keyed by such a column; exact values near ±10^38 and Hive's rule that a
 * value too wide for its column is NULL; LOAD DATA of Hive's text.
 */
class WideDecimalTest {
    private static final String AMOUNTS = "CREATE TABLE amounts (id INT, big DECIMAL(38,10), mid DECIMAL(30,2), "
            + "huge DECIMAL(38,0), grp INT%s)";
    private static final String AMOUNT_ROWS = "INSERT INTO amounts VALUES "
            + "(1, 9999999999999999999999999999.9999999999, 123456789012345678901234567.89, "
            + "CAST('99999999999999999999999999999999999999' AS DECIMAL(38,0)), 1), "
            + "(2, -9999999999999999999999999999.9999999999, -123456789012345678901234567.89, "
            + "CAST('-99999999999999999999999999999999999999' AS DECIMAL(38,0)), 1), "
            + "(3, 0.0000000001, 0.01, 0, 2), "
            + "(4, NULL, NULL, NULL, 2), "
            + "(5, 12345.6789012345, 42.00, CAST('12345678901234567890' AS DECIMAL(38,0)), 3), "
            + "(6, -0.5, 123456789012345678901234567.89, CAST('-9223372036854775809' AS DECIMAL(38,0)), 3), "
            + "(7, 922337203685477580.7, 42.00, CAST('9223372036854775808' AS DECIMAL(38,0)), 1)";
    /** Keyed by a DECIMAL(30,2): rows to join and group on, and many large values to add up. */
    private static final String PRICES = "CREATE TABLE prices (k DECIMAL(30,2), qty DECIMAL(30,2), label STRING%s)";

    private static ColumnTypesFixture db;

    @BeforeAll
    static void start() throws Exception {
        db = new ColumnTypesFixture("ooo-wide-decimals");
        String priceRows = priceRows();
        db.execute(String.format(AMOUNTS, ", PRIMARY KEY (id) DISABLE NOVALIDATE"));
        db.execute(AMOUNT_ROWS);
        db.execute(String.format(PRICES, ", PRIMARY KEY (k) DISABLE NOVALIDATE"));
        db.execute(priceRows);
        db.duckDb(String.format(AMOUNTS, ""), AMOUNT_ROWS, String.format(PRICES, ""), priceRows);
    }

    /** 300 prices: keys of up to 28 digits, some negative, quantities near 10^27 whose sum needs 30 digits. */
    private static String priceRows() {
        StringBuilder b = new StringBuilder("INSERT INTO prices VALUES ");
        BigDecimal step = new BigDecimal("333333333333333333333333.37");
        for (int i = 0; i < 300; i++) {
            BigDecimal k = step.multiply(BigDecimal.valueOf(i - 150));
            BigDecimal qty = new BigDecimal("9876543210987654321098765432.10").subtract(BigDecimal.valueOf(i * 7L));
            b.append(i == 0 ? "" : ", ").append('(').append(k.toPlainString()).append(", ")
                    .append(i % 3 == 0 ? qty.negate().toPlainString() : qty.toPlainString())
                    .append(", 'p").append(i % 7).append("')");
        }
        return b.toString();
    }

    @AfterAll
    static void stop() throws Exception {
        db.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "SELECT id, big, mid, huge, grp FROM amounts",
        "SELECT id FROM amounts WHERE big > 12345.6789012344",
        "SELECT id FROM amounts WHERE huge >= CAST('9223372036854775808' AS DECIMAL(38,0)) OR huge < 0",
        "SELECT id FROM amounts WHERE mid = 42 OR big BETWEEN -1 AND 0.5",
        "SELECT id, big FROM amounts ORDER BY big DESC NULLS LAST, id",
        "SELECT id, huge FROM amounts ORDER BY huge, id",
        "SELECT mid, count(*), min(big), max(huge) FROM amounts GROUP BY mid",
        "SELECT grp, sum(mid), min(mid), max(mid), count(big) FROM amounts GROUP BY grp",
        "SELECT grp, avg(mid), avg(big) FROM amounts GROUP BY grp",
        "SELECT avg(qty), min(qty), max(k) FROM prices",
        "SELECT a.id, b.id FROM amounts a JOIN amounts b ON a.mid = b.mid",
        "SELECT a.id, b.id FROM amounts a LEFT JOIN amounts b ON a.huge = b.huge AND a.id <> b.id",
        "SELECT id, -big, -huge, mid * -1, mid - mid, -mid + 0.01, big * 1, huge / 10 FROM amounts",
        "SELECT id, big + mid, huge - 1 FROM amounts WHERE id > 2",
        "SELECT id FROM amounts WHERE big IN (-0.5, 0.0000000001, 922337203685477580.7)",
        "SELECT k, qty FROM prices WHERE k > 0 AND k < 1000000000000000000000000",
        "SELECT sum(qty), sum(k), count(*) FROM prices",
        "SELECT label, sum(qty), min(k), max(k), count(*) FROM prices GROUP BY label",
        "SELECT p.k, q.label FROM prices p JOIN prices q ON p.k = -q.k WHERE p.k > 0",
        "SELECT a.id, p.label FROM amounts a JOIN prices p ON a.mid = p.k",
        "SELECT k FROM prices ORDER BY qty, k LIMIT 5"})
    void matchesDuckDb(String sql) throws Exception {
        List<Object[]> expected = db.duckDbRows(sql);
        boolean ordered = sql.contains("ORDER BY");
        assertNull(OracleComparison.difference(db.rows(sql), expected, ordered), sql);
    }

    @Test
    void valuesNearTheLimitsAreExact() {
        assertEquals(List.of("[1, 9999999999999999999999999999.9999999999, 99999999999999999999999999999999999999]",
                        "[2, -9999999999999999999999999999.9999999999, -99999999999999999999999999999999999999]",
                        "[6, -0.5000000000, -9223372036854775809]"),
                db.rendered("SELECT id, big, huge FROM amounts WHERE id IN (1, 2, 6) ORDER BY id"));
        // Hive: sum of a DECIMAL(30,2) is a DECIMAL(38,2); every digit of it counts
        BigDecimal sum = BigDecimal.ZERO;
        for (int i = 0; i < 300; i++) {
            BigDecimal qty = new BigDecimal("9876543210987654321098765432.10").subtract(BigDecimal.valueOf(i * 7L));
            sum = sum.add(i % 3 == 0 ? qty.negate() : qty);
        }
        assertEquals(List.of("[" + sum.toPlainString() + ", decimal(38,2)]"),
                db.rendered("SELECT sum(qty), 'decimal(38,2)' FROM prices"));
        assertEquals("decimal(38,2)", db.execute("SELECT sum(qty) FROM prices").columns().get(0).type().toString());
        assertEquals(List.of("[99999999999999999999999999999999999999, -99999999999999999999999999999999999999, "
                + "99999999999999999999999999999999999998]"), db.rendered("SELECT 99999999999999999999999999999999999999BD, "
                + "-99999999999999999999999999999999999999BD, max(huge) - 1 FROM amounts"));
        assertEquals(List.of("[4, null]"), db.rendered("SELECT id, big FROM amounts WHERE big IS NULL"));
    }

    @Test
    void aValueTooWideForItsColumnIsNull() {
        // Hive's HiveDecimal.enforcePrecisionScale: what does not fit once rounded to the scale is NULL
        assertEquals(List.of("[null, 123.46, null, 99999999999999999999999999999999999999]"),
                db.rendered("SELECT CAST(123456 AS DECIMAL(5,2)), CAST(123.456 AS DECIMAL(5,2)), "
                        + "CAST('100000000000000000000000000000000000000' AS DECIMAL(38,0)), "
                        + "CAST('99999999999999999999999999999999999999.4' AS DECIMAL(38,0))"));
        db.execute("CREATE TABLE narrow (id INT, d DECIMAL(20,2), s DECIMAL(5,1))");
        db.execute("INSERT INTO narrow SELECT id, big, mid FROM amounts");
        assertEquals(List.of("[1, null, null]", "[2, null, null]", "[3, 0.00, 0.0]", "[4, null, null]",
                        "[5, 12345.68, 42.0]", "[6, -0.50, null]", "[7, 922337203685477580.70, 42.0]"),
                db.rendered("SELECT id, d, s FROM narrow ORDER BY id"));
        db.execute("INSERT INTO narrow VALUES (8, 1000000000000000000.00, 9999.9), (9, 999999999999999999.99, 10000)");
        assertEquals(List.of("[8, null, 9999.9]", "[9, 999999999999999999.99, null]"),
                db.rendered("SELECT id, d, s FROM narrow WHERE id > 7 ORDER BY id"));
        db.execute("DROP TABLE narrow");
        // a sum that outgrows 38 digits is NULL in the column, as Hive writes it
        db.execute("CREATE TABLE doubled (id INT, d DECIMAL(38,10))");
        db.execute("INSERT INTO doubled SELECT id, big + big FROM amounts");
        // big + big is a DECIMAL(38,9) (Hive keeps the integer digits, the scale gives): 2E-10 rounds to 0
        assertEquals(List.of("[1, null]", "[2, null]", "[3, 0.0000000000]", "[7, 1844674407370955161.4000000000]"),
                db.rendered("SELECT id, CAST(d AS STRING) FROM doubled WHERE id IN (1, 2, 3, 7) ORDER BY id"));
        db.execute("DROP TABLE doubled");
    }

    @Test
    void insertSelectIntoAWrittenTableAndAWideKey() {
        db.execute("CREATE TABLE copied (k DECIMAL(38,10), v DECIMAL(30,2), PRIMARY KEY (k) DISABLE NOVALIDATE)");
        db.execute("INSERT INTO copied SELECT big, mid FROM amounts WHERE big IS NOT NULL");
        // written in place: the table's rows are read from its tree from now on
        db.execute("INSERT INTO copied VALUES (-1234567890123456789012345678.0123456789, -1), (0, 0)");
        assertEquals(List.of("[-9999999999999999999999999999.9999999999]", "[-1234567890123456789012345678.0123456789]",
                        "[-0.5000000000]", "[0E-10]", "[1E-10]", "[12345.6789012345]", "[922337203685477580.7000000000]",
                        "[9999999999999999999999999999.9999999999]"),
                db.rows("SELECT k FROM copied ORDER BY k").stream().map(r -> "[" + r[0] + "]").toList());
        assertEquals(List.of("[-1234567890123456789012345678.0123456789, -1.00]"),
                db.rendered("SELECT k, v FROM copied WHERE k = -1234567890123456789012345678.0123456789"));
        assertEquals(List.of("[2]"), db.rendered("SELECT count(*) FROM copied WHERE k > 0.0000000001 AND k < 10000000000000000000"));
        assertEquals(List.of("[k, decimal(38,10), ]", "[v, decimal(30,2), ]"), db.rendered("DESCRIBE copied"));
        db.execute("DROP TABLE copied");
    }

    @Test
    void loadDataReadsWideDecimalsFromText() throws Exception {
        db.execute("CREATE TABLE loaded (id INT, amount DECIMAL(38,6)) ROW FORMAT DELIMITED FIELDS TERMINATED BY ','");
        Path file = db.incoming.resolve("amounts.csv");
        Files.writeString(file, "1,12345678901234567890123456789012.123456\n2,-0.5\n3,\\N\n4,-99999999999999999999999999999999\n");
        db.execute("LOAD DATA LOCAL INPATH '" + file + "' INTO TABLE loaded");
        assertEquals(List.of("[1, 12345678901234567890123456789012.123456]", "[2, -0.500000]", "[3, null]",
                "[4, -99999999999999999999999999999999.000000]"), db.rendered("SELECT id, amount FROM loaded ORDER BY id"));
        assertEquals(List.of("[1]"), db.rendered("SELECT id FROM loaded WHERE amount > 10000000000000000000"));
        Path bad = db.incoming.resolve("amounts-bad.csv");
        Files.writeString(bad, "5,123456789012345678901234567890123\n");
        SqlException e = assertThrows(SqlException.class, () -> db.execute("LOAD DATA LOCAL INPATH '" + bad + "' INTO TABLE loaded"));
        assertTrue(e.getMessage().contains("amounts-bad.csv, line 1"), e.getMessage());
        db.execute("DROP TABLE loaded");
    }

    @Test
    void statisticsHoldTheExtremesOfAWideColumn() {
        // each node collects its partitions anew; the merge reads their extremes back as values of the type
        ColumnStatistics huge = ClusterStatistics.collect(db.tpch.session, true).values().stream()
                .filter(t -> t.columns().stream().anyMatch(c -> c.column().equals("huge")))
                .findFirst().orElseThrow().column("huge");
        assertEquals("-99999999999999999999999999999999999999", huge.min());
        assertEquals("99999999999999999999999999999999999999", huge.max());
        assertEquals(1, huge.nulls());
        assertTrue(Math.abs(huge.distinctValues() - 6) < 0.5, "distinct values " + huge.distinctValues());
    }

    @Test
    void describeShowsTheDeclaredTypeAndWiderThan38IsRefused() {
        assertEquals(List.of("[id, int, ]", "[big, decimal(38,10), ]", "[mid, decimal(30,2), ]", "[huge, decimal(38,0), ]",
                "[grp, int, ]"), db.rendered("DESCRIBE amounts"));
        SqlException e = assertThrows(SqlException.class, () -> db.execute("CREATE TABLE t39 (x DECIMAL(39,2))"));
        assertTrue(e.getMessage().toLowerCase().contains("decimal"), e.getMessage());
    }
}
