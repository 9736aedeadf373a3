package org.oooengine.hive.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.oooengine.core.sql.SqlException;

/**
 * TINYINT, SMALLINT, FLOAT and BOOLEAN columns: created, filled by INSERT and LOAD DATA, queried
 * (arithmetic, aggregates, filters, GROUP BY, joins, ORDER BY) with DuckDB's answers, and typed as
 * Hive types them: TINYINT + SMALLINT is a SMALLINT, a FLOAT plus an INT a FLOAT, integers wrap
 * around when they overflow or are cast down, text out of range casts to NULL.
 */
class NumericTypesTest {
    private static final String TABLE = "CREATE TABLE nums (k INT, t TINYINT, s SMALLINT, f FLOAT, d DOUBLE, b BOOLEAN%s)";
    private static final String ROWS = "INSERT INTO nums VALUES (1, 1, 100, 0.5, 1.25, true), (2, -7, -300, 2.75, -3.5, false), "
            + "(3, 3, 32000, 1.5, 0.0, true), (4, NULL, NULL, NULL, NULL, NULL), (5, 127, -32768, -0.25, 100.0, false), "
            + "(6, 3, 7, 1.5, 2.0, true), (7, -128, 0, 1000.125, 1.0, NULL)";

    private static ColumnTypesFixture db;

    @BeforeAll
    static void start() throws Exception {
        db = new ColumnTypesFixture("ooo-numeric-types");
        db.execute(String.format(TABLE, ", PRIMARY KEY (k) DISABLE NOVALIDATE"));
        db.execute(ROWS);
        db.duckDb(String.format(TABLE, ""), ROWS, "CREATE TABLE nation AS SELECT range::INT AS n_nationkey FROM range(25)");
    }

    @AfterAll
    static void stop() throws Exception {
        db.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "SELECT k, t, s, f, d, b FROM nums",
        "SELECT k, t + s, s - t, t * 2, f + 1, f * d, f - t FROM nums WHERE k <> 5 AND k <> 7",
        "SELECT k, t / 2, s % 7, -f, abs(d), abs(t), f / 2 FROM nums WHERE k <> 7",
        "SELECT sum(t), sum(s), avg(t), avg(f), min(t), max(s), min(f), max(f), count(f), sum(f) FROM nums",
        "SELECT t, count(*), sum(f) FROM nums GROUP BY t",
        "SELECT k FROM nums WHERE t > 2 AND s < 10000",
        "SELECT k FROM nums WHERE f >= 1.5 AND f < 1000",
        "SELECT k FROM nums WHERE t = s OR t IN (1, 3)",
        "SELECT k, f FROM nums ORDER BY f DESC NULLS LAST, k",
        "SELECT k, t FROM nums ORDER BY t, k",
        "SELECT n_nationkey, k FROM nation JOIN nums ON n_nationkey = t",
        "SELECT CAST(t AS SMALLINT), CAST(s AS INT), CAST(f AS DOUBLE), CAST(t AS FLOAT), CAST(s AS DOUBLE) FROM nums",
        "SELECT k FROM nums WHERE b",
        "SELECT k FROM nums WHERE NOT b",
        "SELECT k FROM nums WHERE b = false OR b IS NULL",
        "SELECT b, count(*), sum(s) FROM nums GROUP BY b",
        "SELECT k, CASE WHEN b THEN t ELSE s END, coalesce(t, s, 0) FROM nums",
        "SELECT greatest(t, s), least(f, d) FROM nums"})
    void matchesDuckDb(String sql) throws Exception {
        List<Object[]> expected = db.duckDbRows(sql);
        boolean ordered = sql.contains("ORDER BY");
        assertNull(OracleComparison.difference(db.rows(sql), expected, ordered), sql);
    }

    @Test
    void resultsAreTypedAsHiveTypesThem() {
        assertEquals(List.of("tinyint", "smallint", "float", "boolean"), db.types("SELECT t, s, f, b FROM nums"));
        assertEquals(List.of("smallint", "tinyint", "int", "float", "float", "double", "double"),
                db.types("SELECT t + s, t * t, t + k, f + t, f * f, f + d, t / t FROM nums"));
        assertEquals(List.of("bigint", "bigint", "double", "double", "tinyint", "float"),
                db.types("SELECT sum(t), sum(s), sum(f), avg(t), max(t), min(f) FROM nums"));
        assertEquals(List.of("tinyint", "smallint", "float"), db.types("SELECT 1Y, 2S, CAST(1 AS FLOAT)"));
        assertEquals(List.of("[k, int, ]", "[t, tinyint, ]", "[s, smallint, ]", "[f, float, ]", "[d, double, ]",
                "[b, boolean, ]"), db.rendered("DESCRIBE nums"));
    }

    @Test
    void integersWrapAroundAndTextOutOfRangeIsNull() {
        // Hive narrows numbers by dropping high bits, and sums in the operands' type
        assertEquals(List.of("[44, 4464, -128, 127, -32768, null, null, 12]"), db.rendered("SELECT CAST(300 AS TINYINT), "
                + "CAST(70000 AS SMALLINT), 127Y + 1Y, CAST(-129 AS TINYINT), CAST(32767S + 1S AS SMALLINT), "
                + "CAST('300' AS TINYINT), CAST('x' AS SMALLINT), CAST('12' AS TINYINT)"));
        assertEquals(List.of("[5, -2]", "[7, 0]"), db.rendered("SELECT k, t + t FROM nums WHERE k IN (5, 7) ORDER BY k"));
        assertEquals(List.of("[0.1, true, true]"),
                db.rendered("SELECT CAST(CAST(0.1 AS FLOAT) AS STRING), CAST('0.1' AS FLOAT) = CAST(0.1 AS FLOAT), "
                        + "CAST(0.1 AS FLOAT) <> 0.1"));
        SqlException big = assertThrows(SqlException.class, () -> db.rows("SELECT 300Y"));
        assertTrue(big.getMessage().contains("300Y"), big.getMessage());
    }

    @Test
    void insertAndLoadDataGiveColumnsTheirTypesValues() throws Exception {
        db.execute("CREATE TABLE small (t TINYINT, s SMALLINT, f FLOAT, b BOOLEAN) "
                + "ROW FORMAT DELIMITED FIELDS TERMINATED BY ','");
        db.execute("INSERT INTO small VALUES (300, 70000, 0.1, true)");
        assertEquals(List.of("[44, 4464, 0.1, true]"), db.rendered("SELECT t, s, CAST(f AS STRING), b FROM small"));

        Path file = db.incoming.resolve("small.csv");
        Files.writeString(file, "-5,1200,2.5,false\n\\N,\\N,\\N,\\N\n127,-32768,0.1,true\n");
        db.execute("LOAD DATA LOCAL INPATH '" + file + "' OVERWRITE INTO TABLE small");
        assertEquals(List.of("[-5, 1200, 2.5, false]", "[127, -32768, 0.1, true]", "[null, null, null, null]"),
                db.rendered("SELECT t, s, CAST(f AS STRING), b FROM small ORDER BY t NULLS LAST"));
        assertEquals(List.of("[1]"), db.rendered("SELECT count(*) FROM small WHERE f = CAST(0.1 AS FLOAT)"));

        Path bad = db.incoming.resolve("small-bad.csv");
        Files.writeString(bad, "1,2,3,true\n200,2,3,false\n");
        SqlException e = assertThrows(SqlException.class,
                () -> db.execute("LOAD DATA LOCAL INPATH '" + bad + "' INTO TABLE small"));
        assertEquals(SqlException.DATA, e.sqlState(), e.getMessage());
        assertTrue(e.getMessage().contains("column t: '200' is not a tinyint value"), e.getMessage());
        assertEquals(List.of("[3]"), db.rendered("SELECT count(*) FROM small"), "a failed load changes nothing");
        db.execute("DROP TABLE small");
    }
}
