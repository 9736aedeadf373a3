package org.oooengine.hive.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.trino.tpch.TpchTable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.oooengine.core.cluster.ClusterSpec;
import org.oooengine.core.cluster.TestCluster;
import org.oooengine.core.exec.JoinSpec;
import org.oooengine.core.tpch.JoinQueries;
import org.oooengine.hive.sql.Cancellation;
import org.oooengine.core.sql.SqlException;
import org.oooengine.hive.sql.SqlSession;
import org.oooengine.optimizer.rel.RelNode;

/**
 * {@code SET ooo.execution.mode=mapreduce} on a three-node cluster, jobs on Hadoop's local job
 * runner: TPC-H Q1, Q3 and Q6 and the OL and Q3' join templates return DuckDB's rows with their
 * scans and joins as MapReduce jobs, EXPLAIN names those jobs, a cancelled statement kills its
 * job, a failed job names itself and its cause, and no job directory is left behind.
 */
class MapReduceModeTest {
    /** Every local job costs seconds whatever the data: SF 0.01 unless -Dooo.test.sf says otherwise. */
    static final double SCALE_FACTOR = Double.parseDouble(System.getProperty("ooo.test.sf", "0.01"));
    private static Path hadoopTmp;

    @RegisterExtension
    static final SqlCluster cluster = SqlCluster.of("ooo-mr-sql-test", 3, TpchTable.getTables())
            .scaleFactor(SCALE_FACTOR)
            .engine(tpch -> {
                hadoopTmp = tpch.dir.resolve("hadoop");
                // where jobs keep their files is the operator's choice, not a session's
                return ClusterSqlEngine.open(tpch.cluster.dir, TestCluster.TIMEOUT,
                        Map.of("hadoop.tmp.dir", hadoopTmp.toString()));
            });

    @AfterEach
    void noJobDirectoryIsLeftBehind() throws Exception {
        Path jobs = hadoopTmp.resolve("ooo-sql");
        if (Files.exists(jobs)) {
            try (Stream<Path> left = Files.list(jobs)) {
                assertEquals(List.of(), left.toList(), "job directories left behind");
            }
        }
    }

    /** A MapReduce-mode session whose jobs keep their files under the test's directory. */
    private static SqlSession mapReduceSession(Map<String, String> more) {
        return mapReduceSession(cluster.engine(), more);
    }

    private static SqlSession mapReduceSession(ClusterSqlEngine engine, Map<String, String> more) {
        SqlSession s = engine.openSession("test", "default", Map.of());
        run(s, "SET ooo.execution.mode=mapreduce");
        more.forEach((k, v) -> run(s, "SET " + k + "=" + v));
        return s;
    }

    /** The statement's rows; none for one that returns none (SET). */
    private static List<Object[]> run(SqlSession s, String sql) {
        return SqlCluster.rows(s, sql);
    }

    private static String explain(SqlSession s, String sql) {
        return String.join("\n", run(s, "EXPLAIN " + sql).stream().map(r -> (String) r[0]).toList());
    }

    private static long count(String text, String part) {
        return text.lines().filter(l -> l.contains(part)).count();
    }

    @ParameterizedTest
    @CsvSource({"q01, 1", "q03, 3", "q06, 1"})
    void tpchQueryRunsAsScanJobsAndMatchesDuckDb(String q, int scans) throws Exception {
        String sql = TpchQueriesTest.text("queries/tpch/" + q + ".sql");
        try (SqlSession s = mapReduceSession(Map.of())) {
            String plan = explain(s, sql);
            assertEquals(scans, count(plan, "[MapReduce scan job]"), plan);
            List<Object[]> ours = run(s, sql);
            boolean ordered = sql.toLowerCase(Locale.ROOT).contains("order by");
            assertNull(OracleComparison.difference(ours, cluster.oracle().rows(sql), ordered), q);
        }
    }

    static Stream<Arguments> joinTemplates() {
        return Stream.of(
                // a selective range, no calibration: the out-of-order join as one map-only job
                Arguments.of("ol", "100000", "102000", "auto", List.of("OoO join map-only job")),
                Arguments.of("q3prime", "1000", "1100", "auto", List.of("OoO join map-only job")),
                // a range over more than 5% of orders: sort-merge
                Arguments.of("ol", "100000", "200000", "auto", List.of("PSMJ stage 1/1")),
                Arguments.of("q3prime", "1000", "1100", "psmj", List.of("PSMJ stage 1/2", "PSMJ stage 2/2")));
    }

    /** OL and Q3' from docs/queries/joins: the chain is one node in the plan, run as the jobs EXPLAIN names. */
    @ParameterizedTest(name = "{0} {1}..{2} {3}")
    @MethodSource("joinTemplates")
    void joinTemplateRunsAsTheJobsExplainNamesAndMatchesDuckDb(String query, String lo, String hi, String method,
                                                               List<String> jobs) throws Exception {
        String sql = TpchQueriesTest.text("queries/joins/" + query + ".sql").replace("${lo}", lo).replace("${hi}", hi);
        try (SqlSession s = mapReduceSession(Map.of("ooo.join.method", method))) {
            String plan = explain(s, sql);
            assertTrue(plan.contains("[MapReduce: " + String.join(", ", jobs) + "]"), plan);
            assertEquals(0, count(plan, "Scan "), "no table is read apart from the join's jobs: " + plan);
            List<Object[]> expected = cluster.oracle().rows(sql);
            assertTrue(expected.size() > 0, "the range selects rows");
            assertNull(OracleComparison.difference(run(s, sql), expected, false), query + " " + method);
        }
    }

    /** A range without rows: the join job gets no split, writes nothing, and the statement returns no rows. */
    @Test
    void anEmptyRangeReturnsNoRows() throws Exception {
        String sql = TpchQueriesTest.text("queries/joins/ol.sql").replace("${lo}", "1").replace("${hi}", "2");
        try (SqlSession s = mapReduceSession(Map.of())) {
            assertTrue(explain(s, sql).contains("[MapReduce: OoO join map-only job]"));
            assertEquals(List.of(), run(s, sql));
        }
    }

    /** A plan with index joins first and PSMJ after (the optimizer's hybrid) runs as both kinds of job. */
    @Test
    void hybridPlanRunsTheIndexJoinJobThenPsmj() throws Exception {
        JoinSpec spec = cluster.tpch().session.query(JoinQueries.Q3, 0.02).spec();
        RelNode.IndexJoin hybrid = new RelNode.IndexJoin(spec, List.of(), "test", 1);
        assertEquals(List.of("OoO join map-only job for the first 1 join(s)", "PSMJ stage 1/1"),
                MapReduceJoinRunner.jobNames(hybrid));
        TestCluster nodes = cluster.tpch().cluster;
        MapReduceJobs jobs = MapReduceJobs.forSession(nodes.spec, ClusterSpec.readSecret(nodes.dir),
                HadoopSettings.fromCoordinator(Map.of("hadoop.tmp.dir", hadoopTmp.toString())), Map.of());
        List<Object[]> rows = Collections.synchronizedList(new ArrayList<>());
        new MapReduceJoinRunner(jobs).run(hybrid, new Cancellation(), rows::add);
        assertEquals(cluster.tpch().expected(spec), cluster.tpch().render(spec, rows));
    }

    @Test
    void settingsTheModeCannotRunAreRefused() {
        try (SqlSession s = cluster.session()) {
            SqlException bogus = assertThrows(SqlException.class, () -> run(s, "SET ooo.execution.mode=bogus"));
            assertEquals(SqlException.SYNTAX, bogus.sqlState());
            assertTrue(bogus.getMessage().contains("ooo.execution.mode is 'bogus'; expected daemon or mapreduce"),
                    bogus.getMessage());
            SqlException psmj = assertThrows(SqlException.class, () -> run(s, "SET ooo.join.method=psmj"));
            assertTrue(psmj.getMessage().contains("SET ooo.execution.mode=mapreduce"), psmj.getMessage());
            run(s, "SET ooo.execution.mode=mapreduce");
            SqlException hash = assertThrows(SqlException.class, () -> run(s, "SET ooo.join.method=hash"));
            assertTrue(hash.getMessage().contains("use auto, index or psmj"), hash.getMessage());
            assertEquals("ooo.execution.mode=mapreduce", run(s, "SET ooo.execution.mode").get(0)[0]);
        }
    }

    /**
     * The coordinator's Hadoop settings reach the job: an unknown framework fails it, and the
     * error says which job and why.
     */
    @Test
    void aFailedJobNamesTheJobAndTheCause() {
        try (ClusterSqlEngine misconfigured = ClusterSqlEngine.open(cluster.tpch().cluster.dir, TestCluster.TIMEOUT,
                Map.of("hadoop.tmp.dir", hadoopTmp.toString(), "mapreduce.framework.name", "nosuchframework"));
             SqlSession s = mapReduceSession(misconfigured, Map.of())) {
            SqlException e = assertThrows(SqlException.class, () -> run(s, "SELECT count(*) FROM nation"));
            assertEquals(SqlException.GENERAL, e.sqlState());
            assertTrue(e.getMessage().contains("job 'scan nation'"), e.getMessage());
            assertTrue(e.getMessage().contains("mapreduce.framework.name"), e.getMessage());
        }
    }

    /**
     * A session may tune its jobs but not choose what they run or where they read and write, nor
     * starve the coordinator: SET of a task JVM's options, of the default file system, of the job
     * directory or of a huge sort buffer is refused, naming the key and where the operator sets
     * it; a job-tuning key works.
     */
    @Test
    void aSessionCannotSetTheJobsCommandLineOrFileSystems() throws Exception {
        try (SqlSession s = mapReduceSession(Map.of())) {
            for (String set : List.of("SET mapreduce.map.java.opts=-Djava.security.manager=allow -agentpath:/tmp/evil.so",
                    "SET yarn.app.mapreduce.am.env=LD_PRELOAD=/tmp/evil.so", "SET fs.defaultFS=file:///",
                    "SET fs.file.impl=org.apache.hadoop.fs.RawLocalFileSystem", "SET hadoop.tmp.dir=/etc",
                    "SET mapred.child.java.opts=-Xmx1m", "SET mapreduce.task.io.sort.mb=2000",
                    "SET mapreduce.input.fileinputformat.split.maxsize=1")) {
                String key = set.substring(4, set.indexOf('='));
                SqlException refused = assertThrows(SqlException.class, () -> run(s, set), set);
                assertEquals(SqlException.SYNTAX, refused.sqlState(), refused.getMessage());
                assertTrue(refused.getMessage().startsWith("SET " + key + " is refused"), refused.getMessage());
                assertTrue(refused.getMessage().contains("coordinator.properties or with ooo server --conf " + key + "="),
                        refused.getMessage());
                assertEquals(key + "=<undefined>", run(s, "SET " + key).get(0)[0], "nothing was kept");
            }
            SqlException expanded = assertThrows(SqlException.class, () -> run(s, "SET mapreduce.job.reduces=${env.HOME}"));
            assertTrue(expanded.getMessage().contains("expected a whole number"), expanded.getMessage());

            run(s, "SET mapreduce.job.ubertask.enable=true");
            assertEquals("mapreduce.job.ubertask.enable=true", run(s, "SET mapreduce.job.ubertask.enable").get(0)[0]);
            String sql = TpchQueriesTest.text("queries/tpch/q06.sql");
            assertNull(OracleComparison.difference(run(s, sql), cluster.oracle().rows(sql), false), "q06 after the SET");
        }
        SqlException atOpen = assertThrows(SqlException.class, () -> cluster.engine().openSession("test", "default",
                Map.of("mapreduce.reduce.java.opts", "-agentpath:/tmp/evil.so")));
        assertTrue(atOpen.getMessage().startsWith("SET mapreduce.reduce.java.opts is refused"), atOpen.getMessage());
    }

    private static void awaitNoJobDirectory() throws Exception {
        Path jobs = hadoopTmp.resolve("ooo-sql");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            try (Stream<Path> dirs = Files.list(jobs)) {
                if (dirs.findAny().isEmpty()) {
                    return;
                }
            }
            Thread.sleep(100);
        }
        throw new AssertionError("the cancelled job's directory is still there after 60 s");
    }

    private static void awaitJobDirectory() throws Exception {
        Path jobs = hadoopTmp.resolve("ooo-sql");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            if (Files.exists(jobs)) {
                try (Stream<Path> dirs = Files.list(jobs)) {
                    if (dirs.findAny().isPresent()) {
                        return;
                    }
                }
            }
            Thread.sleep(10);
        }
        throw new AssertionError("no job started after 60 s");
    }

    /** Cancelling a statement kills its running job: the statement ends within the kill's grace, not the job's time. */
    @Test
    void cancellingAStatementKillsItsJob() throws Exception {
        String sql = TpchQueriesTest.text("queries/tpch/q03.sql");
        try (SqlSession s = mapReduceSession(Map.of())) {
            Cancellation cancel = new Cancellation();
            CompletableFuture<Throwable> outcome = CompletableFuture.supplyAsync(() -> {
                try {
                    s.execute(sql, cancel).rows().forEachRemaining(r -> { });
                    return null;
                } catch (Throwable t) {
                    return t;
                }
            });
            awaitJobDirectory(); // the first scan job is running
            long t0 = System.nanoTime();
            cancel.cancel();
            // Ending as cancelled, and the job's directory going away, is the behaviour; the 60 s
            // allowed are several times what a quiet machine takes, room for a loaded one. How
            // soon a kill takes effect is a latency for a benchmark.
            Throwable t = outcome.get(60, TimeUnit.SECONDS);
            double seconds = (System.nanoTime() - t0) / 1e9;
            assertTrue(t instanceof SqlException e && e.sqlState().equals(SqlException.CANCELLED),
                    "cancelled: " + t + " (after " + seconds + " s)");
            awaitNoJobDirectory(); // the killed job's tasks may take a moment to stop writing
        }
    }
}
