package org.oooengine.hive.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Timestamp;
import java.time.LocalDateTime;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.oooengine.core.sql.SqlException;

/**
 * TIMESTAMP columns, literals and casts: a date and time of day without a time zone, as in Hive.
 * Filters, ORDER BY, GROUP BY, joins, aggregates and the date-part functions against DuckDB; the
 * Hive functions DuckDB spells otherwise (unix_timestamp, from_unixtime, to_date, date_format,
 * trunc, date_add, datediff) against Hive's answers; LOAD DATA of Hive's text.
 */
class TimestampTest {
    private static final String TABLE = "CREATE TABLE events (id INT, ts TIMESTAMP, d DATE%s)";
    private static final String ROWS = "INSERT INTO events VALUES "
            + "(1, TIMESTAMP '2024-01-02 03:04:05.123', DATE '2024-01-02'), "
            + "(2, TIMESTAMP '2024-01-02 03:04:05.123', DATE '2024-01-01'), "
            + "(3, TIMESTAMP '1999-12-31 23:59:59', DATE '2000-01-01'), "
            + "(4, NULL, NULL), "
            + "(5, TIMESTAMP '2024-02-29 00:00:00', DATE '2024-02-29'), "
            + "(6, TIMESTAMP '1969-07-20 20:17:40.5', DATE '1969-07-20'), "
            + "(7, TIMESTAMP '2024-06-30 12:30:00.000001', DATE '2024-07-01')";

    private static ColumnTypesFixture db;

    @BeforeAll
    static void start() throws Exception {
        db = new ColumnTypesFixture("ooo-timestamps");
        db.execute(String.format(TABLE, ", PRIMARY KEY (id) DISABLE NOVALIDATE"));
        db.execute(ROWS);
        db.duckDb(String.format(TABLE, ""), ROWS);
    }

    @AfterAll
    static void stop() throws Exception {
        db.close();
    }

    /** Timestamps as java.sql.Timestamp on both sides, so that they print alike. */
    private static List<Object[]> jdbcTimestamps(List<Object[]> rows) {
        for (Object[] row : rows) {
            for (int i = 0; i < row.length; i++) {
                if (row[i] instanceof LocalDateTime t) {
                    row[i] = Timestamp.valueOf(t);
                }
            }
        }
        return rows;
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "SELECT id, ts, d FROM events",
        "SELECT id FROM events WHERE ts > TIMESTAMP '2024-01-02 00:00:00'",
        "SELECT id FROM events WHERE ts BETWEEN '2024-01-01 00:00:00' AND '2024-06-30 12:30:00'",
        "SELECT id FROM events WHERE ts = TIMESTAMP '2024-01-02 03:04:05.123' OR ts < '1970-01-01'",
        "SELECT id FROM events WHERE ts >= d",
        "SELECT id, ts FROM events ORDER BY ts DESC NULLS LAST, id",
        "SELECT id, ts FROM events ORDER BY ts, id",
        "SELECT ts, count(*) FROM events GROUP BY ts",
        "SELECT min(ts), max(ts), count(ts), count(DISTINCT ts) FROM events",
        "SELECT a.id, b.id FROM events a JOIN events b ON a.ts = b.ts",
        "SELECT a.id, b.id FROM events a LEFT JOIN events b ON a.ts = b.ts AND a.id <> b.id",
        "SELECT id, year(ts), month(ts), day(ts), hour(ts), minute(ts), second(ts) FROM events",
        "SELECT id, CAST(ts AS DATE), CAST(d AS TIMESTAMP), CAST(ts AS STRING) FROM events",
        "SELECT CAST('2024-02-29 12:00:00' AS TIMESTAMP), CAST('2024-02-28' AS TIMESTAMP)",
        "SELECT id, CASE WHEN id > 3 THEN ts ELSE d END FROM events",
        "SELECT id FROM events WHERE ts IN (TIMESTAMP '1999-12-31 23:59:59', TIMESTAMP '2024-02-29 00:00:00')",
        "SELECT id, ts + INTERVAL '1' DAY, ts - INTERVAL '1' MONTH, INTERVAL '1' YEAR + ts, ts - INTERVAL '3' MONTH FROM events",
        "SELECT id, ts + INTERVAL '2' HOUR, ts - INTERVAL '90' MINUTE, ts + INTERVAL '1.5' SECOND FROM events",
        "SELECT id FROM events WHERE ts + INTERVAL 30 DAY > TIMESTAMP '2024-03-01 00:00:00'",
        "SELECT id, d + INTERVAL '12' HOUR FROM events"})
    void matchesDuckDb(String sql) throws Exception {
        List<Object[]> expected = jdbcTimestamps(db.duckDbRows(sql));
        boolean ordered = sql.contains("ORDER BY");
        assertNull(OracleComparison.difference(jdbcTimestamps(db.rows(sql)), expected, ordered), sql);
    }

    @Test
    void hiveFunctionsOfTimestamps() {
        assertEquals(List.of("[1704164645, 2024-01-02 03:04:05, 2024-01-02, 2024/01/02 03:04:05.123, 2024-01-01, "
                        + "2024-01-03, 1, 2024-01-01]"),
                db.rendered("SELECT unix_timestamp(ts), from_unixtime(unix_timestamp(ts)), to_date(ts), "
                        + "date_format(ts, 'yyyy/MM/dd HH:mm:ss.SSS'), trunc(ts, 'MM'), date_add(ts, 1), "
                        + "datediff(ts, d), CAST(ts AS DATE) - INTERVAL '1' DAY FROM events WHERE id = 2"));
        // as a number a timestamp is its seconds since 1970 at UTC: whole ones, as Hive counts them, or with the fraction
        assertEquals(List.of("[-14182940, -1.41829395E7, 1969-07-20 20:17:40.5]"), db.rendered("SELECT CAST(ts AS BIGINT), "
                + "CAST(ts AS DOUBLE), CAST(CAST(CAST(ts AS DOUBLE) AS TIMESTAMP) AS STRING) FROM events WHERE id = 6"));
        assertEquals(List.of("[1715904000, null, 1970-01-01 00:00:00, null]"),
                db.rendered("SELECT unix_timestamp('2024/05/17', 'yyyy/MM/dd'), unix_timestamp('x'), "
                        + "CAST(CAST(0 AS TIMESTAMP) AS STRING), CAST('2024-02-30 12:00:00' AS TIMESTAMP)"));
        List<Object[]> now = db.rows("SELECT current_timestamp, current_date, unix_timestamp()");
        LocalDateTime t = (LocalDateTime) now.get(0)[0];
        assertTrue(Math.abs(t.toEpochSecond(java.time.ZoneOffset.UTC) - (Long) now.get(0)[2]) <= 1, Arrays.toString(now.get(0)));
        assertEquals(t.toLocalDate(), now.get(0)[1]);
        assertEquals(t.toEpochSecond(java.time.ZoneOffset.UTC), now.get(0)[2], "one instant for the statement");
        // every call of a statement gives the same instant, however long its analysis takes (Hive's rule)
        String calls = String.join(" UNION ALL ", java.util.Collections.nCopies(300, "SELECT current_timestamp AS t"));
        assertEquals(List.of("[1]"), db.rendered("SELECT count(DISTINCT t) FROM (" + calls + ") x"));
        assertEquals(List.of("timestamp", "date", "bigint"),
                db.execute("SELECT current_timestamp, current_date, unix_timestamp()").columns().stream()
                        .map(c -> c.type().toString()).toList());
        SqlException bad = assertThrows(SqlException.class, () -> db.rows("SELECT TIMESTAMP '2024-13-01 00:00:00'"));
        assertTrue(bad.getMessage().contains("not a timestamp"), bad.getMessage());
    }

    @Test
    void describeAndLoadDataReadHiveText() throws Exception {
        assertEquals(List.of("[id, int, ]", "[ts, timestamp, ]", "[d, date, ]"), db.rendered("DESCRIBE events"));
        db.execute("CREATE TABLE loaded (id INT, ts TIMESTAMP) ROW FORMAT DELIMITED FIELDS TERMINATED BY ','");
        Path file = db.incoming.resolve("times.csv");
        Files.writeString(file, "1,2024-01-02 03:04:05\n2,2024-01-02 03:04:05.123456\n3,\\N\n4,2024-03-01\n");
        db.execute("LOAD DATA LOCAL INPATH '" + file + "' INTO TABLE loaded");
        assertEquals(List.of("[1, 2024-01-02 03:04:05]", "[2, 2024-01-02 03:04:05.123456]", "[3, null]",
                "[4, 2024-03-01 00:00:00]"), db.rendered("SELECT id, CAST(ts AS STRING) FROM loaded ORDER BY id"));
        assertEquals(List.of("[2]"), db.rendered("SELECT id FROM loaded WHERE ts > '2024-01-02 03:04:05' AND ts < '2024-02-01'"));
        Path bad = db.incoming.resolve("times-bad.csv");
        Files.writeString(bad, "5,yesterday\n");
        SqlException e = assertThrows(SqlException.class, () -> db.execute("LOAD DATA LOCAL INPATH '" + bad + "' INTO TABLE loaded"));
        assertTrue(e.getMessage().contains("times-bad.csv, line 1"), e.getMessage());
        db.execute("DROP TABLE loaded");
    }
}
