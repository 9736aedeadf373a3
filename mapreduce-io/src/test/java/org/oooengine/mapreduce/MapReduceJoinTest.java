package org.oooengine.mapreduce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.trino.tpch.TpchTable;
import java.io.IOException;
import java.nio.file.Files;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.SequenceFileOutputFormat;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.oooengine.core.cluster.ClusterSession;
import org.oooengine.core.cluster.ClusterSpec;
import org.oooengine.core.cluster.ExecutionMode;
import org.oooengine.core.cluster.TestCluster;
import org.oooengine.core.cluster.TpchCluster;
import org.oooengine.core.exec.CollectingSink;
import org.oooengine.core.exec.ColumnRange;
import org.oooengine.core.exec.JoinSpec;
import org.oooengine.core.net.ClusterSecret;
import org.oooengine.core.tpch.JoinQueries;
import org.oooengine.mapreduce.examples.RevenuePerNation;
import org.oooengine.optimizer.JoinOptimizer;
import org.oooengine.optimizer.cost.Calibration;
import org.oooengine.optimizer.cost.CostModel;
import org.oooengine.optimizer.cost.TableFacts;
import org.oooengine.optimizer.plan.JoinGraph;
import org.oooengine.optimizer.plan.JoinMethod;
import org.oooengine.optimizer.plan.Plan;

/**
 * MapReduce over a three-node cluster in this JVM, under Hadoop's local job runner: joins read
 * through {@link OooJoinInputFormat} and joins run as PSMJ jobs (up to Q8' as a chain of seven) return
 * exactly DuckDB's rows, also with a table joined twice, and a scan job reads every row of every partition.
 */
class MapReduceJoinTest {
    private static TpchCluster tpch;
    private static TestCluster cluster;
    private static ClusterSession session;

    @BeforeAll
    static void start() throws Exception {
        tpch = new TpchCluster("ooo-mr-test", 3, 0.01, List.of(TpchTable.ORDERS, TpchTable.LINE_ITEM, TpchTable.PART,
                TpchTable.CUSTOMER, TpchTable.NATION, TpchTable.REGION, TpchTable.SUPPLIER));
        cluster = tpch.cluster;
        session = tpch.session;
    }

    @AfterAll
    static void stop() throws Exception {
        if (tpch != null) {
            tpch.close();
        }
    }

    /** The local job runner, three map and reduce tasks at a time. */
    static Job newJob(String name) throws Exception {
        Configuration conf = JoinJobs.localRunner(new Configuration(), 3);
        conf.set("fs.defaultFS", "file:///");
        Job job = Job.getInstance(conf, name);
        ClusterJobConf.setCluster(job, cluster.dir);
        return job;
    }

    private static Path output(String name) {
        return new Path(tpch.dir.resolve("out-" + name + "-" + System.nanoTime()).toUri());
    }

    @ParameterizedTest(name = "{0} at {1}, {2}")
    @CsvSource({"OL, 0.05, OOO", "PL, 0.05, OOO", "PL, 0.002, INORDER", "OL, 0.002, OOO_LOCAL", "Q3, 0.05, OOO",
        "ONLC, 0.02, OOO", "Q8, 0.02, OOO"})
    void joinInputFormatReturnsTheOracleRows(String query, double selectivity, ExecutionMode mode) throws Exception {
        JoinSpec spec = session.query(JoinQueries.shape(query), selectivity).spec();
        Configuration conf = newJob("ooo-mr " + query).getConfiguration();
        Path out = output("ooo");
        JoinJobs.Run run = JoinJobs.oooJoin(conf, cluster.spec, secret(), spec, mode, 16, out);
        List<Object[]> rows = JobOutput.rows(conf, out);
        assertEquals(rows.size(), run.rows());
        assertRowsEqualOracle(spec, rows);
    }

    @ParameterizedTest(name = "{0} at {1} with {2} reducers")
    @CsvSource({"OL, 0.05, 2", "PL, 0.05, 3", "PL, 0.002, 1", "Q3, 0.05, 2", "ONLC, 0.02, 3", "Q8, 0.02, 2"})
    void psmjReturnsTheOracleRows(String query, double selectivity, int reducers) throws Exception {
        JoinSpec spec = session.query(JoinQueries.shape(query), selectivity).spec();
        Job job = newJob("psmj " + query);
        Path out = output("psmj");
        JoinJobs.Run run = JoinJobs.psmj(job.getConfiguration(), cluster.spec, secret(), spec, reducers, out);
        List<Object[]> rows = JobOutput.rows(job.getConfiguration(), out);
        assertEquals(rows.size(), run.rows());
        assertRowsEqualOracle(spec, rows);
        assertEquals(List.of(out.getName()), listNames(out.getParent(), out.getName()),
                "intermediate stage outputs are deleted");
    }

    /**
     * Every plan the optimizer keeps for a query — the best per property: index joins only, index
     * joins then PSMJ jobs, PSMJ only; out of order and in order — runs and returns DuckDB's rows.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"OL", "PL", "Q3", "Q8"})
    void everyPlanTheOptimizerKeepsReturnsTheOracleRows(String query) throws Exception {
        JoinSpec spec = session.query(JoinQueries.shape(query), 0.02).spec();
        Calibration calibration = new Calibration("2026-01-01T00:00:00Z", 3, 8192, 64,
                new Calibration.Disk(1000, Map.of(1, 15_000.0, 256, 60_000.0), 3),
                new Calibration.Network(80, Map.of(1, 9_000.0, 1024, 500_000.0)),
                new Calibration.IndexJoin(0.03, Map.of(1, 9_000.0, 128, 40_000.0), Map.of(1, 60.0, 128, 2.0), 3, 10, 0.9),
                new Calibration.MapReduce(0.25, 0.4, 150, 1.5, 0.4));
        JoinOptimizer optimizer = new JoinOptimizer(new CostModel(calibration), TableFacts.of(session), 16);
        List<Plan> plans = optimizer.candidates(JoinGraph.of(query, spec), EnumSet.allOf(JoinMethod.class));
        assertTrue(plans.stream().anyMatch(p -> p.indexJoins() > 0 && !p.allIndexJoins()) || spec.isTwoTables(),
                "a hybrid plan is among them");
        for (Plan plan : plans) {
            List<Object[]> rows;
            if (plan.allIndexJoins()) {
                CollectingSink sink = new CollectingSink();
                session.join(plan.spec(), plan.budget() == 1 ? ExecutionMode.INORDER : ExecutionMode.OOO, plan.budget(), sink);
                rows = sink.rows();
            } else {
                Job job = newJob("plan " + plan.chosen());
                Path out = output("plan");
                JoinJobs.Run run = plan.indexJoins() == 0
                        ? JoinJobs.psmj(job.getConfiguration(), cluster.spec, secret(), plan.spec(), 2, out)
                        : JoinJobs.hybrid(job.getConfiguration(), cluster.spec, secret(), plan.spec(), plan.indexJoins(),
                                plan.budget(), 2, out);
                rows = JobOutput.rows(job.getConfiguration(), out);
                assertEquals(rows.size(), run.rows());
                assertEquals(List.of(out.getName()), listNames(out.getParent(), out.getName()),
                        "the index joins' output and the intermediate stages are deleted");
            }
            assertRowsEqualOracle(spec, rows);
        }
    }

    @Test
    void theOldMapredApiReadsTheSameJoin() throws Exception {
        JoinSpec spec = session.query(JoinQueries.PL, 0.05).spec();
        org.apache.hadoop.mapred.JobConf job = new org.apache.hadoop.mapred.JobConf(
                JoinJobs.localRunner(new Configuration(), 3));
        job.setJobName("old api ooo join");
        ClusterJobConf.setCluster(job, cluster.dir);
        org.oooengine.mapreduce.mapred.OooJoinInputFormat.setJoin(job, spec, ExecutionMode.OOO, 16);
        job.setInputFormat(org.oooengine.mapreduce.mapred.OooJoinInputFormat.class);
        job.setMapperClass(org.apache.hadoop.mapred.lib.IdentityMapper.class);
        job.setNumReduceTasks(0);
        job.setOutputKeyClass(NullWritable.class);
        job.setOutputValueClass(RowWritable.class);
        job.setOutputFormat(org.apache.hadoop.mapred.SequenceFileOutputFormat.class);
        Path out = output("old-api");
        org.apache.hadoop.mapred.FileOutputFormat.setOutputPath(job, out);
        assertTrue(org.apache.hadoop.mapred.JobClient.runJob(job).isSuccessful());
        assertRowsEqualOracle(spec, JobOutput.rows(job, out));
    }

    /**
     * Customers of the same nation: a table joined with itself under two aliases. PSMJ's one stage
     * reads customer once and its mappers emit every row to both sides.
     */
    @Test
    void aTableJoinedWithItselfUnderTwoAliases() throws Exception {
        ColumnRange range = session.query(JoinQueries.Q3, 0.01).spec().outerRange();
        JoinSpec spec = new JoinSpec("customer", "c1", range,
                List.of(new JoinSpec.Probe("c1.c_nationkey", "customer", "c_nationkey", "c2")),
                List.of("c1.c_custkey", "c1.c_acctbal", "c2.c_custkey", "c2.c_name"));
        Job job = newJob("psmj self-join");
        Path psmj = output("psmj-self");
        JoinJobs.psmj(job.getConfiguration(), cluster.spec, secret(), spec, 2, psmj);
        assertRowsEqualOracle(spec, JobOutput.rows(job.getConfiguration(), psmj));

        Configuration conf = newJob("ooo-mr self-join").getConfiguration();
        Path ooo = output("ooo-self");
        JoinJobs.oooJoin(conf, cluster.spec, secret(), spec, ExecutionMode.OOO, 16, ooo);
        assertRowsEqualOracle(spec, JobOutput.rows(conf, ooo));
    }

    @Test
    void onePsmjJobRefusesAChain() throws Exception {
        JoinSpec spec = session.query(JoinQueries.Q3, 0.05).spec();
        Job job = newJob("psmj Q3");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> PsmjJob.configure(job, spec, 1, output("psmj")));
        assertTrue(e.getMessage().contains("[customer, orders, lineitem]"), e.getMessage());
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = FileFormat.class, names = {"TEXT", "ORC"}) // tables are exported as these
    void exportedFilesFeedPsmjLikeTheNodes(FileFormat format) throws Exception {
        Job export = newJob("export");
        Path exported = output("export");
        TableExport.configure(export, List.of("orders", "lineitem", "part"), format, exported);
        assertSucceeds(export);
        assertEquals(60_175, export.getCounters().findCounter(TableExport.COUNTERS, "lineitem").getValue());
        assertEquals(15_000, export.getCounters().findCounter(TableExport.COUNTERS, "orders").getValue());
        java.nio.file.Path lineitemDir = java.nio.file.Path.of(exported.toUri()).resolve("lineitem");
        String suffix = format == FileFormat.ORC ? ".orc" : "";
        try (var files = Files.list(lineitemDir)) {
            assertEquals(3, files.map(f -> f.getFileName().toString())
                    .filter(f -> f.startsWith("part-m-") && f.endsWith(suffix)).count(), "a file per partition");
        }

        for (String query : List.of("OL", "PL")) {
            JoinSpec spec = session.query(JoinQueries.shape(query), 0.05).spec();
            Job job = newJob("psmj from files " + query);
            // OL reads both tables from files; PL reads part from files and lineitem from the nodes.
            TableFileSplit.setFiles(job, spec.outerTable(), new Path(exported, spec.outerTable()), format);
            if (query.equals("OL")) {
                TableFileSplit.setFiles(job, "lineitem", new Path(exported, "lineitem"), format);
            }
            Path out = output("psmj-files");
            PsmjJob.configure(job, spec, 2, out);
            assertTrue(job.waitForCompletion(false), "job failed");
            assertRowsEqualOracle(spec, JobOutput.rows(job.getConfiguration(), out));
        }
    }

    @ParameterizedTest(name = "{0} input")
    @EnumSource(RevenuePerNation.Input.class)
    void revenuePerNationExampleMatchesTheOracle(RevenuePerNation.Input input) throws Exception {
        ColumnRange range = session.query(JoinQueries.OL, 0.05).spec().outerRange();
        String low = tpch.format("orders", "o_totalprice", range.low());
        String high = tpch.format("orders", "o_totalprice", range.high());
        Configuration conf = JoinJobs.localRunner(new Configuration(), 3);
        Path out = output("revenue-" + input);
        int exit = ToolRunner.run(conf, new RevenuePerNation(), new String[] {"--cluster", cluster.dir.toString(),
                "--low", low, "--high", high, "--out", out.toString(),
                "--input", input.name().toLowerCase(java.util.Locale.ROOT), "--reducers", "2"});
        assertEquals(0, exit);
        List<String> expected = tpch.oracle.query("SELECT n_name, sum(l_extendedprice * (1 - l_discount)) FROM orders"
                + " JOIN lineitem ON o_orderkey = l_orderkey JOIN customer ON o_custkey = c_custkey"
                + " JOIN nation ON c_nationkey = n_nationkey WHERE o_totalprice BETWEEN " + low + " AND " + high
                + " GROUP BY n_name");
        List<String> actual = new java.util.ArrayList<>(RevenuePerNation.lines(conf, out).stream()
                .map(l -> l.replace('\t', '|')).toList());
        actual.sort(null);
        assertTrue(expected.size() > 10, "too few nations to mean much: " + expected);
        assertEquals(expected, actual);
    }

    @Test
    void revenuePerNationRefusesBadArguments() throws Exception {
        int exit = ToolRunner.run(new Configuration(), new RevenuePerNation(), new String[] {"--cluster",
                cluster.dir.toString(), "--low", "5", "--high", "1", "--out", output("never").toString()});
        assertEquals(2, exit);
        int noReducers = ToolRunner.run(new Configuration(), new RevenuePerNation(), new String[] {"--cluster",
                cluster.dir.toString(), "--low", "1", "--high", "5", "--reducers", "0", "--out", output("never").toString()});
        assertEquals(2, noReducers, "a map-only job would write per-row revenue as if it were totals");
    }

    /**
     * A task that fails under the local job runner — which only logs why — still gives the
     * client the job's name and the cause: here the node refuses to probe a column without an index.
     */
    @Test
    void aFailedTaskNamesItsJobAndTheCause() throws Exception {
        JoinSpec ol = session.query(JoinQueries.OL, 0.05).spec();
        JoinSpec unindexed = new JoinSpec(ol.outerTable(), ol.outerRange(),
                List.of(new JoinSpec.Probe("orders.o_orderkey", "lineitem", "l_comment")), List.of("orders.o_orderkey"));
        Configuration conf = newJob("failing join").getConfiguration();
        IOException e = assertThrows(IOException.class,
                () -> JoinJobs.oooJoin(conf, cluster.spec, secret(), unindexed, ExecutionMode.OOO, 16, output("failing")));
        assertTrue(e.getMessage().startsWith("job 'ooo join orders x lineitem' ("), e.getMessage());
        assertTrue(e.getMessage().contains("failed: attempt_"), e.getMessage());
        assertTrue(e.getMessage().contains("l_comment"), e.getMessage());
    }

    /** The thread waiting for a job is interrupted: the job is killed, and the wait ends at once. */
    @Test
    void interruptingTheWaitKillsTheJob() throws Exception {
        // Q8' as PSMJ is seven jobs in a row, each with its start-up: still running when interrupted
        JoinSpec spec = session.query(JoinQueries.Q8, 0.5).spec();
        Configuration conf = newJob("interrupted").getConfiguration();
        Path out = output("interrupted");
        java.util.concurrent.CompletableFuture<Throwable> failure = new java.util.concurrent.CompletableFuture<>();
        Thread waiting = new Thread(() -> {
            try {
                JoinJobs.psmj(conf, cluster.spec, secret(), spec, 2, out);
                failure.complete(null);
            } catch (Throwable t) {
                failure.complete(t);
            }
        });
        waiting.start();
        Thread.sleep(1000);
        long t0 = System.nanoTime();
        // Hadoop's client swallows an interrupt that lands inside some of its own calls (submission):
        // whoever gives up on the job keeps interrupting until the wait ends
        // The wait ends with its interruption, before the seven jobs could finish: the 60 s allowed
        // are several times the kill's grace period (10 s), room for a loaded machine. How soon
        // the wait ends is a latency for a benchmark.
        while (!failure.isDone() && (System.nanoTime() - t0) / 1e9 < 60) {
            waiting.interrupt();
            Thread.sleep(200);
        }
        Throwable t = failure.get(60, java.util.concurrent.TimeUnit.SECONDS);
        assertTrue(t instanceof InterruptedException, "the wait ends with its interruption after "
                + (System.nanoTime() - t0) / 1e9 + " s: " + t);
        assertFalse(out.getFileSystem(conf).exists(new Path(out, "_SUCCESS")), "the job did not finish");
    }

    /** Runs the job; a failure names what Hadoop reported. */
    static void assertSucceeds(Job job) throws Exception {
        boolean ok = job.waitForCompletion(false);
        assertTrue(ok, () -> "job '" + job.getJobName() + "' failed: " + failureInfo(job));
    }

    private static String failureInfo(Job job) {
        try {
            StringBuilder b = new StringBuilder(String.valueOf(job.getStatus().getFailureInfo()));
            for (var event : job.getTaskCompletionEvents(0, 10)) {
                for (String d : job.getTaskDiagnostics(event.getTaskAttemptId())) {
                    b.append("\n").append(event.getTaskAttemptId()).append(": ").append(d);
                }
            }
            return b.toString();
        } catch (Exception e) {
            return "(no failure information: " + e + ")";
        }
    }

    private static ClusterSecret secret() {
        return ClusterSpec.readSecret(cluster.dir);
    }

    private static List<String> listNames(Path dir, String prefix) throws Exception {
        return java.util.Arrays.stream(dir.getFileSystem(new Configuration()).listStatus(dir))
                .map(f -> f.getPath().getName()).filter(n -> n.startsWith(prefix)).toList();
    }

    @Test
    void scanReadsEveryRowOfEveryPartition() throws Exception {
        Job job = newJob("scan");
        job.setInputFormatClass(StoreScanInputFormat.class);
        StoreScanInputFormat.setTables(job, "orders", "lineitem");
        scanReadsEveryOrderAndLineitem(tpch, job, output("scan"));
    }

    /** Runs {@code job}, a scan of orders and lineitem, map-only into {@code out}: it wrote every row of both once. */
    static void scanReadsEveryOrderAndLineitem(TpchCluster tpch, Job job, Path out) throws Exception {
        job.setMapperClass(Mapper.class);
        job.setNumReduceTasks(0);
        job.setOutputKeyClass(NullWritable.class);
        job.setOutputValueClass(RowWritable.class);
        job.setOutputFormatClass(SequenceFileOutputFormat.class);
        FileOutputFormat.setOutputPath(job, out);
        assertTrue(job.waitForCompletion(false), "job failed");
        long[] byWidth = new long[32];
        JobOutput.forEachRow(job.getConfiguration(), out, row -> byWidth[row.length]++);
        assertEquals(15_000, byWidth[tpch.single.table("orders").schema().size()]);
        assertEquals(60_175, byWidth[tpch.single.table("lineitem").schema().size()]);
    }

    private static void assertRowsEqualOracle(JoinSpec spec, List<Object[]> rows) throws Exception {
        List<String> expected = tpch.expected(spec);
        assertFalse(expected.isEmpty());
        assertEquals(expected, tpch.render(spec, rows));
    }
}
