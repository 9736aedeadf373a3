package org.oooengine.cluster.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.oooengine.core.storage.DirectIoUnsupportedException;
import org.oooengine.optimizer.cost.Calibration;
import org.oooengine.optimizer.cost.CostTerms;
import org.oooengine.optimizer.history.JoinRun;
import org.oooengine.optimizer.history.JoinRunHistory;
import org.oooengine.optimizer.history.RefitFigure;
import picocli.CommandLine;

class CliParsingTest {
    /** Every command path, from {@code ooo} down to each subcommand. */
    static Stream<List<String>> commandPaths() {
        List<List<String>> paths = new ArrayList<>();
        collect(OooCli.commandLine(), new ArrayList<>(), paths);
        return paths.stream();
    }

    private static void collect(CommandLine cmd, List<String> path, List<List<String>> out) {
        out.add(path);
        cmd.getSubcommands().forEach((name, sub) -> {
            List<String> child = new ArrayList<>(path);
            child.add(name);
            collect(sub, child, out);
        });
    }

    @ParameterizedTest
    @MethodSource("commandPaths")
    void helpOnEveryCommandExitsZeroWithUsage(List<String> path) {
        List<String> args = new ArrayList<>(path);
        args.add("--help");
        Cli r = Cli.run(args.toArray(String[]::new));
        assertEquals(0, r.exitCode(), r::toString);
        assertTrue(r.out().startsWith("Usage: ooo"), r::toString);
        assertTrue(r.err().isEmpty(), r::toString);
        assertTrue(r.out().contains("Exit codes:") && r.out().contains("2       usage error"), r::toString);
        for (String old : OldFlags.RENAMED.keySet()) {
            // --json prints JSON elsewhere; sql's -w is --password-file as in beeline.
            if (!old.equals("--json") && !(old.equals("--password-file") && path.equals(List.of("sql")))) {
                assertFalse(r.out().matches("(?s).*" + old + "\\b(?!-).*"), old + " in\n" + r.out());
            }
        }
    }

    /**
     * Picocli formats help texts as format strings: a lone {@code %} (say "100%;") makes it warn
     * on stderr, where no test of the usage text sees it, and print the text raw.
     */
    @Test
    void everyHelpTextIsAValidFormatString() {
        java.io.PrintStream err = System.err;
        java.io.ByteArrayOutputStream warnings = new java.io.ByteArrayOutputStream();
        System.setErr(new java.io.PrintStream(warnings, true, java.nio.charset.StandardCharsets.UTF_8));
        try {
            usageOfEvery(OooCli.commandLine());
        } finally {
            System.setErr(err);
        }
        assertEquals("", warnings.toString(java.nio.charset.StandardCharsets.UTF_8), "write %% for one % in help texts");
    }

    private static void usageOfEvery(CommandLine cmd) {
        cmd.getUsageMessage();
        cmd.getSubcommands().values().forEach(CliParsingTest::usageOfEvery);
    }

    @Test
    void everyCommandIsReachable() {
        List<String> names = commandPaths().map(p -> String.join(" ", p)).toList();
        assertEquals(List.of("", "load", "load tpch", "load tpcds", "bench", "bench join", "bench sweep", "bench report", "bench micro", "bench txn",
                "bench fetch", "bench tpch", "bench extract", "bench failover", "bench hedge", "bench estimates", "bench tpcds", "bench tpcc-fill", "bench tpcc-fill-plot", "bench transfers", "bench tpcc", "bench scaling", "bench stress", "bench chaos",
                "bench chbench", "bench chbench-plot", "bench scan", "calibrate", "quickstart", "cluster", "cluster start", "cluster stop", "cluster status",
                "cluster htap", "cluster rebalance", "cluster route", "node", "mr", "mr run", "export", "export tpch", "analyze", "explain", "server", "sql", "beeline", "deploy",
                "deploy inventory"), names);
    }

    /** bench extract refuses bad counts, and a cluster whose coordinator does not run, by name and before connecting. */
    @Test
    void benchExtractRefusesBadCountsAndAClusterWithoutCoordinator(@TempDir Path tmp) throws Exception {
        Path cluster = tmp.resolve("c");
        java.nio.file.Files.createDirectories(cluster);
        org.oooengine.core.cluster.ClusterSpec.local("t", 2, 40001).write(cluster);
        Cli zero = Cli.run("bench", "extract", "--cluster", cluster.toString(), "--repeat", "0");
        assertEquals(2, zero.exitCode(), zero::toString);
        assertTrue(zero.err().contains("--repeat and --fetch-size must be at least 1"), zero::toString);
        Cli tooMany = Cli.run("bench", "extract", "--cluster", cluster.toString(), "--fetch-size", "50000");
        assertEquals(2, tooMany.exitCode(), tooMany::toString);
        assertTrue(tooMany.err().contains("--fetch-size: the endpoint sends at most 10000 rows a fetch, got 50000"),
                tooMany::toString);
        Cli stopped = Cli.run("bench", "extract", "--cluster", cluster.toString());
        assertEquals(2, stopped.exitCode(), stopped::toString);
        assertTrue(stopped.err().contains("no coordinator runs for the cluster in " + cluster), stopped::toString);
    }

    /** A selectivity out of range is refused before the sweep runs the points before it, not an hour in. */
    @Test
    void sweepRefusesABadSelectivityBeforeRunningAny(@TempDir Path tmp) {
        Cli r = Cli.run("bench", "sweep", "--store", tmp.resolve("none").toString(), "--query", "PL",
                "--selectivities", "0.1,1.5");
        assertEquals(2, r.exitCode(), r::toString);
        assertTrue(r.err().contains("--selectivities: selectivity must be in (0, 1], got 1.5"), r::toString);
    }

    /** bench failover refuses a cluster whose partitions have no copies, and a kill point outside the query, before connecting. */
    @Test
    void benchFailoverRefusesAClusterWithoutCopiesAndABadKillPoint(@TempDir Path tmp) throws Exception {
        Path single = tmp.resolve("single");
        java.nio.file.Files.createDirectories(single);
        org.oooengine.core.cluster.ClusterSpec.local("t", 3, 40001).write(single);
        Cli noCopies = Cli.run("bench", "failover", "--cluster", single.toString());
        assertEquals(2, noCopies.exitCode(), noCopies::toString);
        assertTrue(noCopies.err().contains("keeps each partition on one node"), noCopies::toString);
        Path copied = tmp.resolve("copied");
        java.nio.file.Files.createDirectories(copied);
        org.oooengine.core.cluster.ClusterSpec.local("t", 3, 40001).withReplication(2).write(copied);
        Cli late = Cli.run("bench", "failover", "--cluster", copied.toString(), "--at", "1.5");
        assertEquals(2, late.exitCode(), late::toString);
        assertTrue(late.err().contains("--at within (0, 1)"), late::toString);
        Cli join = Cli.run("bench", "failover", "--cluster", copied.toString(), "--joins", "OL,XY");
        assertEquals(2, join.exitCode(), join::toString);
        assertTrue(join.err().contains("--joins: unknown query 'XY'"), join::toString);
    }

    /** bench hedge refuses a cluster without copies and a slowdown that slows nothing, before connecting. */
    @Test
    void benchHedgeRefusesAClusterWithoutCopiesAndABadSlowdown(@TempDir Path tmp) throws Exception {
        Path single = tmp.resolve("single");
        java.nio.file.Files.createDirectories(single);
        org.oooengine.core.cluster.ClusterSpec.local("t", 3, 40001).write(single);
        Cli noCopies = Cli.run("bench", "hedge", "--cluster", single.toString());
        assertEquals(2, noCopies.exitCode(), noCopies::toString);
        assertTrue(noCopies.err().contains("keeps each partition on one node"), noCopies::toString);
        Path copied = tmp.resolve("copied");
        java.nio.file.Files.createDirectories(copied);
        org.oooengine.core.cluster.ClusterSpec.local("t", 3, 40001).withReplication(2).write(copied);
        Cli slowdown = Cli.run("bench", "hedge", "--cluster", copied.toString(), "--slowdown", "1");
        assertEquals(2, slowdown.exitCode(), slowdown::toString);
        assertTrue(slowdown.err().contains("--slowdown above 1"), slowdown::toString);
        Cli query = Cli.run("bench", "hedge", "--cluster", copied.toString(), "--query", "XY");
        assertEquals(2, query.exitCode(), query::toString);
        assertTrue(query.err().contains("--query"), query::toString);
        Cli node = Cli.run("bench", "hedge", "--cluster", copied.toString(), "--node", "n9");
        assertEquals(2, node.exitCode(), node::toString);
        assertTrue(node.err().contains("n9"), node::toString);
    }

    /** The slowed node is started again with its answer delay replaced, or added when it had none. */
    @Test
    void benchHedgeSetsTheSlowNodesAnswerDelay() {
        assertEquals(List.of("sh", "node", "--answer-delay", "1500us", "--id", "n2"), BenchHedgeCommand.withAnswerDelay(
                List.of("sh", "node", "--answer-delay", "0us", "--id", "n2"), java.time.Duration.ofNanos(1_500_000)));
        assertEquals(List.of("sh", "node", "--answer-delay", "0us"), BenchHedgeCommand.withAnswerDelay(
                List.of("sh", "node"), java.time.Duration.ZERO));
    }

    /** bench scan refuses a pattern it does not know and a malformed skew before writing any file. */
    @Test
    void benchScanRefusesBadPatternsAndSkewsFirst(@TempDir Path tmp) {
        Cli pattern = Cli.run("bench", "scan", "--cluster", tmp.toString(), "--pattern", "2,4");
        assertEquals(2, pattern.exitCode(), pattern::toString);
        assertTrue(pattern.err().contains("--pattern: 4 is not 1, 2 or 3"), pattern::toString);
        Cli skew = Cli.run("bench", "scan", "--cluster", tmp.toString(), "--skew", "n1");
        assertEquals(2, skew.exitCode(), skew::toString);
        assertTrue(skew.err().contains("--skew: ooo.files.skew: 'n1' is not node=factor"), skew::toString);
        Cli slow = Cli.run("bench", "scan", "--cluster", tmp.toString(), "--slow", "n1=0.5");
        assertEquals(2, slow.exitCode(), slow::toString);
        assertTrue(slow.err().contains("--slow: 'n1=0.5' is not node=factor with a factor of at least 1"), slow::toString);
        Cli cost = Cli.run("bench", "scan", "--cluster", tmp.toString(), "--cost", "select4");
        assertEquals(2, cost.exitCode(), cost::toString);
        assertTrue(cost.err().contains("--cost: 'select4' is not one of [decode, select1, select2, select3]"), cost::toString);
        Cli threshold = Cli.run("bench", "scan", "--cluster", tmp.toString(), "--table", "d.t", "--cost", "select1");
        assertEquals(2, threshold.exitCode(), threshold::toString);
        assertTrue(threshold.err().contains("--cost select1 over --table needs --threshold A"), threshold::toString);
        Cli unused = Cli.run("bench", "scan", "--cluster", tmp.toString(), "--threshold", "5");
        assertEquals(2, unused.exitCode(), unused::toString);
        assertTrue(unused.err().contains("--threshold is A of --cost select1, select2 or select3"), unused::toString);
        Cli both = Cli.run("bench", "scan", "--cluster", tmp.toString(), "--from-json", tmp.resolve("runs.json").toString());
        assertEquals(2, both.exitCode(), both::toString);
        assertTrue(both.err().contains("leave out --cluster"), both::toString);
        Cli table = Cli.run("bench", "scan", "--cluster", tmp.toString(), "--table", "d.t");
        assertEquals(2, table.exitCode(), table::toString);
        assertTrue(table.err().contains("--table: no table d.t in"), table::toString);
        assertFalse(java.nio.file.Files.exists(tmp.resolve("bench-scan")), "nothing written");
    }

    /**
     * Two copies from three nodes on unless told; a number the nodes cannot hold, or an existing
     * cluster's other one, is usage, as is a load's other than 1 or the cluster's.
     */
    @Test
    void replicationIsTwoFromThreeNodesOnAndSetOnce(@TempDir Path tmp) throws Exception {
        assertEquals(List.of(1, 1, 2, 2, 2), java.util.stream.IntStream.rangeClosed(1, 5)
                .mapToObj(org.oooengine.cluster.launch.LocalCluster::defaultReplication).toList());
        Cli tooMany = Cli.run("cluster", "start", "--cluster", tmp.resolve("new").toString(), "--nodes", "3",
                "--replication", "4", "--allow-root");
        assertEquals(2, tooMany.exitCode(), tooMany::toString);
        assertTrue(tooMany.err().contains("--replication 4 needs between 1 and 3"), tooMany::toString);
        Path single = tmp.resolve("single");
        java.nio.file.Files.createDirectories(single);
        org.oooengine.core.cluster.ClusterSpec.local("t", 3, 40001).write(single);
        Cli other = Cli.run("cluster", "start", "--cluster", single.toString(), "--replication", "2", "--allow-root");
        assertEquals(2, other.exitCode(), other::toString);
        assertTrue(other.err().contains("keeps each partition on 1 node(s)"), other::toString);
        Path copied = tmp.resolve("copied");
        java.nio.file.Files.createDirectories(copied);
        org.oooengine.core.cluster.ClusterSpec.local("t", 3, 40001).withReplication(2).write(copied);
        Cli four = Cli.run("load", "tpch", "--sf", "0.01", "--cluster", copied.toString(), "--replication", "4");
        assertEquals(2, four.exitCode(), four::toString);
        assertTrue(four.err().contains("keeps 2 copies of each partition; a table may keep 1 to 3, not 4"), four::toString);
        Cli ds = Cli.run("load", "tpcds", "--sf", "0.01", "--cluster", single.toString(), "--replication", "2");
        assertEquals(2, ds.exitCode(), ds::toString);
        assertTrue(ds.err().contains("a table may keep 1, not 2"), ds::toString);
        Cli store = Cli.run("load", "tpch", "--sf", "0.01", "--store", tmp.resolve("s").toString(), "--replication", "1");
        assertEquals(2, store.exitCode(), store::toString);
        assertTrue(store.err().contains("--replication is for a load into a cluster"), store::toString);
        Cli beats = Cli.run("cluster", "status", "--cluster", single.toString(), "--heartbeats", "0");
        assertEquals(2, beats.exitCode(), beats::toString);
        assertTrue(beats.err().contains("--heartbeats takes 1 to 60 seconds"), beats::toString);
    }

    @Test
    void nodeAddressesAndNamespacesOneNodeEach(@TempDir Path tmp) {
        String dir = tmp.resolve("c").toString();
        Cli twice = Cli.run("cluster", "start", "--cluster", dir, "--hosts", "127.0.0.1,127.0.0.1", "--allow-root");
        assertEquals(2, twice.exitCode(), twice::toString);
        assertTrue(twice.err().contains("address 127.0.0.1 given twice"), twice::toString);
        Cli count = Cli.run("cluster", "start", "--cluster", dir, "--nodes", "3", "--hosts", "127.0.0.2,127.0.0.3", "--allow-root");
        assertEquals(2, count.exitCode(), count::toString);
        assertTrue(count.err().contains("--nodes 3 but 2 --hosts addresses"), count::toString);
        Cli alone = Cli.run("cluster", "start", "--cluster", dir, "--netns", "a,b", "--allow-root");
        assertEquals(2, alone.exitCode(), alone::toString);
        assertTrue(alone.err().contains("--netns needs --hosts"), alone::toString);
        assertFalse(java.nio.file.Files.exists(tmp.resolve("c").resolve("cluster.json")), "nothing written");
    }

    @Test
    void helpListsEverySubcommandBeelineToo() {
        Cli r = Cli.run("--help");
        assertEquals(0, r.exitCode(), r::toString);
        for (String name : OooCli.commandLine().getSubcommands().keySet()) {
            assertTrue(r.out().contains("\n  " + name + " "), name + " in\n" + r.out());
        }
        assertTrue(r.out().contains("  beeline "), r::toString);
    }

    /** Two calibrations compared figure by figure: exit 0 within the tolerance, 1 beyond it, naming the figures. */
    @Test
    void calibrateCompareNamesTheFiguresBeyondTheTolerance(@TempDir Path tmp) throws IOException {
        Path a = tmp.resolve("a.json");
        Path b = tmp.resolve("b.json");
        Calibration first = calibration(1000, 80);
        first.write(tmp);
        java.nio.file.Files.move(Calibration.file(tmp), a);
        calibration(1080, 100).write(tmp);
        java.nio.file.Files.move(Calibration.file(tmp), b);
        Cli close = Cli.run("calibrate", "--compare", a.toString(), b.toString(), "--tolerance", "30");
        assertEquals(0, close.exitCode(), close::toString);
        assertTrue(close.out().startsWith("19 of 19 figures within 30%"), close::toString);
        Cli apart = Cli.run("calibrate", "--compare", a.toString(), b.toString());
        assertEquals(1, apart.exitCode(), apart::toString);
        assertTrue(apart.out().startsWith("18 of 19 figures within 10%"), apart::toString);
        assertTrue(apart.out().contains("network.roundTripMicros"), apart::toString);
        assertFalse(apart.out().contains("disk.sequentialMibPerSecond"), "8% apart: " + apart);
        Cli missing = Cli.run("calibrate", "--compare", tmp.toString(), b.toString());
        assertEquals(2, missing.exitCode(), missing::toString);
        assertTrue(missing.err().contains("no calibration in " + tmp), missing::toString);
    }

    /**
     * The CPU figures refitted to the cluster's history of join runs: a cached row that cost twice
     * the calibrated time in every run doubles; without cold runs the command says what to run.
     */
    @Test
    void calibrateFromHistoryRefitsTheFiguresToTheRuns(@TempDir Path cluster) throws IOException {
        Calibration before = calibration(1000, 80);
        before.write(cluster);
        Cli repeated = Cli.run("calibrate", "--cluster", cluster.toString(), "--from-history", "--repeat", "3");
        assertEquals(2, repeated.exitCode(), repeated::toString);
        assertTrue(repeated.err().contains("--repeat does not apply"), repeated::toString);
        Cli lastAlone = Cli.run("calibrate", "--cluster", cluster.toString(), "--last", "5");
        assertEquals(2, lastAlone.exitCode(), lastAlone::toString);
        assertTrue(lastAlone.err().contains("--last applies to --from-history only"), lastAlone::toString);
        Cli none = Cli.run("calibrate", "--cluster", cluster.toString(), "--from-history");
        assertEquals(1, none.exitCode(), none::toString);
        assertTrue(none.err().contains("no cold runs of planned joins in " + cluster.resolve(JoinRunHistory.FILE)), none::toString);
        JoinRunHistory history = new JoinRunHistory(cluster);
        for (int i = 1; i <= 30; i++) {
            double rows = i * 0.1; // seconds of cached rows, as calibrated
            history.append(new JoinRun("2026-11-30T00:00:00Z", "PL", 0.01, "ooo-pnlj", true, 10, 10,
                    List.of(new JoinRun.Part("index-join pipeline", new CostTerms(0.05, 0, false, rows, 0, 0, 0, 0),
                            0.05 + 2 * rows)), RefitFigure.valuesOf(before)));
        }
        Cli refit = Cli.run("calibrate", "--cluster", cluster.toString(), "--from-history");
        assertEquals(0, refit.exitCode(), refit::toString);
        assertTrue(refit.out().startsWith("refitted to 30 timed parts of the 30 newest runs"), refit::toString);
        // twice the calibrated 1.5 us, short of it by what the prior holds back
        assertTrue(refit.out().matches("(?s).*indexJoin.warmRowMicros +1\\.5 +2\\.98 +1\\.99 .*"), refit::toString);
        assertEquals(3.0, Calibration.require(cluster).indexJoin().warmRowMicros(), 0.05);
        assertEquals(before.indexJoin().readCpuMicros(), Calibration.require(cluster).indexJoin().readCpuMicros(), 1e-9);
    }

    private static Calibration calibration(double sequential, double roundTrip) {
        return new Calibration("2026-01-01T00:00:00Z", 4, 8192, 8192,
                new Calibration.Disk(sequential, java.util.Map.of(1, 17_000.0, 256, 60_000.0), 4),
                new Calibration.Network(roundTrip, java.util.Map.of(1, 9_000.0, 1024, 560_000.0)),
                new Calibration.IndexJoin(0.01, java.util.Map.of(1, 9_000.0, 8, 30_000.0), java.util.Map.of(1, 60.0, 128, 2.0),
                        1.5, 10, 0.9),
                new Calibration.MapReduce(0.3, 0.45, 150, 1.2, 0.4));
    }

    @Test
    void anOldFlagStillWorksWithOneWarning(@TempDir Path tmp) {
        String missing = tmp.resolve("none").toString();
        Cli r = Cli.run("calibrate", "--dir", missing, "--size-mb", "1", "--seconds", "0.01");
        assertEquals(1, r.exitCode(), r::toString);
        assertTrue(r.err().contains("warning: --dir is deprecated and goes in the next release; use --disk\n"), r::toString);
        assertTrue(r.err().contains("warning: --size-mb is deprecated and goes in the next release; use --file-size\n"),
                r::toString);
        assertEquals(1, r.err().split("--dir is deprecated", -1).length - 1, r::toString);
        assertTrue(r.err().contains("error: cannot create a calibration file in " + missing), "the old flag's value holds: " + r);
        // A required flag given by its old name is given.
        Cli status = Cli.run("cluster", "status", "--dir", missing);
        assertEquals(1, status.exitCode(), status::toString);
        assertTrue(status.err().contains("use --cluster") && status.err().contains("no cluster at " + missing), status::toString);
        Cli server = Cli.run("server", "--cluster", missing, "--password-file", missing, "--allow-root");
        assertEquals(2, server.exitCode(), server::toString);
        assertTrue(server.err().contains("--password-file is deprecated and goes in the next release; use --users-file")
                && server.err().contains("--users-file " + missing + " is not a readable file"), server::toString);
    }

    @Test
    void usageErrorsExitTwo() {
        Cli missing = Cli.run("cluster", "status");
        assertEquals(2, missing.exitCode(), missing::toString);
        assertTrue(missing.err().contains("Missing required option: '--cluster=<cluster-dir>'"), missing::toString);
        Cli size = Cli.run("cluster", "start", "--cluster", "/nowhere", "--buffer-pool", "lots");
        assertEquals(2, size.exitCode(), size::toString);
        assertTrue(size.err().contains("'lots' is not a size"), size::toString);
        Cli duration = Cli.run("node", "--cluster", "/nowhere", "--id", "n1", "--timeout", "soon");
        assertEquals(2, duration.exitCode(), duration::toString);
        assertTrue(duration.err().contains("'soon' is not a duration"), duration::toString);
        Cli unknown = Cli.run("nosuchcommand");
        assertEquals(2, unknown.exitCode(), unknown::toString);
        // a size for the nodes' file caches beside keeping none: refused, not one of them ignored
        Cli both = Cli.run("node", "--cluster", "/nowhere", "--id", "n1", "--file-cache", "1g", "--no-file-cache");
        assertEquals(2, both.exitCode(), both::toString);
        assertTrue(both.err().contains("--file-cache and --no-file-cache contradict each other"), both::toString);
        Cli bothStart = Cli.run("cluster", "start", "--cluster", "/nowhere", "--node-file-cache", "1g",
                "--no-node-file-cache");
        assertEquals(2, bothStart.exitCode(), bothStart::toString);
        assertTrue(bothStart.err().contains("--node-file-cache and --no-node-file-cache contradict"), bothStart::toString);
    }

    @Test
    void unknownFlagExitsTwoWithUsageOnStderr() {
        Cli r = Cli.run("bench", "join", "--store", "/nowhere", "--query", "OL", "--selectivity", "0.1", "--mode", "ooo",
                "--bogus");
        assertEquals(2, r.exitCode(), r::toString);
        assertTrue(r.err().contains("Unknown option: '--bogus'"), r::toString);
        assertTrue(r.err().contains("Usage: ooo bench join"), r::toString);
        assertTrue(r.out().isEmpty(), r::toString);
    }

    @Test
    void chbenchRefusesAModeSlotsOrThresholdsItDoesNotKnowBeforeTouchingACluster() {
        Cli mode = Cli.run("bench", "chbench", "--cluster", "/nowhere", "--mode", "dynamic");
        assertEquals(2, mode.exitCode(), mode::toString);
        assertTrue(mode.err().contains("unknown mode 'dynamic'; use copies, unified, static, htal, no-shipping"),
                mode::toString);
        Cli slots = Cli.run("bench", "chbench", "--cluster", "/nowhere", "--mode", "htal", "--slots", "oltp=3,olap=3");
        assertEquals(2, slots.exitCode(), slots::toString);
        assertTrue(slots.err().contains("--slots names every role"), slots::toString);
        Cli empty = Cli.run("bench", "chbench", "--cluster", "/nowhere", "--mode", "htal", "--slots",
                "oltp=7,olap=0,log-shipping=1,dispatch=1");
        assertEquals(2, empty.exitCode(), empty::toString);
        assertTrue(empty.err().contains("role OLAP needs at least one slot"), empty::toString);
        Cli htal = Cli.run("bench", "chbench", "--cluster", "/nowhere", "--mode", "htal", "--htal", "beta=85");
        assertEquals(2, htal.exitCode(), htal::toString);
        assertTrue(htal.err().contains("shares in [0, 1]"), htal::toString);
        Cli unified = Cli.run("bench", "chbench", "--cluster", "/nowhere", "--mode", "unified", "--trees-only");
        assertEquals(2, unified.exitCode(), unified::toString);
        assertTrue(unified.err().contains("--trees-only sets the nodes' HTAP mode, which --mode unified does not use"),
                unified::toString);
        Cli copies = Cli.run("bench", "chbench", "--cluster", "/nowhere", "--mode", "copies", "--slots",
                "oltp=3,olap=3,log-shipping=1,dispatch=1");
        assertEquals(2, copies.exitCode(), copies::toString);
        assertTrue(copies.err().contains("--slots sets the nodes' HTAP mode, which --mode copies does not use"),
                copies::toString);
        Cli name = Cli.run("bench", "chbench", "--cluster", "/nowhere", "--mode", "htal", "--htal", "theta=1");
        assertEquals(2, name.exitCode(), name::toString);
        assertTrue(name.err().contains("--htal takes name=value pairs of alpha, beta, delta, epsilon, gamma, zeta"),
                name::toString);
    }

    @Test
    void badEnumValueAndMissingSubcommandAreUsageErrors() {
        Cli mode = Cli.run("bench", "join", "--store", "/nowhere", "--query", "OL", "--selectivity", "0.1", "--mode", "fast");
        assertEquals(2, mode.exitCode(), mode::toString);
        assertTrue(mode.err().contains("--mode"), mode::toString);
        Cli none = Cli.run("bench");
        assertEquals(2, none.exitCode(), none::toString);
        assertTrue(none.err().contains("Usage: ooo bench"), none::toString);
    }

    @Test
    void invalidBudgetIsAUsageError() {
        Cli r = Cli.run("bench", "join", "--store", "/nowhere", "--query", "OL", "--selectivity", "0.1", "--mode", "ooo",
                "--in-flight", "0");
        assertEquals(2, r.exitCode(), r::toString);
        assertTrue(r.err().contains("in-flight budget must be at least 1"), r::toString);
    }

    @Test
    void benchOnMissingStoreExitsOneWithLoadHint(@TempDir Path dir) {
        Cli r = Cli.run("bench", "join", "--store", dir.resolve("none").toString(), "--query", "PL", "--selectivity", "0.01",
                "--mode", "ooo");
        assertEquals(1, r.exitCode(), r::toString);
        assertTrue(r.err().startsWith("error: no store at "), r::toString);
        assertTrue(r.err().contains("load one with: ooo load tpch"), r::toString);
        assertEquals(1, r.err().lines().count(), "one line, no stack trace: " + r);
    }

    @Test
    void directIoRefusalReachesTheUserAsIs() {
        var e = new DirectIoUnsupportedException(Path.of("/mnt/x"), new IOException("Invalid argument"));
        assertEquals(e.getMessage(), ErrorReporter.describe(e));
        assertTrue(ErrorReporter.describe(ErrorReporter.unwrap(new java.util.concurrent.CompletionException(e))).contains("O_DIRECT"));
        assertFalse(ErrorReporter.describe(new IllegalStateException("x")).isEmpty());
    }

    @Test
    void loadRefusesBadPageSizeBeforeTouchingTheDirectory(@TempDir Path dir) {
        Cli r = Cli.run("load", "tpch", "--sf", "0.01", "--store", dir.toString(), "--page-size", "1000", "--replace");
        assertEquals(2, r.exitCode(), r::toString);
        assertTrue(r.err().contains("page size must be a power of two"), r::toString);
    }

    @Test
    void serverRefusesABadEndpointSettingBeforeStarting(@TempDir Path dir) {
        Cli r = Cli.run("server", "--cluster", dir.toString(), "--port", "0", "--conf", "ooo.endpoint.handshake.timeout=soon");
        assertEquals(2, r.exitCode(), r::toString);
        assertTrue(r.err().contains("ooo.endpoint.handshake.timeout is 'soon'; expected a duration such as 500ms, 10s, 5m or 1h"),
                r::toString);
        Cli typo = Cli.run("server", "--cluster", dir.toString(), "--port", "0", "--conf", "ooo.endpoint.max.conections=5");
        assertEquals(2, typo.exitCode(), typo::toString);
        assertTrue(typo.err().contains("unknown endpoint setting ooo.endpoint.max.conections"), typo::toString);
    }

    @Test
    void benchTpccAndTransfersRefuseBadFlagsBeforeConnecting(@TempDir Path dir) {
        Cli engine = Cli.run("bench", "tpcc", "--cluster", dir.toString(), "--engine", "mysql");
        assertEquals(2, engine.exitCode(), engine::toString);
        assertTrue(engine.err().contains("unknown engine 'mysql'"), engine::toString);
        Cli clients = Cli.run("bench", "tpcc", "--cluster", dir.toString(), "--clients", "0");
        assertEquals(2, clients.exitCode(), clients::toString);
        Cli warmup = Cli.run("bench", "tpcc", "--cluster", dir.toString(), "--warmup", "2h");
        assertEquals(2, warmup.exitCode(), warmup::toString);
        assertTrue(warmup.err().contains("--warmup must be from 0 to 1h"), warmup::toString);
        Cli acked = Cli.run("bench", "transfers", "--cluster", dir.toString(), "--verify");
        assertEquals(2, acked.exitCode(), acked::toString);
        assertTrue(acked.err().contains("--acked"), acked::toString);
        Cli two = Cli.run("bench", "transfers", "--cluster", dir.toString(), "--setup", "--verify");
        assertEquals(2, two.exitCode(), two::toString);
        Cli seconds = Cli.run("bench", "transfers", "--cluster", dir.toString(), "--duration", "0", "--acked", "a");
        assertEquals(2, seconds.exitCode(), seconds::toString);
        assertTrue(seconds.err().contains("--duration must be positive"), seconds::toString);
        Cli copies = Cli.run("bench", "transfers", "--cluster", dir.toString(), "--verify", "--copies", "--acked", "a");
        assertEquals(2, copies.exitCode(), copies::toString);
        assertTrue(copies.err().contains("--copies goes with --setup"), copies::toString);
    }

    @Test
    void deployInventoryWritesTheInventoryAndTopologyAndRefusesMoreThan128Nodes(@TempDir Path dir) throws IOException {
        Path out = dir.resolve("inv");
        Cli ok = Cli.run("deploy", "inventory", "--racks", "4", "--nodes-per-rack", "32", "--out", out.toString());
        assertEquals(0, ok.exitCode(), ok::toString);
        assertTrue(ok.out().startsWith("128 hosts on 4 racks: ooo-r1-n01 .. ooo-r4-n32"), ok::toString);
        assertTrue(java.nio.file.Files.readString(out.resolve("inventory.yml")).contains("    rack_4:\n"), ok::toString);
        assertTrue(java.nio.file.Files.isExecutable(out.resolve("topology.sh")), ok::toString);
        assertTrue(java.nio.file.Files.readString(out.resolve("topology.data")).contains("\nooo-r4-n32 /rack4\n"), ok::toString);

        Cli big = Cli.run("deploy", "inventory", "--racks", "3", "--nodes-per-rack", "43", "--out", dir.resolve("big").toString());
        assertEquals(2, big.exitCode(), big::toString);
        assertTrue(big.err().contains("3 racks of 43 nodes make 129 nodes; an inventory holds at most 128"), big::toString);
        assertTrue(big.err().contains("Usage: ooo deploy inventory"), big::toString);
        assertFalse(java.nio.file.Files.exists(dir.resolve("big")), big::toString);

        Cli missing = Cli.run("deploy", "inventory", "--racks", "2");
        assertEquals(2, missing.exitCode(), missing::toString);
        assertTrue(missing.err().contains("Missing required option: '--nodes-per-rack=N'"), missing::toString);
        Cli subnet = Cli.run("deploy", "inventory", "--racks", "2", "--nodes-per-rack", "2", "--subnet", "10.0.0.1/24",
                "--out", dir.resolve("s").toString());
        assertEquals(2, subnet.exitCode(), subnet::toString);
        assertTrue(subnet.err().contains("--subnet 10.0.0.1/24 has host bits set; the network is 10.0.0.0/24"), subnet::toString);
        Cli prefix = Cli.run("deploy", "inventory", "--racks", "1", "--nodes-per-rack", "1", "--prefix", "Rack_A",
                "--out", dir.resolve("p").toString());
        assertEquals(2, prefix.exitCode(), prefix::toString);
        assertTrue(prefix.err().contains("--prefix must be a lowercase host name part"), prefix::toString);
    }

    @Test
    void benchTpchRefusesUnknownQueriesAndRepeatsBeforeConnecting(@TempDir Path dir) throws Exception {
        Cli query = Cli.run("bench", "tpch", "--cluster", dir.toString(), "--queries", "1,23");
        assertEquals(2, query.exitCode(), query::toString);
        assertTrue(query.err().contains("--queries: TPC-H queries are numbered 1 to 22, got 23"), query::toString);
        Cli repeat = Cli.run("bench", "tpch", "--cluster", dir.toString(), "--repeat", "0");
        assertEquals(2, repeat.exitCode(), repeat::toString);
        assertTrue(repeat.err().contains("--repeat must be at least 1, got 0"), repeat::toString);
        Cli word = Cli.run("bench", "tpch", "--cluster", dir.toString(), "--queries", "q1");
        assertEquals(2, word.exitCode(), word::toString);
        assertTrue(word.err().contains("--queries"), word::toString);
        Cli setting = Cli.run("bench", "tpch", "--cluster", dir.toString(), "--set", "ooo.query.max-memory");
        assertEquals(2, setting.exitCode(), setting::toString);
        assertTrue(setting.err().contains("--set: 'ooo.query.max-memory' is not <key>=<value>"), setting::toString);
        Cli format = Cli.run("bench", "tpch", "--cluster", dir.toString(), "--format", "orc");
        assertEquals(2, format.exitCode(), format::toString);
        assertTrue(format.err().contains("--format says the format of --files, which is not given"), format::toString);
        Cli avro = Cli.run("bench", "tpch", "--cluster", dir.toString(), "--files", dir.toString(), "--format", "avro");
        assertEquals(2, avro.exitCode(), avro::toString);
        assertTrue(avro.err().contains("--format: 'avro' is not parquet, orc or textfile"), avro::toString);
        Path file = Files.writeString(dir.resolve("a-file"), "");
        Cli profile = Cli.run("bench", "tpch", "--cluster", dir.toString(), "--profile", file.resolve("q").toString());
        assertEquals(2, profile.exitCode(), profile::toString);
        assertTrue(profile.err().contains("--profile: cannot make the profile directory " + file.resolve("q")),
                profile::toString);
    }

    @Test
    void benchEstimatesRefusesBadFlagsBeforeConnecting(@TempDir Path dir) {
        Cli query = Cli.run("bench", "estimates", "--cluster", dir.toString(), "--queries", "0");
        assertEquals(2, query.exitCode(), query::toString);
        assertTrue(query.err().contains("--queries: TPC-H queries are numbered 1 to 22, got 0"), query::toString);
        Cli factor = Cli.run("bench", "estimates", "--cluster", dir.toString(), "--factor", "0.5");
        assertEquals(2, factor.exitCode(), factor::toString);
        assertTrue(factor.err().contains("--factor must be at least 1, got 0.5"), factor::toString);
    }

    @Test
    void tpcdsCommandsRefuseBadFlagsBeforeConnecting(@TempDir Path dir) throws IOException {
        Cli query = Cli.run("bench", "tpcds", "--cluster", dir.toString(), "--queries", "q1,q100");
        assertEquals(2, query.exitCode(), query::toString);
        assertTrue(query.err().contains("--queries: TPC-DS queries are numbered 1 to 99, got 100"), query::toString);
        Cli word = Cli.run("bench", "tpcds", "--cluster", dir.toString(), "--queries", "first");
        assertEquals(2, word.exitCode(), word::toString);
        assertTrue(word.err().contains("'first' is not a TPC-DS query"), word::toString);
        Cli timeout = Cli.run("bench", "tpcds", "--cluster", dir.toString(), "--timeout", "0s");
        assertEquals(2, timeout.exitCode(), timeout::toString);
        assertTrue(timeout.err().contains("--timeout must be positive"), timeout::toString);
        Path file = Files.writeString(dir.resolve("a-file"), "");
        Cli profile = Cli.run("bench", "tpcds", "--cluster", dir.toString(), "--profile", file.resolve("q").toString());
        assertEquals(2, profile.exitCode(), profile::toString);
        assertTrue(profile.err().contains("--profile: cannot make the profile directory " + file.resolve("q")),
                profile::toString);
        Cli sf = Cli.run("load", "tpcds", "--cluster", dir.toString(), "--sf", "0.001");
        assertEquals(2, sf.exitCode(), sf::toString);
        assertTrue(sf.err().contains("--sf must be at least 0.01"), sf::toString);
    }

    @Test
    void benchScalingRefusesBadFlagsBeforeReadingAnything(@TempDir Path dir) {
        Cli nodes = Cli.run("bench", "scaling", "--calibration", dir.toString(), "--nodes", "0,2");
        assertEquals(2, nodes.exitCode(), nodes::toString);
        assertTrue(nodes.err().contains("--nodes must be between 1 and 4096"), nodes::toString);
        Cli both = Cli.run("bench", "scaling", "--calibration", dir.toString(), "--sf-per-node", "1", "--rows-per-node", "6000000");
        assertEquals(2, both.exitCode(), both::toString);
        assertTrue(both.err().contains("give --sf-per-node or --rows-per-node, not both"), both::toString);
        Cli methods = Cli.run("bench", "scaling", "--calibration", dir.toString(), "--mode", "hash");
        assertEquals(2, methods.exitCode(), methods::toString);
        assertTrue(methods.err().contains("--mode must be auto, ooo, inorder or psmj"), methods::toString);
        Cli missing = Cli.run("bench", "scaling", "--calibration", dir.toString());
        assertEquals(2, missing.exitCode(), missing::toString);
        assertTrue(missing.err().contains("run 'ooo calibrate --cluster DIR'"), missing::toString);
    }
}
