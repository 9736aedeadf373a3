package org.oooengine.cluster.bench.tpcds;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.oooengine.cluster.bench.ExternalTables;
import org.oooengine.core.cluster.ClusterSession;
import org.oooengine.core.cluster.TestCluster;
import org.oooengine.core.settings.CoordinatorSettings;
import org.oooengine.core.storage.Directories;
import org.oooengine.core.tpcds.TpcdsGenerator;
import org.oooengine.core.tpcds.TpcdsSchema;
import org.oooengine.hive.engine.ClusterSqlEngine;
import org.oooengine.hive.sql.Cancellation;
import org.oooengine.hive.sql.SqlSession;

/**
 * TPC-DS over a warehouse another tool wrote: DuckDB writes the SF 0.01 tables as Parquet files,
 * date_dim in Hive's partition directories by d_year; they are registered as external tables and
 * two nodes answer every query of tpcds-pass-list.txt over them, each answer DuckDB's over its own
 * tables, with the years a query does not ask for pruned.
 */
class TpcdsFilesQueriesTest {
    private static final String DATABASE = "tpcds_files";
    private static Path dir;
    private static TestCluster cluster;
    private static ClusterSession session;
    private static ClusterSqlEngine engine;
    private static TpcdsDuckDb duckdb;
    private static TpcdsBench bench;

    @BeforeAll
    static void start() throws Exception {
        dir = Files.createTempDirectory("ooo-tpcds-files");
        Path files = dir.resolve("warehouse");
        duckdb = TpcdsDuckDb.inMemory(new TpcdsGenerator(TpcdsQueriesTest.SCALE_FACTOR), (table, done, expected) -> { });
        duckdb.writeParquet(files, Map.of("date_dim", "d_year"));
        cluster = new TestCluster(dir.resolve("cluster"), 2);
        session = cluster.session();
        engine = new ClusterSqlEngine(session, cluster.dir, dir.resolve("catalog.json"),
                Map.of(CoordinatorSettings.LOAD_ALLOWED_DIRS.name(), files.toString()));
        try (SqlSession sql = engine.openSession("test", "default", Map.of())) {
            ExternalTables.register(sql, DATABASE, TpcdsSchema.tables().stream().map(TpcdsSchema::definition).toList(),
                    files, "PARQUET", Map.of("date_dim", "d_year"));
        }
        bench = new TpcdsBench(() -> engine.openSession("test", DATABASE, Map.of()), duckdb, 0, Duration.ofSeconds(120));
    }

    @AfterAll
    static void stop() throws Exception {
        try (AutoCloseable b = bench; AutoCloseable e = engine; AutoCloseable d = duckdb; AutoCloseable c = cluster;
             AutoCloseable s = session) {
            // closed in reverse order
        } finally {
            Directories.deleteRecursively(dir);
        }
    }

    static Stream<String> passing() throws Exception {
        return TpcdsQueriesTest.passList().stream().sorted();
    }

    @ParameterizedTest
    @MethodSource("passing")
    void answersAsDuckDbOverTheFiles(String query) {
        TpcdsQueryResult r = bench.run(Integer.parseInt(query.substring(1)));
        assertEquals(TpcdsQueryResult.Status.OK, r.status(), TpcdsReport.progress(r));
    }

    @Test
    void theYearsAQueryDoesNotAskForArePruned() throws Exception {
        try (SqlSession sql = engine.openSession("test", DATABASE, Map.of())) {
            List<String> plan = new ArrayList<>();
            sql.execute("EXPLAIN SELECT count(*) FROM store_sales JOIN date_dim ON ss_sold_date_sk = d_date_sk "
                    + "WHERE d_year = 2000", new Cancellation()).rows().forEachRemaining(r -> plan.add((String) r[0]));
            String text = plan.stream().collect(Collectors.joining("\n"));
            assertTrue(text.matches("(?s).*Scan tpcds_files\\.date_dim .*\\[files: 1 of [0-9]+ partitions, .*"), text);
        }
    }
}
