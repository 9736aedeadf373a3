package org.oooengine.hive.engine;

import io.trino.tpch.TpchTable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.oooengine.core.cluster.TpchCluster;
import org.oooengine.core.tpch.DuckDbOracle;
import org.oooengine.hive.catalog.EmbeddedCatalog;
import org.oooengine.hive.sql.Cancellation;
import org.oooengine.hive.sql.SqlSession;
import org.oooengine.hive.sql.StatementResult;

/**
 * What the tests of column types share: two nodes holding TPC-H's nation, the SQL engine over them
 * allowed to LOAD DATA from {@link #incoming}, and DuckDB in memory, where a test creates the same
 * small tables to compare answers with.
 */
final class ColumnTypesFixture implements AutoCloseable {
    final TpchCluster tpch;
    final Path incoming;
    private final ClusterSqlEngine engine;
    private final Connection duck;

    ColumnTypesFixture(String name) throws Exception {
        tpch = new TpchCluster(name, 2, 0.01, List.of(TpchTable.NATION));
        incoming = Files.createDirectories(tpch.dir.resolve("incoming"));
        engine = new ClusterSqlEngine(tpch.session, tpch.cluster.dir, tpch.dir.resolve(EmbeddedCatalog.FILE_NAME),
                Map.of(LoadableFiles.ALLOWED_DIRS_SETTING, incoming.toString()));
        duck = DriverManager.getConnection("jdbc:duckdb:");
    }

    /** Runs {@code sql} in a session of its own; a result's rows are read before the session closes. */
    StatementResult execute(String sql) {
        try (SqlSession s = engine.openSession("test", "default", Map.of())) {
            StatementResult r = s.execute(sql, new Cancellation());
            if (!r.hasResultSet()) {
                return r;
            }
            List<Object[]> rows = new ArrayList<>();
            r.rows().forEachRemaining(rows::add);
            return StatementResult.rows(r.columns(), rows.iterator());
        }
    }

    List<Object[]> rows(String sql) {
        List<Object[]> out = new ArrayList<>();
        execute(sql).rows().forEachRemaining(out::add);
        return out;
    }

    /** Each row as {@link Arrays#toString}. */
    List<String> rendered(String sql) {
        return rows(sql).stream().map(Arrays::toString).toList();
    }

    /** The result's column types as the engine names them. */
    List<String> types(String sql) {
        return execute(sql).columns().stream().map(c -> c.type().toString()).toList();
    }

    /** Runs {@code statements} in DuckDB. */
    void duckDb(String... statements) throws SQLException {
        try (Statement st = duck.createStatement()) {
            for (String sql : statements) {
                st.execute(sql);
            }
        }
    }

    /** DuckDB's rows for {@code sql}. */
    List<Object[]> duckDbRows(String sql) throws SQLException {
        try (Statement st = duck.createStatement()) {
            return DuckDbOracle.rows(st.executeQuery(sql));
        }
    }

    @Override
    public void close() throws Exception {
        try (AutoCloseable t = tpch; AutoCloseable d = duck) {
            // DuckDB, then the cluster
        }
    }
}
