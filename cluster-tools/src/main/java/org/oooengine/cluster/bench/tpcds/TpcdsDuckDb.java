package org.oooengine.cluster.bench.tpcds;

import io.trino.tpcds.Table;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.duckdb.DuckDBAppender;
import org.oooengine.cluster.bench.duckdb.DuckDbTables;
import org.oooengine.core.store.TableDefinition;
import org.oooengine.core.tpcds.TpcdsGenerator;
import org.oooengine.core.tpcds.TpcdsSchema;
import org.oooengine.core.tpch.TpchLoader;
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
                st.execute(DuckDbTables.createTable(TpcdsSchema.definition(t)));
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
        List<DataType> types = DuckDbTables.types(def);
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
                        appender = DuckDbTables.appender(conn, def);
                    }
                    DuckDbTables.appendRow(appender, types, row);
                } catch (SQLException e) {
                    throw new IllegalStateException("DuckDB could not append to " + def.name(), e);
                }
                return row;
            }
        };
    }

    private void load(TpcdsGenerator generator, TpchLoader.Progress progress) throws SQLException {
        try (Statement st = conn.createStatement()) {
            st.execute("CREATE TABLE " + SOURCE_TABLE + " (scale_factor DOUBLE, complete BOOLEAN)");
            for (Table t : TpcdsSchema.tables()) {
                DuckDbTables.load(conn, TpcdsSchema.definition(t), generator.rows(t), generator.expectedRows(t), progress);
            }
        }
        try (PreparedStatement ps = conn.prepareStatement("INSERT INTO " + SOURCE_TABLE + " VALUES (?, true)")) {
            ps.setDouble(1, generator.scaleFactor());
            ps.execute();
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
            return DuckDbTables.rowsOf(rs);
        }
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
