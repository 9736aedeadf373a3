package org.oooengine.cluster.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * A two-node cluster of separate JVMs driven through the command line: start, status, load,
 * distributed joins that agree with the single-node store, and a node killed with SIGKILL named
 * in the error of the next query, then started again by its supervisor.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ClusterEndToEndTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path tmp;
    static Path cluster;
    static Path single;

    @BeforeAll
    static void start() throws Exception {
        cluster = tmp.resolve("cluster");
        single = tmp.resolve("single");
        int base = Cli.freePorts(2); // one per node
        Cli r = Cli.run("cluster", "start", "--nodes", "2", "--cluster", cluster.toString(), "--base-port", String.valueOf(base),
                "--node-heap", "512m", "--buffered-io");
        assertEquals(0, r.exitCode(), r::toString);
        assertTrue(r.out().contains("2 nodes up"), r::toString);
        r = Cli.run("load", "tpch", "--sf", "0.01", "--cluster", cluster.toString());
        assertEquals(0, r.exitCode(), r::toString);
        r = Cli.run("load", "tpch", "--sf", "0.01", "--store", single.toString());
        assertEquals(0, r.exitCode(), r::toString);
    }

    @AfterAll
    static void stop() {
        Cli.run("cluster", "stop", "--cluster", cluster.toString());
    }

    @Test
    @Order(1)
    void startingARunningClusterIsRefused() {
        Cli r = Cli.run("cluster", "start", "--nodes", "2", "--cluster", cluster.toString());
        assertEquals(1, r.exitCode(), r::toString);
        assertTrue(r.err().contains("is already running"), r::toString);
    }

    @Test
    @Order(2)
    void statusShowsEveryNodeWithItsPartitions() throws Exception {
        Cli r = Cli.run("cluster", "status", "--cluster", cluster.toString(), "--json");
        assertEquals(0, r.exitCode(), r::toString);
        long lineitems = 0;
        List<String> lines = r.out().lines().toList();
        assertEquals(2, lines.size(), r::toString);
        for (String line : lines) {
            JsonNode n = JSON.readTree(line);
            assertEquals("up", n.get("state").asText());
            assertTrue(n.get("uptime_seconds") != null || n.get("uptimeSeconds") != null, line);
            lineitems += n.get("rows").get("lineitem").asLong();
            // a local cluster names no racks: Hadoop's default one
            assertEquals("/default-rack", n.get("rack").asText(), line);
        }
        assertEquals(60_175, lineitems);

        // one node, as a health probe does after restarting it
        Cli one = Cli.run("cluster", "status", "--cluster", cluster.toString(), "--node", "n2");
        assertEquals(0, one.exitCode(), one::toString);
        assertEquals(1, one.out().lines().count(), one::toString);
        assertEquals("n2", JSON.readTree(one.out().lines().findFirst().orElseThrow()).get("node").asText());
        Cli table = Cli.run("cluster", "status", "--cluster", cluster.toString());
        assertTrue(table.out().lines().findFirst().orElseThrow().contains("rack"), table::toString);
    }

    @Test
    @Order(3)
    void everyClusterModeAgreesWithTheSingleNodeStore() throws Exception {
        for (String query : List.of("OL", "PL")) {
            JsonNode reference = run("--store", single.toString(), query, "ooo");
            for (String mode : List.of("ooo", "ooo-local", "inorder")) {
                JsonNode got = run("--cluster", cluster.toString(), query, mode);
                assertEquals(reference.get("rows").asLong(), got.get("rows").asLong(), query + " " + mode);
                assertEquals(reference.get("checksum").asLong(), got.get("checksum").asLong(), query + " " + mode);
                assertEquals(2, got.get("nodes").asInt());
                assertEquals(2, got.get("per_node").size());
                long remote = got.get("remote_requests").asLong();
                assertTrue(query.equals("OL") ? remote == 0 : remote > 0, query + " " + mode + " remote requests: " + remote);
            }
        }
    }

    @Test
    @Order(3)
    void mapReduceModesAndChainsAgreeWithTheDaemon() throws Exception {
        for (String query : List.of("PL", "Q3")) {
            JsonNode reference = run("--cluster", cluster.toString(), query, "ooo");
            for (String mode : List.of("psmj", "ooo-mr")) {
                JsonNode got = run("--cluster", cluster.toString(), query, mode);
                assertEquals(reference.get("rows").asLong(), got.get("rows").asLong(), query + " " + mode);
                assertEquals(reference.get("checksum").asLong(), got.get("checksum").asLong(), query + " " + mode);
                assertTrue(got.get("job_startup_seconds").asDouble() > 0, got::toString);
            }
        }
    }

    @Test
    @Order(3)
    void theExampleJobGivesTheSameRevenueOverEitherInput() {
        List<String> results = new java.util.ArrayList<>();
        for (String input : List.of("ooo", "psmj")) {
            Cli r = Cli.run("mr", "run", "revenue-per-nation", "--cluster", cluster.toString(), "--low", "100000",
                    "--high", "200000", "--input", input, "--out", cluster.resolve("revenue-" + input).toString());
            assertEquals(0, r.exitCode(), r::toString);
            assertTrue(r.out().lines().count() >= 20, "a line per nation: " + r);
            assertTrue(r.err().contains(input + " input"), r::toString);
            results.add(r.out());
        }
        assertEquals(results.get(0), results.get(1));

        Path exported = cluster.resolve("export");
        Cli export = Cli.run("export", "tpch", "--cluster", cluster.toString(), "--out", exported.toString(),
                "--tables", "nation,region");
        assertEquals(0, export.exitCode(), export::toString);
        assertTrue(export.out().contains("nation") && export.out().contains("25 rows"), export::toString);
        Cli orc = Cli.run("export", "tpch", "--cluster", cluster.toString(), "--out", cluster.resolve("orc").toString(),
                "--tables", "region", "--format", "orc");
        assertEquals(0, orc.exitCode(), orc::toString);
        assertTrue(orc.out().contains("5 rows"), orc::toString);
        Cli parquet = Cli.run("export", "tpch", "--cluster", cluster.toString(), "--out", exported.toString(),
                "--format", "parquet");
        assertEquals(2, parquet.exitCode(), parquet::toString);
        assertTrue(parquet.err().contains("--format parquet is not written yet (text or orc)"), parquet::toString);
        Cli avro = Cli.run("export", "tpch", "--cluster", cluster.toString(), "--out", exported.toString(),
                "--format", "avro");
        assertEquals(2, avro.exitCode(), avro::toString);
        assertTrue(avro.err().contains("unknown file format 'avro'"), avro::toString);
        Cli unknown = Cli.run("mr", "run", "no-such-job");
        assertEquals(2, unknown.exitCode(), unknown::toString);
        assertTrue(unknown.err().contains("revenue-per-nation"), unknown::toString);
    }

    /**
     * What {@code hadoop jar mapreduce-io.jar <class> <args>} does: Hadoop's RunJar in a JVM whose
     * class path is Hadoop's client plus the engine's jars (HADOOP_CLASSPATH), here this test's.
     */
    @Test
    @Order(3)
    void theExampleJobRunsAsHadoopJarWould() throws Exception {
        Path jar = Path.of(org.oooengine.mapreduce.examples.RevenuePerNation.class.getProtectionDomain()
                .getCodeSource().getLocation().toURI());
        org.junit.jupiter.api.Assumptions.assumeTrue(jar.toString().endsWith(".jar"),
                "mapreduce-io is not packaged as a jar in this build: " + jar);
        List<String> cmd = new java.util.ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                .filter(a -> a.startsWith("--add-opens")).forEach(cmd::add);
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), "org.apache.hadoop.util.RunJar",
                jar.toString(), "org.oooengine.mapreduce.examples.RevenuePerNation",
                "-D", "mapreduce.framework.name=local", "--cluster", cluster.toString(), "--low", "100000",
                "--high", "200000", "--out", cluster.resolve("revenue-hadoop-jar").toString()));
        Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), out);
        Cli reference = Cli.run("mr", "run", "revenue-per-nation", "--cluster", cluster.toString(), "--low", "100000",
                "--high", "200000", "--out", cluster.resolve("revenue-reference").toString());
        assertEquals(reference.out(), out);
    }

    @Test
    @Order(3)
    void analyzeGivesTheSameTableStatisticsOnTheClusterAsOnOneStore() throws Exception {
        Cli onCluster = Cli.run("analyze", "--cluster", cluster.toString(), "--table", "orders", "--json");
        Cli onStore = Cli.run("analyze", "--store", single.toString(), "--table", "orders", "--json");
        assertEquals(0, onCluster.exitCode(), onCluster::toString);
        assertEquals(0, onStore.exitCode(), onStore::toString);
        JsonNode c = JSON.readTree(onCluster.out().strip());
        JsonNode s = JSON.readTree(onStore.out().strip());
        assertEquals(s.get("rows").asLong(), c.get("rows").asLong());
        for (JsonNode withTrees : new JsonNode[] {c, s}) { // the B+trees' health: the clustered tree holds every row
            JsonNode data = withTrees.get("trees").get(0);
            assertEquals("data", data.get("tree").asText(), withTrees.toString());
            assertEquals(s.get("rows").asLong(), data.get("entries").asLong(), withTrees.toString());
            assertTrue(data.get("leaves").asLong() > 0 && data.get("deterioration").asDouble() < 1.1, withTrees.toString());
        }
        for (int i = 0; i < s.get("columns").size(); i++) {
            JsonNode sc = s.get("columns").get(i);
            JsonNode cc = c.get("columns").get(i);
            assertEquals(sc.get("min"), cc.get("min"), sc.toString());
            assertEquals(sc.get("max"), cc.get("max"), sc.toString());
            double ratio = cc.get("distinct").asDouble() / sc.get("distinct").asDouble();
            assertTrue(ratio > 0.97 && ratio < 1.03, "merged sketches estimate as one: " + cc + " vs " + sc);
        }
        Cli text = Cli.run("analyze", "--cluster", cluster.toString(), "--table", "lineitem");
        assertTrue(text.out().contains("l_partkey") && text.out().matches("(?s).*l_partkey.*\\d+ buckets.*"), text::toString);
        assertTrue(text.out().contains("B+trees:") && text.out().contains("    data: ") && text.out().contains("key ranges"),
                text::toString);
        Cli both = Cli.run("analyze", "--cluster", cluster.toString(), "--store", single.toString());
        assertEquals(2, both.exitCode(), both::toString);
        Cli unknown = Cli.run("analyze", "--store", single.toString(), "--table", "nosuch");
        assertEquals(2, unknown.exitCode(), unknown::toString);
        assertTrue(unknown.err().contains("no table 'nosuch'") && unknown.err().contains("lineitem"), unknown::toString);
    }

    @Test
    @Order(2)
    void calibrationMeasuresEveryFigureAndExplainAnalyzeTimesEachJob() throws Exception {
        // Each level is read for a quarter of a second: in 50 ms, a loaded machine may complete no
        // read at some queue depth, and measure 0.
        Cli r = Cli.run("calibrate", "--cluster", cluster.toString(), "--duration", "250ms", "--file-size", "8", "--json");
        assertEquals(0, r.exitCode(), r::toString);
        JsonNode c = JSON.readTree(r.out().strip());
        assertEquals(2, c.get("nodes").asInt());
        // the disk measured by the node: both nodes on one host share its device
        assertEquals(5, c.get("disk").get("randomIops").size(), r::toString);
        c.get("disk").get("randomIops").forEach(v -> assertTrue(v.asDouble() > 0, r::toString));
        assertEquals(2, c.get("disk").get("sharedByNodes").asInt());
        assertTrue(c.get("indexJoin").get("coldReadsPerSecond").get("128").asDouble() > 0, r::toString);
        assertTrue(c.get("indexJoin").get("readCpuMicros").asDouble() >= 0, r::toString);
        assertTrue(c.get("indexJoin").get("coldCoresBusy").asDouble() > 0, r::toString);
        // a difference of two timings: on a loaded machine a small local join may show no cost beyond its dispatch
        assertTrue(c.get("indexJoin").get("warmRowMicros").asDouble() >= 0, r::toString);
        assertTrue(c.get("mapReduce").get("startupSeconds").asDouble() > 0, r::toString);
        assertTrue(c.get("mapReduce").get("stageStartupSeconds").asDouble() > 0, r::toString);
        assertTrue(Files.exists(cluster.resolve("calibration.json")));

        Cli explain = Cli.run("explain", "--cluster", cluster.toString(), "--query", "Q3", "--selectivity", "0.5",
                "--mode", "psmj", "--analyze");
        assertEquals(0, explain.exitCode(), explain::toString);
        assertTrue(explain.out().contains("MapReduce jobs, in order:"), explain::toString);
        assertEquals(2, explain.out().lines().filter(l -> l.matches("  psmj \\S+ +~[0-9.]+ s  \\| actual [0-9.]+ s .*")).count(),
                explain::toString);
    }

    @Test
    @Order(3)
    void tpchReportsTheNodesCpuAndTheScalingModelPredictsFromIt() throws Exception {
        Cli tpch = Cli.run("bench", "tpch", "--cluster", cluster.toString(), "--queries", "1,3", "--repeat", "2", "--json");
        assertEquals(0, tpch.exitCode(), tpch::toString);
        JsonNode report = JSON.readTree(tpch.out().strip());
        assertTrue(report.get("node_cores").asInt() >= 1, tpch::toString);
        report.get("queries").forEach(q -> assertTrue(q.get("node_cpu_s").asDouble() > 0, tpch::toString));
        // what each query held: Q3's hash tables on the nodes, both queries' result rows on the coordinator
        report.get("queries").forEach(q -> assertTrue(q.get("coordinator_peak_bytes").asLong() > 0, tpch::toString));
        assertTrue(report.get("queries").get(1).get("node_peak_bytes").asLong() > 0, tpch::toString);
        Path base = cluster.getParent().resolve("tpch-base.json");
        Files.writeString(base, tpch.out());

        Cli scaling = Cli.run("bench", "scaling", "--local", "--calibration", cluster.toString(), "--tpch-base", base.toString(),
                "--sf-per-node", "0.01", "--nodes", "1,2,4", "--json");
        assertEquals(0, scaling.exitCode(), scaling::toString);
        List<JsonNode> q1 = new java.util.ArrayList<>();
        for (String line : scaling.out().lines().filter(l -> l.startsWith("{")).toList()) {
            JsonNode p = JSON.readTree(line);
            if (p.get("query").asText().equals("TPC-H Q1")) {
                q1.add(p);
            }
        }
        assertEquals(3, q1.size(), scaling::toString);
        // nodes sharing the machine share its cores: more of them never work less than one
        for (int i = 1; i < q1.size(); i++) {
            assertTrue(q1.get(i).get("node_work_seconds").asDouble() >= q1.get(i - 1).get("node_work_seconds").asDouble(),
                    scaling::toString);
        }

        // the plot with measured points beside the model's lines, as scaling-validate.sh draws it
        Path validation = cluster.getParent().resolve("validation.json");
        Files.writeString(validation, "{\"rows\": [{\"query\": \"TPC-H Q1\", \"selectivity\": null, \"nodes\": 2, "
                + "\"measured_scalability\": 0.6}, {\"query\": \"OL\", \"selectivity\": 0.5, \"nodes\": 2, "
                + "\"measured_scalability\": 0.4}]}");
        Path png = cluster.getParent().resolve("validation.png");
        Cli plot = Cli.run("bench", "scaling", "--local", "--calibration", cluster.toString(), "--tpch-base", base.toString(),
                "--sf-per-node", "0.01", "--nodes", "1,2", "--measured", validation.toString(), "--plot", png.toString());
        assertEquals(0, plot.exitCode(), plot::toString);
        assertTrue(Files.size(png) > 1000, plot::toString);
    }

    @Test
    @Order(4)
    void aKilledNodeIsNamedAndItsSupervisorStartsItAgain() throws Exception {
        long pid = Long.parseLong(Files.readAllLines(cluster.resolve("run").resolve("n2.pid")).get(0));
        ProcessHandle node = ProcessHandle.of(pid).orElseThrow();
        Runtime.getRuntime().exec(new String[] {"kill", "-9", String.valueOf(pid)}).waitFor();
        node.onExit().get();
        long t0 = System.nanoTime();
        Cli r = Cli.run("bench", "join", "--cluster", cluster.toString(), "--query", "PL", "--selectivity", "0.01",
                "--mode", "ooo", "--json");
        double seconds = (System.nanoTime() - t0) / 1e9;
        assertEquals(1, r.exitCode(), r::toString);
        assertTrue(r.out().isEmpty(), "no result for a failed query: " + r);
        assertTrue(r.err().contains("n2"), r::toString);
        // failed naming the node, not hung: a minute is many times what a quiet machine takes
        assertTrue(seconds < 60, "took " + seconds + " s");
        Cli status = Cli.run("cluster", "status", "--cluster", cluster.toString());
        assertEquals(1, status.exitCode(), status::toString);
        assertTrue(status.out().lines().anyMatch(l -> l.startsWith("n2") && (l.contains("down") || l.contains("restarting"))),
                status::toString);
        assertEquals(0, Cli.run("cluster", "status", "--cluster", cluster.toString(), "--node", "n1").exitCode());
        // the node's supervisor starts it again; the probe the playbooks wait on passes once it answers
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(90);
        int probe;
        do {
            Thread.sleep(500);
            probe = Cli.run("cluster", "status", "--cluster", cluster.toString(), "--node", "n2").exitCode();
        } while (probe != 0 && System.nanoTime() < deadline);
        assertEquals(0, probe, "n2 was restarted by its supervisor and answers");
    }

    private static JsonNode run(String where, String dir, String query, String mode) throws Exception {
        Cli r = Cli.run("bench", "join", where, dir, "--query", query, "--selectivity", "0.01", "--mode", mode, "--json");
        assertEquals(0, r.exitCode(), r::toString);
        return JSON.readTree(r.out().strip());
    }
}
