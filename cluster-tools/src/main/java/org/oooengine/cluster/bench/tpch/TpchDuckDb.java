package org.oooengine.cluster.bench.tpch;

import io.trino.tpch.TpchTable;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;
import org.oooengine.cluster.bench.duckdb.DuckDbTables;
import org.oooengine.core.tpch.TpchLoader;
import org.oooengine.core.tpch.TpchSchema;

/**
 * DuckDB in memory holding the TPC-H rows the engine was loaded with: the same generator at the
 * same scale factor, in the same column types. What a benchmark compares the engine's answers with.
 */
public final class TpchDuckDb implements AutoCloseable {
    private final Connection conn;

    private TpchDuckDb(Connection conn) {
        this.conn = conn;
    }

    /** DuckDB in memory with every TPC-H table at {@code scaleFactor}, generated now. */
    public static TpchDuckDb inMemory(double scaleFactor, TpchLoader.Progress progress) throws SQLException {
        TpchDuckDb db = new TpchDuckDb(DriverManager.getConnection("jdbc:duckdb:"));
        try {
            TpchLoader generator = new TpchLoader(scaleFactor, 4096, 1.0); // its rows only: no pages
            for (TpchTable<?> t : TpchSchema.tables()) {
                DuckDbTables.load(db.conn, TpchSchema.definition(t), generator.rows(t),
                        generator.expectedRows(t.getTableName()), progress);
            }
            return db;
        } catch (SQLException | RuntimeException e) {
            db.close();
            throw e;
        }
    }

    /** The rows of {@code sql}, each value as the driver gives it, in DuckDB's order. */
    public List<Object[]> rows(String sql) throws SQLException {
        try (Statement st = conn.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            return DuckDbTables.rowsOf(rs);
        }
    }

    /**
     * The rows of {@code sql}, each as one string of its columns' text (as the driver renders it)
     * joined by '|': rows of the engine's values rendered by their types compare with these.
     */
    public List<Object[]> lines(String sql) throws SQLException {
        List<Object[]> lines = new ArrayList<>();
        try (Statement st = conn.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                StringJoiner line = new StringJoiner("|");
                for (int i = 1; i <= n; i++) {
                    line.add(rs.getString(i));
                }
                lines.add(new Object[] {line.toString()});
            }
        }
        return lines;
    }

    @Override
    public void close() throws SQLException {
        conn.close();
    }
}
