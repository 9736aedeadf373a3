package org.oooengine.cluster.bench.chbench;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDateTime;
import java.util.Iterator;
import java.util.List;
import java.util.StringJoiner;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;
import org.oooengine.cluster.bench.duckdb.DuckDbTables;
import org.oooengine.hive.sql.Cancellation;
import org.oooengine.hive.sql.SqlSession;
import org.oooengine.hive.sql.StatementResult;
import org.oooengine.optimizer.catalog.ResultColumn;

/**
 * DuckDB in memory holding CH-benCHmark's tables as the engine's SQL reads them at one moment —
 * the oracle for the queries' answers while nothing writes (the TPC-C terminals stopped).
 */
public final class ChOracle implements AutoCloseable {
    private final Connection conn;

    private ChOracle(Connection conn) {
        this.conn = conn;
    }

    /** A copy of every table of {@link ChTables#ALL} as {@code sql} reads it now. */
    public static ChOracle copyOf(SqlSession sql) throws SQLException {
        ChOracle oracle = new ChOracle(DriverManager.getConnection("jdbc:duckdb:"));
        try {
            for (String t : ChTables.ALL) {
                oracle.copy(sql, t);
            }
            return oracle;
        } catch (SQLException | RuntimeException e) {
            oracle.close();
            throw e;
        }
    }

    private void copy(SqlSession sql, String table) throws SQLException {
        StatementResult r = sql.execute("SELECT * FROM " + ChTables.DATABASE + "." + table, new Cancellation());
        List<ResultColumn> columns = r.columns();
        StringJoiner ddl = new StringJoiner(", ", "CREATE TABLE " + table + " (", ")");
        columns.forEach(c -> ddl.add(c.name() + " " + c.type()));
        try (Statement st = conn.createStatement()) {
            st.execute(ddl.toString());
        }
        try (DuckDBAppender a = conn.unwrap(DuckDBConnection.class).createAppender(DuckDBConnection.DEFAULT_SCHEMA, table)) {
            for (Iterator<Object[]> it = r.rows(); it.hasNext(); ) {
                Object[] row = it.next();
                a.beginRow();
                for (Object v : row) {
                    append(a, v);
                }
                a.endRow();
            }
        }
    }

    private static void append(DuckDBAppender a, Object v) throws SQLException {
        if (v == null) {
            a.appendNull();
        } else if (v instanceof Integer i) {
            a.append(i.intValue());
        } else if (v instanceof Long l) {
            a.append(l.longValue());
        } else if (v instanceof BigDecimal d) {
            a.append(d);
        } else if (v instanceof String s) {
            a.append(s);
        } else if (v instanceof LocalDateTime t) {
            a.append(t);
        } else {
            throw new IllegalArgumentException("no CH-benCHmark column holds a " + v.getClass().getSimpleName());
        }
    }

    /** The rows of a query, each value as DuckDB's driver gives it. */
    public List<Object[]> rows(String sql) throws SQLException {
        try (Statement st = conn.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            return DuckDbTables.rowsOf(rs);
        }
    }

    @Override
    public void close() throws SQLException {
        conn.close();
    }
}
