package org.oooengine.core.tpch;

import io.trino.tpch.TpchEntity;
import io.trino.tpch.TpchTable;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;
import org.oooengine.core.store.TableDefinition;
import org.oooengine.core.types.Column;

/**
 * DuckDB holding the same generated TPC-H rows as a store: the reference answers for every
 * execution strategy. Rows come from {@link GeneratedTpch}'s '|'-separated files, made once per JVM.
 */
public final class DuckDbOracle implements AutoCloseable {
    private final Connection conn;

    public DuckDbOracle(double scaleFactor, List<TpchTable<?>> tables) throws Exception {
        conn = DriverManager.getConnection("jdbc:duckdb:");
        for (TpchTable<?> t : tables) {
            load(t, scaleFactor);
        }
    }

    private <E extends TpchEntity> void load(TpchTable<E> table, double sf) throws Exception {
        TableDefinition def = TpchSchema.definition(table);
        StringJoiner ddl = new StringJoiner(", ", "CREATE TABLE " + def.name() + " (", ")");
        for (Column c : def.schema().columns()) {
            ddl.add(c.name() + " " + c.type());
        }
        Path csv = GeneratedTpch.text(table, sf);
        try (Statement st = conn.createStatement()) {
            st.execute(ddl.toString());
            st.execute("COPY " + def.name() + " FROM '" + csv + "' (DELIMITER '|', HEADER false, QUOTE '')");
        }
    }

    /** Runs a statement that returns no rows (e.g. a COPY writing the tables into files). */
    public void execute(String sql) throws Exception {
        try (Statement st = conn.createStatement()) {
            st.execute(sql);
        }
    }

    /** Every row of the query, each rendered as its columns' text joined by '|', sorted. */
    public List<String> query(String sql) throws Exception {
        List<String> out = new ArrayList<>();
        try (Statement st = conn.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                StringJoiner j = new StringJoiner("|");
                for (int i = 1; i <= n; i++) {
                    j.add(rs.getString(i));
                }
                out.add(j.toString());
            }
        }
        out.sort(null);
        return out;
    }

    /** Every row of the query in the order DuckDB returns it, as JDBC objects. */
    public List<Object[]> rows(String sql) throws Exception {
        try (Statement st = conn.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            return rows(rs);
        }
    }

    /** The rest of a result set, as JDBC objects (any JDBC driver's). */
    public static List<Object[]> rows(ResultSet rs) throws java.sql.SQLException {
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

    @Override
    public void close() throws Exception {
        conn.close();
    }
}
