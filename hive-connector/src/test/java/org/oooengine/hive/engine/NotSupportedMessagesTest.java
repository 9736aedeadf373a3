package org.oooengine.hive.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Locale;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.oooengine.hive.sql.Cancellation;
import org.oooengine.core.sql.SqlException;
import org.oooengine.hive.sql.SqlSession;

/**
 * Constructs the engine does not run yet, as a user writes them: each is refused as not supported
 * (0A000) in the words of SQL, never Hive's parser token names (TOK_TIMESTAMP), and says where
 * (line:column).
 */
class NotSupportedMessagesTest {
    @RegisterExtension
    static final SqlCluster cluster = SqlCluster.of("ooo-not-supported", 1);

    @ParameterizedTest
    @ValueSource(strings = {
        "SELECT TIMESTAMPLOCALTZ '2020-01-01 00:00:00 UTC'",
        "SELECT CAST(n_name AS TIMESTAMP WITH LOCAL TIME ZONE) FROM nation",
        "SELECT CAST(n_name AS BINARY) FROM nation",
        "SELECT n_name, rank() OVER (PARTITION BY n_regionkey ORDER BY n_name ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM nation",
        "SELECT n_name, sum(n_nationkey) OVER (ORDER BY n_name RANGE BETWEEN 1 PRECEDING AND CURRENT ROW) FROM nation",
        "SELECT n_name FROM nation LATERAL VIEW json_tuple(n_comment, 'a') t AS x",
        "SELECT named_struct('a', n_name) FROM nation",
        "SELECT n_name FROM nation WHERE n_comment RLIKE 'a.*'",
        "SELECT INTERVAL '1 10:00:00' DAY TO SECOND",
        "SELECT DATE '2020-01-01' + INTERVAL (n_nationkey) DAY FROM nation",
        "SELECT INTERVAL '1' DAY + INTERVAL '2' HOUR + DATE '2020-01-01'",
        "SELECT initcap(n_name) FROM nation",
        "SELECT inline(array(1))",
        "CREATE TABLE p (a INT) PARTITIONED BY (d STRING)",
        "ALTER TABLE nation REPLACE COLUMNS (a INT)",
        "ALTER TABLE nation ADD PARTITION (d = '1')",
        "ALTER TABLE nation DROP PARTITION (d = '1')",
        "ALTER TABLE nation CHANGE n_name n_name STRING FIRST",
        "ALTER TABLE nation SET TBLPROPERTIES ('ooo.indexes'='n_name')",
        "CREATE TABLE f (a INT, FOREIGN KEY (a) REFERENCES nation(n_nationkey))",
        "CREATE TABLE u (a INT, UNIQUE (a) DISABLE NOVALIDATE)"})
    void refusedInTheWordsOfSqlWithAPosition(String sql) {
        SqlException e;
        try (SqlSession s = cluster.session()) {
            e = assertThrows(SqlException.class, () -> s.execute(sql, new Cancellation()).rows().forEachRemaining(r -> { }));
        }
        String message = e.getMessage();
        System.out.println(sql + " -> " + e.sqlState() + " " + message);
        assertEquals(SqlException.NOT_SUPPORTED, e.sqlState(), sql + ": " + message);
        assertFalse(message.toLowerCase(Locale.ROOT).contains("tok_"), sql + ": " + message);
        assertTrue(message.matches("(?s).* at line \\d+:\\d+$"), sql + ": " + message);
    }

    @org.junit.jupiter.api.Test
    void aTimestampWithLocalTimeZoneLiteralIsCalledOne() {
        try (SqlSession s = cluster.session()) {
            SqlException e = assertThrows(SqlException.class,
                    () -> s.execute("SELECT TIMESTAMPLOCALTZ '2020-01-01 00:00:00 UTC'", new Cancellation()));
            assertTrue(e.getMessage().startsWith("not supported yet: TIMESTAMP WITH LOCAL TIME ZONE literal "
                    + "'2020-01-01 00:00:00 UTC' at line 1:"), e.getMessage());
        }
    }
}
