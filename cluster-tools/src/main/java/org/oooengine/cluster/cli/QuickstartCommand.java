package org.oooengine.cluster.cli;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.oooengine.cluster.bench.BenchSettings;
import org.oooengine.cluster.bench.ClusterJoinBench;
import org.oooengine.cluster.bench.Format;
import org.oooengine.cluster.bench.JoinBench;
import org.oooengine.cluster.bench.JoinMode;
import org.oooengine.cluster.bench.JoinResult;
import org.oooengine.cluster.bench.ResultTable;
import org.oooengine.cluster.launch.LocalCluster;
import org.oooengine.core.cluster.ClusterSpec;
import org.oooengine.core.net.FreePorts;
import org.oooengine.core.storage.DirectIoUnsupportedException;
import org.oooengine.core.storage.Directories;
import org.oooengine.core.store.StoreManifest;
import org.oooengine.core.tpch.JoinQueries;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code ooo quickstart}: load a small TPC-H and put the three join strategies side by side. */
@Command(name = "quickstart", mixinStandardHelpOptions = true,
        description = {"Load TPC-H and run OL and PL at 1%%, 0.1%% and 0.01%% selectivity out of order, in order "
                + "and as a full-scan hash join, then check that all three agree. Joins run cold (direct I/O, a "
                + "buffer pool smaller than the data) so the disk is measured, unless --warm or the filesystem "
                + "refuses direct I/O.",
                "Then start a local cluster (--nodes, default 4), load the same data hash-partitioned over it and "
                        + "compare the distributed modes ooo, ooo-local and inorder.",
                "Last, start the cluster's coordinator and run a few SQL queries (TPC-H Q6, a selective join) through "
                        + "the Hive JDBC driver.",
                "About two minutes at the default scale factor."})
final class QuickstartCommand implements Callable<Integer> {
    private static final List<Double> SELECTIVITIES = List.of(0.01, 0.001, 0.0001);

    @Spec
    CommandSpec spec;

    @Option(names = "--sf", defaultValue = "0.1", paramLabel = "<scale>", description = "TPC-H scale factor (default: ${DEFAULT-VALUE})")
    double scaleFactor;

    @Option(names = {"--store", "--dir"}, paramLabel = "<dir>",
            description = "store directory; a store of the same scale factor there is reused (default: a new temporary directory)")
    Path dir;

    @Option(names = "--keep", description = "keep the temporary store instead of deleting it")
    boolean keep;

    @Option(names = "--replace", description = "reload into --store even if it is not empty")
    boolean replace;

    @Option(names = "--warm", description = "run on cached pages instead of reading the disk")
    boolean warm;

    @Option(names = "--nodes", defaultValue = "4", paramLabel = "N",
            description = "then start a local cluster of N nodes, load the data partitioned over them and compare the "
                    + "distributed modes; 0 skips this (default: ${DEFAULT-VALUE})")
    int nodes;

    private static final List<Double> CLUSTER_SELECTIVITIES = List.of(0.01, 0.001);

    /** The coordinator joins and aggregates what the nodes send; SF 0.1 needs little. */
    private static final String COORDINATOR_HEAP = "1g";

    /** Smaller than the SF 0.1 tables, so probes go to the disk. */
    private static final int COLD_BUFFER_POOL_MB = 8;

    /** Progress of the phase running, and the notes between them. */
    private Progress progress;

    @Override
    public Integer call() throws Exception {
        boolean temporary = dir == null;
        Path store = temporary ? Files.createTempDirectory("ooo-quickstart-") : dir;
        Progress shown = Progress.of(spec);
        progress = shown;
        try (shown) {
            prepare(store);
            List<JoinResult> single = new ArrayList<>();
            int exitCode = compare(store, single);
            if (nodes > 0 && exitCode == 0) {
                exitCode = compareOnCluster(single);
            }
            return exitCode;
        } finally {
            if (temporary && !keep) {
                Directories.deleteRecursively(store);
            } else {
                progress.note(String.format("the store stays in %s; try: ooo bench join --store %s --query PL "
                        + "--selectivity 0.001 --mode ooo", store, store));
            }
        }
    }

    private void prepare(Path store) throws Exception {
        if (!replace && StoreManifest.exists(store)
                && StoreManifest.read(store).source().get("scaleFactor") instanceof Number sf
                && sf.doubleValue() == scaleFactor) {
            progress.note(String.format("using the TPC-H SF %s store in %s", Format.number(scaleFactor), store));
            return;
        }
        progress.note(String.format("loading TPC-H SF %s into %s", Format.number(scaleFactor), store));
        TpchLoad.run(spec.commandLine(), scaleFactor, store, TpchLoad.DEFAULT_PAGE_SIZE, 1.0, replace);
    }

    private int compare(Path store, List<JoinResult> results) {
        PrintWriter err = spec.commandLine().getErr();
        progress.note("running OL and PL at 1%, 0.1% and 0.01% in ooo, inorder and hash modes...");
        JoinBench bench = openBench(store, err);
        List<JoinMode> modes = List.of(JoinMode.OOO, JoinMode.INORDER, JoinMode.HASH);
        progress.start("joins", (long) QueryName.TWO_TABLE.size() * SELECTIVITIES.size() * modes.size(), "steps");
        BenchSettings settings = bench.settings();
        try (bench) {
            for (QueryName query : QueryName.TWO_TABLE) {
                for (double selectivity : SELECTIVITIES) {
                    JoinQueries.Query q = bench.query(query.name(), selectivity);
                    for (JoinMode mode : modes) {
                        results.addAll(bench.measure(q, mode, r -> { }));
                        progress.advance();
                    }
                }
            }
        }
        progress.done();
        ResultTable table = ResultTable.of(results);
        PrintWriter out = spec.commandLine().getOut();
        out.printf("%nTPC-H SF %s, %s, %d tasks in flight out of order; seconds per join:%n%n",
                Format.number(scaleFactor), settings.cold()
                        ? "cold (direct I/O, " + settings.bufferPoolMb() + " MiB buffer pool)" : "warm",
                settings.inflight());
        out.print(table.text());
        out.println();
        int exitCode = RowCheck.report(table, spec.commandLine());
        if (!settings.cold()) {
            out.println("Warm joins read no pages, so out of order gains little over in order here; the gain is in");
            out.println("overlapping I/O, which 'ooo bench sweep --cold' measures on a store on disk.");
        }
        out.flush();
        return exitCode;
    }

    /**
     * Starts a local cluster of --nodes daemons, loads the same data partitioned over them, runs the
     * joins in the three distributed modes and checks them against the single-node rows.
     */
    private int compareOnCluster(List<JoinResult> single) throws Exception {
        PrintWriter err = spec.commandLine().getErr();
        Path clusterDir = Files.createTempDirectory("ooo-quickstart-cluster-");
        boolean root = RootCheck.runningAsRoot();
        if (root) {
            // A throwaway cluster, on loopback, in a directory only root reads: as root is acceptable here.
            err.printf("note: running as root, so the quickstart's nodes and coordinator run as root too (on %s, in a "
                    + "private temporary directory); a cluster of your own refuses root without --allow-root%n",
                    ClusterCommand.SQL_HOST);
        }
        LocalCluster cluster = new LocalCluster(clusterDir, root);
        int basePort = FreePorts.consecutive(nodes);
        progress.note(String.format("%nstarting a local %d-node cluster in %s", nodes, clusterDir));
        List<String> nodeArgs = new ArrayList<>(List.of("--buffer-pool", (warm ? 64 : COLD_BUFFER_POOL_MB / 2) + "m"));
        try {
            progress.start("starting the nodes", 0, null);
            cluster.start(nodes, basePort, LocalCluster.NodeJvm.of("768m"), nodeArgs);
            progress.done();
            TpchLoad.runOnCluster(spec.commandLine(), scaleFactor, clusterDir, TpchLoad.DEFAULT_PAGE_SIZE, 1.0,
                    ClusterSpec.read(clusterDir).replication());
            progress.note("running OL and PL at 1% and 0.1% in ooo, ooo-local and inorder modes on the cluster...");
            progress.note("(the cluster is not calibrated, on purpose: every mode runs the join as written, with no "
                    + "optimizer choosing for it)");
            List<JoinResult> results = new ArrayList<>();
            BenchSettings settings = new BenchSettings(!warm, BenchSettings.DEFAULT_INFLIGHT, null, 1);
            List<JoinMode> modes = List.of(JoinMode.OOO, JoinMode.OOO_LOCAL, JoinMode.INORDER);
            try (ClusterJoinBench bench = new ClusterJoinBench(clusterDir, settings).uncalibratedOnPurpose()) {
                progress.start("joins", (long) QueryName.TWO_TABLE.size() * CLUSTER_SELECTIVITIES.size() * modes.size(),
                        "steps");
                for (QueryName query : QueryName.TWO_TABLE) {
                    for (double selectivity : CLUSTER_SELECTIVITIES) {
                        JoinQueries.Query q = bench.query(query.name(), selectivity);
                        for (JoinMode mode : modes) {
                            results.addAll(bench.measure(q, mode, r -> { }));
                            progress.advance();
                        }
                    }
                }
                progress.done();
            }
            ResultTable table = ResultTable.of(results);
            PrintWriter out = spec.commandLine().getOut();
            out.printf("%nthe same data on %d nodes (separate processes on this machine), %s; seconds per join:%n%n", nodes,
                    warm ? "warm" : "node buffer pools emptied before each run");
            out.print(table.text());
            out.println();
            out.println("ooo: local and remote probes out of order; ooo-local: only local I/O out of order, remote probes");
            out.println("one at a time; OL is co-partitioned on orderkey (all probes local), PL is not (most probes remote).");
            int exitCode = RowCheck.report(table, spec.commandLine());
            for (JoinResult c : results) {
                single.stream().filter(s -> s.query().equals(c.query()) && s.selectivity() == c.selectivity()).findFirst()
                        .filter(s -> !s.sameRowsAs(c)).ifPresent(s -> err.printf(
                                "error: %s at %s on the cluster returned other rows than on one node%n", c.query(),
                                Format.percent(c.selectivity())));
                exitCode = single.stream().anyMatch(s -> s.query().equals(c.query()) && s.selectivity() == c.selectivity()
                        && !s.sameRowsAs(c)) ? 1 : exitCode;
            }
            if (exitCode == 0) {
                out.println("the cluster returned the same rows as the single node");
            }
            out.flush();
            return exitCode == 0 ? querySql(cluster) : exitCode;
        } finally {
            cluster.stop();
            if (!keep) {
                Directories.deleteRecursively(clusterDir);
            }
            printHowToConnect(clusterDir);
        }
    }

    /** Starts the coordinator beside the nodes and sends it SQL the way any JDBC client would. */
    private int querySql(LocalCluster cluster) throws Exception {
        PrintWriter err = spec.commandLine().getErr();
        progress.note(String.format("%nstarting the coordinator (SQL endpoint) and querying it through the Hive JDBC driver..."));
        int port = FreePorts.consecutive(1);
        progress.start("starting the coordinator", 0, null);
        String url = cluster.startCoordinator(ClusterCommand.SQL_HOST, port, COORDINATOR_HEAP);
        progress.done();
        PrintWriter out = spec.commandLine().getOut();
        out.printf("%nSQL on the cluster at %s:%n", url);
        return QuickstartSql.run(url, out, err);
    }

    /** The cluster is stopped by now: how to start it again and connect, or how to keep one. */
    private void printHowToConnect(Path keptDir) {
        PrintWriter out = spec.commandLine().getOut();
        // The temporary directory is gone without --keep: suggest one of the user's own.
        Path clusterDir = keep ? keptDir : Path.of("ooo-cluster");
        // As root the start below would be refused: show the flag that says so on purpose.
        String asRoot = RootCheck.runningAsRoot() ? " --allow-root" : "";
        out.println();
        if (keep) {
            out.printf("the cluster directory stays in %s; start it again (nodes and SQL endpoint) with:%n", clusterDir);
            out.printf("  ./ooo cluster start --cluster %s%s%n", clusterDir, asRoot);
        } else {
            out.println("to query a cluster yourself, start one and load it (or rerun the quickstart with --keep):");
            out.printf("  ./ooo cluster start --cluster %s%s%n", clusterDir, asRoot);
            out.printf("  ./ooo load tpch --sf %s --cluster %s%n", Format.number(scaleFactor), clusterDir);
        }
        out.println("then connect with the SQL shell:");
        out.printf("  ./ooo sql --cluster %s%n", clusterDir);
        out.printf("or with beeline or any JDBC client (port as 'ooo cluster status --cluster %s' shows):%n", clusterDir);
        out.printf("  beeline -u '%s'%n", LocalCluster.jdbcUrl(ClusterCommand.SQL_HOST, LocalCluster.DEFAULT_SQL_PORT));
        out.flush();
    }

    /** Cold unless --warm; warm after all where the filesystem refuses direct I/O. */
    private JoinBench openBench(Path store, PrintWriter err) {
        BenchSettings warmSettings = new BenchSettings(false, BenchSettings.DEFAULT_INFLIGHT, null, 1);
        if (warm) {
            return new JoinBench(store, warmSettings);
        }
        try {
            return new JoinBench(store, new BenchSettings(true, BenchSettings.DEFAULT_INFLIGHT, COLD_BUFFER_POOL_MB, 1));
        } catch (DirectIoUnsupportedException e) {
            err.println("note: " + e.getMessage() + "; running warm instead");
            return new JoinBench(store, warmSettings);
        }
    }
}
