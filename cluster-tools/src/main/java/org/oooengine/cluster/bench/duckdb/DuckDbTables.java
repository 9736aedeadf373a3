package org.oooengine.cluster.bench.duckdb;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.StringJoiner;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;
import org.oooengine.core.store.TableDefinition;
import org.oooengine.core.tpch.TpchLoader;
import org.oooengine.core.types.Column;
import org.oooengine.core.types.DataType;

/**
 * The engine's tables made in DuckDB, the benchmarks' oracle: the same columns in the same types,
 * filled with the rows a generator gives the engine, in the engine's values (decimals as scaled
 * longs, dates as days since the epoch).
 */
public final class DuckDbTables {
    private DuckDbTables() {
    }

    /** {@code CREATE TABLE} for {@code def}'s columns. */
    public static String createTable(TableDefinition def) {
        StringJoiner ddl = new StringJoiner(", ", "CREATE TABLE " + def.name() + " (", ")");
        for (Column c : def.schema().columns()) {
            ddl.add(c.name() + " " + c.type());
        }
        return ddl.toString();
    }

    /** Creates {@code def} in {@code conn} and appends {@code rows} to it, telling {@code progress} as it goes. */
    public static void load(Connection conn, TableDefinition def, Iterator<Object[]> rows, long expected,
                            TpchLoader.Progress progress) throws SQLException {
        try (Statement st = conn.createStatement()) {
            st.execute(createTable(def));
        }
        List<DataType> types = types(def);
        long done = 0;
        progress.update("duckdb " + def.name(), 0, expected);
        try (DuckDBAppender a = appender(conn, def)) {
            while (rows.hasNext()) {
                appendRow(a, types, rows.next());
                if (++done % 100_000 == 0) {
                    progress.update("duckdb " + def.name(), done, expected);
                }
            }
        }
        progress.update("duckdb " + def.name(), done, done);
    }

    /** An appender to table {@code def} of {@code conn}. */
    public static DuckDBAppender appender(Connection conn, TableDefinition def) throws SQLException {
        return conn.unwrap(DuckDBConnection.class).createAppender(DuckDBConnection.DEFAULT_SCHEMA, def.name());
    }

    public static List<DataType> types(TableDefinition def) {
        return def.schema().columns().stream().map(Column::type).toList();
    }

    /** One row of the engine's values, of columns {@code types}. */
    public static void appendRow(DuckDBAppender a, List<DataType> types, Object[] row) throws SQLException {
        a.beginRow();
        for (int i = 0; i < row.length; i++) {
            appendValue(a, types.get(i), row[i]);
        }
        a.endRow();
    }

    private static void appendValue(DuckDBAppender a, DataType type, Object v) throws SQLException {
        if (v == null) {
            a.appendNull();
            return;
        }
        switch (type.kind()) {
            case INT -> a.append((int) (Integer) v);
            case BIGINT -> a.append((long) (Long) v);
            case DECIMAL -> a.append(BigDecimal.valueOf((Long) v, type.scale()));
            case DATE -> a.append(LocalDate.ofEpochDay((Integer) v));
            case CHAR, VARCHAR -> a.append((String) v);
            default -> throw new IllegalArgumentException("no generated column is " + type);
        }
    }

    /** The rows of {@code rs}, each value as its driver gives it (BigDecimal, java.sql.Date, ...). */
    public static List<Object[]> rowsOf(ResultSet rs) throws SQLException {
        List<Object[]> out = new ArrayList<>();
        int n = rs.getMetaData().getColumnCount();
        while (rs.next()) {
            Object[] row = new Object[n];
            for (int i = 0; i < n; i++) {
                row[i] = rs.getObject(i + 1);
            }
            out.add(row);
        }
        return out;
    }
}
