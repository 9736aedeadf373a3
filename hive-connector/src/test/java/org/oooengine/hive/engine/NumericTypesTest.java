package org.oooengine.hive.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.trino.tpch.TpchTable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.oooengine.core.cluster.TpchCluster;
import org.oooengine.core.sql.SqlException;
import org.oooengine.core.tpch.DuckDbOracle;
import org.oooengine.hive.catalog.EmbeddedCatalog;
import org.oooengine.hive.sql.Cancellation;
import org.oooengine.hive.sql.SqlSession;
import org.oooengine.hive.sql.StatementResult;

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

    private static TpchCluster tpch;
    private static ClusterSqlEngine engine;
    private static Connection duck;
    private static Path incoming;

    @BeforeAll
    static void start() throws Exception {
        tpch = new TpchCluster("ooo-numeric-types", 2, 0.01, List.of(TpchTable.NATION));
        incoming = Files.createDirectories(tpch.dir.resolve("incoming"));
        engine = new ClusterSqlEngine(tpch.session, tpch.cluster.dir, tpch.dir.resolve(EmbeddedCatalog.FILE_NAME),
                Map.of(LoadableFiles.ALLOWED_DIRS_SETTING, incoming.toString()));
        try (SqlSession s = session()) {
            s.execute(String.format(TABLE, ", PRIMARY KEY (k) DISABLE NOVALIDATE"), new Cancellation());
            s.execute(ROWS, new Cancellation());
        }
        duck = DriverManager.getConnection("jdbc:duckdb:");
        try (Statement st = duck.createStatement()) {
            st.execute(String.format(TABLE, ""));
            st.execute(ROWS);
            st.execute("CREATE TABLE nation AS SELECT range::INT AS n_nationkey FROM range(25)");
        }
    }

    @AfterAll
    static void stop() throws Exception {
        try (AutoCloseable t = tpch; AutoCloseable d = duck) {
            // DuckDB, then the cluster
        }
    }

    private static SqlSession session() {
        return engine.openSession("test", "default", Map.of());
    }

    private static StatementResult execute(String sql) {
        try (SqlSession s = session()) {
            StatementResult r = s.execute(sql, new Cancellation());
            if (!r.hasResultSet()) {
                return r;
            }
            List<Object[]> rows = new ArrayList<>();
            r.rows().forEachRemaining(rows::add);
            return StatementResult.rows(r.columns(), rows.iterator());
        }
    }

    private static List<Object[]> rows(String sql) {
        List<Object[]> out = new ArrayList<>();
        execute(sql).rows().forEachRemaining(out::add);
        return out;
    }

    private static List<String> rendered(String sql) {
        return rows(sql).stream().map(Arrays::toString).toList();
    }

    private static List<String> types(String sql) {
        return execute(sql).columns().stream().map(c -> c.type().toString()).toList();
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
        List<Object[]> expected;
        try (Statement st = duck.createStatement()) {
            expected = DuckDbOracle.rows(st.executeQuery(sql));
        }
        boolean ordered = sql.contains("ORDER BY");
        assertNull(OracleComparison.difference(rows(sql), expected, ordered), sql);
    }

    @Test
    void resultsAreTypedAsHiveTypesThem() {
        assertEquals(List.of("tinyint", "smallint", "float", "boolean"), types("SELECT t, s, f, b FROM nums"));
        assertEquals(List.of("smallint", "tinyint", "int", "float", "float", "double", "double"),
                types("SELECT t + s, t * t, t + k, f + t, f * f, f + d, t / t FROM nums"));
        assertEquals(List.of("bigint", "bigint", "double", "double", "tinyint", "float"),
                types("SELECT sum(t), sum(s), sum(f), avg(t), max(t), min(f) FROM nums"));
        assertEquals(List.of("tinyint", "smallint", "float"), types("SELECT 1Y, 2S, CAST(1 AS FLOAT)"));
        assertEquals(List.of("[k, int, ]", "[t, tinyint, ]", "[s, smallint, ]", "[f, float, ]", "[d, double, ]",
                "[b, boolean, ]"), rendered("DESCRIBE nums"));
    }

    @Test
    void integersWrapAroundAndTextOutOfRangeIsNull() {
        // Hive narrows numbers by dropping high bits, and sums in the operands' type
        assertEquals(List.of("[44, 4464, -128, 127, -32768, null, null, 12]"), rendered("SELECT CAST(300 AS TINYINT), "
                + "CAST(70000 AS SMALLINT), 127Y + 1Y, CAST(-129 AS TINYINT), CAST(32767S + 1S AS SMALLINT), "
                + "CAST('300' AS TINYINT), CAST('x' AS SMALLINT), CAST('12' AS TINYINT)"));
        assertEquals(List.of("[5, -2]", "[7, 0]"), rendered("SELECT k, t + t FROM nums WHERE k IN (5, 7) ORDER BY k"));
        assertEquals(List.of("[0.1, true, true]"),
                rendered("SELECT CAST(CAST(0.1 AS FLOAT) AS STRING), CAST('0.1' AS FLOAT) = CAST(0.1 AS FLOAT), "
                        + "CAST(0.1 AS FLOAT) <> 0.1"));
        SqlException big = assertThrows(SqlException.class, () -> rows("SELECT 300Y"));
        assertTrue(big.getMessage().contains("300Y"), big.getMessage());
    }

    @Test
    void insertAndLoadDataGiveColumnsTheirTypesValues() throws Exception {
        execute("CREATE TABLE small (t TINYINT, s SMALLINT, f FLOAT, b BOOLEAN) "
                + "ROW FORMAT DELIMITED FIELDS TERMINATED BY ','");
        execute("INSERT INTO small VALUES (300, 70000, 0.1, true)");
        assertEquals(List.of("[44, 4464, 0.1, true]"), rendered("SELECT t, s, CAST(f AS STRING), b FROM small"));

        Path file = incoming.resolve("small.csv");
        Files.writeString(file, "-5,1200,2.5,false\n\\N,\\N,\\N,\\N\n127,-32768,0.1,true\n");
        execute("LOAD DATA LOCAL INPATH '" + file + "' OVERWRITE INTO TABLE small");
        assertEquals(List.of("[-5, 1200, 2.5, false]", "[127, -32768, 0.1, true]", "[null, null, null, null]"),
                rendered("SELECT t, s, CAST(f AS STRING), b FROM small ORDER BY t NULLS LAST"));
        assertEquals(List.of("[1]"), rendered("SELECT count(*) FROM small WHERE f = CAST(0.1 AS FLOAT)"));

        Path bad = incoming.resolve("small-bad.csv");
        Files.writeString(bad, "1,2,3,true\n200,2,3,false\n");
        SqlException e = assertThrows(SqlException.class,
                () -> execute("LOAD DATA LOCAL INPATH '" + bad + "' INTO TABLE small"));
        assertEquals(SqlException.DATA, e.sqlState(), e.getMessage());
        assertTrue(e.getMessage().contains("column t: '200' is not a tinyint value"), e.getMessage());
        assertEquals(List.of("[3]"), rendered("SELECT count(*) FROM small"), "a failed load changes nothing");
        execute("DROP TABLE small");
    }
}
