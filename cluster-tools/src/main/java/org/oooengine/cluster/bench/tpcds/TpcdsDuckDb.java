package org.oooengine.cluster.bench.tpcds;

import io.trino.tpcds.Table;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;
import org.oooengine.core.store.TableDefinition;
import org.oooengine.core.tpcds.TpcdsGenerator;
import org.oooengine.core.tpcds.TpcdsSchema;
import org.oooengine.core.tpch.TpchLoader;
import org.oooengine.core.types.Column;
import org.oooengine.core.types.DataType;

/**
 * DuckDB holding the TPC-DS rows the engine was loaded with: the same generator at the same scale
 * factor, in the same column types. Kept in a database file between runs (a table
 * {@code ooo_tpcds_source} records the scale factor it holds), or in memory.
 */
public final class TpcdsDuckDb implements AutoCloseable {
    private static final String SOURCE_TABLE = "ooo_tpcds_source";
    private final Connection conn;

    private TpcdsDuckDb(Connection conn) {
        this.conn = conn;
    }

    /** DuckDB in memory, loaded now. */
    public static TpcdsDuckDb inMemory(TpcdsGenerator generator, TpchLoader.Progress progress) throws SQLException {
        TpcdsDuckDb db = new TpcdsDuckDb(DriverManager.getConnection("jdbc:duckdb:"));
        try {
            db.load(generator, progress);
            return db;
        } catch (SQLException | RuntimeException e) {
            db.close();
            throw e;
        }
    }

    /** DuckDB in {@code file}: reused when it holds this scale factor, else made anew. */
    public static TpcdsDuckDb inFile(Path file, TpcdsGenerator generator, TpchLoader.Progress progress) throws Exception {
        if (Files.exists(file)) {
            TpcdsDuckDb db = new TpcdsDuckDb(DriverManager.getConnection("jdbc:duckdb:" + file.toAbsolutePath()));
            if (db.holds(generator.scaleFactor())) {
                return db;
            }
            db.close();
            Files.delete(file);
            Files.deleteIfExists(file.resolveSibling(file.getFileName() + ".wal"));
        }
        Files.createDirectories(file.toAbsolutePath().getParent());
        TpcdsDuckDb db = new TpcdsDuckDb(DriverManager.getConnection("jdbc:duckdb:" + file.toAbsolutePath()));
        try {
            db.load(generator, progress);
            return db;
        } catch (SQLException | RuntimeException e) {
            db.close();
            Files.deleteIfExists(file);
            throw e;
        }
    }

    private boolean holds(double scaleFactor) {
        try (Statement st = conn.createStatement();
             ResultSet rs = st.executeQuery("SELECT scale_factor, complete FROM " + SOURCE_TABLE)) {
            return rs.next() && rs.getDouble(1) == scaleFactor && rs.getBoolean(2);
        } catch (SQLException e) {
            return false;
        }
    }

    /**
     * DuckDB in memory with TPC-DS's tables created and empty, for a loader that generates the rows
     * once and passes each table's through {@link #alsoAppending} on its way to the engine.
     */
    public static TpcdsDuckDb inMemoryEmpty() throws SQLException {
        TpcdsDuckDb db = new TpcdsDuckDb(DriverManager.getConnection("jdbc:duckdb:"));
        try (Statement st = db.conn.createStatement()) {
            for (Table t : TpcdsSchema.tables()) {
                st.execute(createTable(TpcdsSchema.definition(t)));
            }
            return db;
        } catch (SQLException | RuntimeException e) {
            db.close();
            throw e;
        }
    }

    /**
     * {@code rows} as they come, each also appended to table {@code def} here as it passes; the table
     * holds them all once the iterator is exhausted. A failure to append is thrown from the iterator.
     */
    public Iterator<Object[]> alsoAppending(TableDefinition def, Iterator<Object[]> rows) {
        List<DataType> types = def.schema().columns().stream().map(Column::type).toList();
        return new Iterator<>() {
            private DuckDBAppender appender;

            @Override
            public boolean hasNext() {
                boolean more = rows.hasNext();
                if (!more && appender != null) {
                    try {
                        appender.close();
                    } catch (SQLException e) {
                        throw new IllegalStateException("DuckDB could not append to " + def.name(), e);
                    }
                    appender = null;
                }
                return more;
            }

            @Override
            public Object[] next() {
                Object[] row = rows.next();
                try {
                    if (appender == null) {
                        appender = conn.unwrap(DuckDBConnection.class).createAppender(DuckDBConnection.DEFAULT_SCHEMA, def.name());
                    }
                    appendRow(appender, types, row);
                } catch (SQLException e) {
                    throw new IllegalStateException("DuckDB could not append to " + def.name(), e);
                }
                return row;
            }
        };
    }

    private static String createTable(TableDefinition def) {
        StringJoiner ddl = new StringJoiner(", ", "CREATE TABLE " + def.name() + " (", ")");
        for (Column c : def.schema().columns()) {
            ddl.add(c.name() + " " + c.type());
        }
        return ddl.toString();
    }

    private void load(TpcdsGenerator generator, TpchLoader.Progress progress) throws SQLException {
        try (Statement st = conn.createStatement()) {
            st.execute("CREATE TABLE " + SOURCE_TABLE + " (scale_factor DOUBLE, complete BOOLEAN)");
            for (Table t : TpcdsSchema.tables()) {
                TableDefinition def = TpcdsSchema.definition(t);
                st.execute(createTable(def));
                append(def, generator.rows(t), generator.expectedRows(t), progress);
            }
        }
        try (PreparedStatement ps = conn.prepareStatement("INSERT INTO " + SOURCE_TABLE + " VALUES (?, true)")) {
            ps.setDouble(1, generator.scaleFactor());
            ps.execute();
        }
    }

    private void append(TableDefinition def, Iterator<Object[]> rows, long expected, TpchLoader.Progress progress)
            throws SQLException {
        List<DataType> types = def.schema().columns().stream().map(Column::type).toList();
        long done = 0;
        progress.update("duckdb " + def.name(), 0, expected);
        try (DuckDBAppender a = conn.unwrap(DuckDBConnection.class).createAppender(DuckDBConnection.DEFAULT_SCHEMA, def.name())) {
            while (rows.hasNext()) {
                appendRow(a, types, rows.next());
                if (++done % 100_000 == 0) {
                    progress.update("duckdb " + def.name(), done, expected);
                }
            }
        }
        progress.update("duckdb " + def.name(), done, done);
    }

    private static void appendRow(DuckDBAppender a, List<DataType> types, Object[] row) throws SQLException {
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
            default -> throw new IllegalArgumentException("no TPC-DS column is " + type);
        }
    }

    /**
     * Writes every table as Parquet files under {@code dir}/{@code <table>}, as another tool's
     * warehouse would hold them: a table {@code partitionedBy} names in Hive's directories
     * {@code column=value} by that column (which the files then leave out), the others one file each.
     */
    public void writeParquet(Path dir, Map<String, String> partitionedBy) throws SQLException, java.io.IOException {
        try (Statement st = conn.createStatement()) {
            for (String t : TpcdsSchema.tableNames()) {
                Path target = dir.resolve(t);
                String column = partitionedBy.get(t);
                if (column == null) {
                    Files.createDirectories(target);
                }
                st.execute(column == null
                        ? "COPY " + t + " TO '" + target.resolve("data.parquet") + "' (FORMAT PARQUET)"
                        : "COPY " + t + " TO '" + target + "' (FORMAT PARQUET, PARTITION_BY (" + column + "))");
            }
        }
    }

    /** Rows per table, to check that the engine holds the same data. */
    public Map<String, Long> rowCounts() throws SQLException {
        Map<String, Long> out = new LinkedHashMap<>();
        try (Statement st = conn.createStatement()) {
            for (String t : TpcdsSchema.tableNames()) {
                try (ResultSet rs = st.executeQuery("SELECT count(*) FROM " + t)) {
                    rs.next();
                    out.put(t, rs.getLong(1));
                }
            }
        }
        return out;
    }

    /** The rows of a query in Hive SQL, run as {@link TpcdsQueries#forDuckDb} rewrites it, in DuckDB's order. */
    public List<Object[]> rows(String hiveSql) throws SQLException {
        try (Statement st = conn.createStatement(); ResultSet rs = st.executeQuery(TpcdsQueries.forDuckDb(hiveSql))) {
            return rowsOf(rs);
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

    /** DuckDB's worker threads. */
    public int threads() throws SQLException {
        try (Statement st = conn.createStatement(); ResultSet rs = st.executeQuery("SELECT current_setting('threads')")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    @Override
    public void close() throws SQLException {
        conn.close();
    }
}
