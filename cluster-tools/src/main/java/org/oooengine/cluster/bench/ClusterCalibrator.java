package org.oooengine.cluster.bench;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.oooengine.core.cluster.ClusterSession;
import org.oooengine.core.cluster.ClusterSpec;
import org.oooengine.core.cluster.ExecutionMode;
import org.oooengine.core.cluster.NodeDaemon;
import org.oooengine.core.exec.ColumnRange;
import org.oooengine.core.exec.CountingSink;
import org.oooengine.core.exec.JoinSpec;
import org.oooengine.core.net.ClusterSecret;
import org.oooengine.core.cluster.FragmentStats;
import org.oooengine.core.tpch.JoinQueries;
import org.oooengine.core.stats.TableStatistics;
import org.oooengine.core.storage.Directories;
import org.oooengine.core.storage.DiskProbe;
import org.oooengine.core.store.IndexScope;
import org.oooengine.core.store.StoreManifest;
import org.oooengine.core.types.DataType;
import org.oooengine.mapreduce.JoinJobs;
import org.oooengine.optimizer.JoinOptimizer;
import org.oooengine.optimizer.cost.Calibration;
import org.oooengine.optimizer.stats.ClusterStatistics;

/**
 * Measures a running cluster for the cost models ({@code ooo calibrate --cluster}): the devices
 * under the nodes' data directories at queue depths 1..256, one connection's round trip and request
 * rate by requests in flight, the cost of a request and of a delivered row with every node busy,
 * the engine's index join (fixed cost, cold reads per second by probes in flight, cost of a row on
 * cached pages, the cores' time of a cold read), and the MapReduce framework's start-up, scan,
 * output and shuffle rates. The join and job figures come from the engine's own operators on a
 * table of this cluster (the largest of at most {@value #MAX_CALIBRATION_ROWS} rows with a LOCAL
 * and a GLOBAL index), joined with itself.
 */
public final class ClusterCalibrator {
    static final long MAX_CALIBRATION_ROWS = 2_000_000;
    /**
     * Rows of the out-of-order joins: about a fifth as many cold reads. Three times as many rows
     * measured a slower rate, not a steadier one.
     */
    private static final int COLD_MATCHES = 100_000;
    private static final int WARM_UP_JOINS = 30;
    private static final int[] IN_FLIGHT = {1, 16, 128, 1024};
    /** Timed runs per measurement, of which the median counts. */
    private static final int TIMED_RUNS = 3;
    /** Timed runs of a join with emptied caches, the noisiest of the figures. */
    private static final int COLD_RUNS = 5;
    /** Pairs of runs on cached pages, short ones, of which the median difference counts. */
    private static final int PAIRED_RUNS = 7;

    private final java.nio.file.Path clusterDir;
    private final Duration perTest;
    private final long fileBytes;
    /** The steps the progress consumer hears of: disk, network, index join, MapReduce. */
    public static final int STEPS = 4;

    private final Consumer<String> progress;

    public ClusterCalibrator(java.nio.file.Path clusterDir, Duration perTest, long fileBytes, Consumer<String> progress) {
        this.clusterDir = clusterDir;
        this.perTest = perTest;
        this.fileBytes = fileBytes;
        this.progress = progress;
    }

    public Calibration run() throws InterruptedException, IOException {
        try (ClusterSession session = ClusterSession.open(clusterDir, "coordinator", NodeDaemon.DEFAULT_TIMEOUT)) {
            ClusterSpec spec = session.spec();
            String first = spec.nodes().get(0).id();
            StoreManifest manifest = session.wholeManifest();
            JsonNode nodeStats = session.stats().get(first);
            long poolPages = nodeStats.path("bufferPoolPages").asLong(0);
            if (poolPages == 0) {
                throw new IllegalStateException("node " + first + " does not report its buffer pool: restart the cluster"
                        + " with this version ('ooo cluster stop' and 'start')");
            }
            Map<String, TableStatistics> stats = ClusterStatistics.collect(session, false);
            StoreManifest.TableMeta table = calibrationTable(manifest, stats);

            Calibration.Disk disk = disk(session, manifest.pageSize());

            progress.accept("network: requests to node " + first + " with " + Arrays.toString(IN_FLIGHT) + " in flight");
            FetchBench.Result fetch = new FetchBench(session, first, table.name(), FetchBench.DEFAULT_KEYS)
                    .run(IN_FLIGHT, perTest.toMillis() / 1000.0, l -> { });
            Map<Integer, Double> rate = new LinkedHashMap<>();
            fetch.levels().forEach(l -> rate.put(l.inFlight(), l.requestsPerSecond()));

            progress.accept("index join: " + table.name() + " joined with itself on its key and through a GLOBAL index");
            Calibration.IndexJoin indexJoin = indexJoin(session, table, stats.get(table.name()));

            StoreManifest.TableMeta tiny = smallestTable(manifest, stats);
            progress.accept("MapReduce: a scan and a sort-merge join of " + tiny.name() + " (start-up), then of "
                    + table.name());
            Calibration.MapReduce mr = mapReduce(session, table, tiny, stats);

            return new Calibration(Instant.now().truncatedTo(ChronoUnit.SECONDS).toString(), spec.nodes().size(),
                    manifest.pageSize(), poolPages, disk,
                    new Calibration.Network(fetch.levels().get(0).p50Us(), rate), indexJoin, mr);
        }
    }

    /**
     * The devices under the nodes' data directories, measured by the nodes themselves: one node per
     * host, one host after another (nodes on one host share its device, and a measurement beside
     * another would halve both). The cluster's figure per queue depth is the median over hosts. A
     * host is the machine a node says it runs on — nodes at addresses of their own may share one
     * (network-namespace hosts) — or, where it does not say, the node's address.
     */
    private Calibration.Disk disk(ClusterSession session, int pageSize) {
        Map<String, JsonNode> stats = session.stats();
        Map<String, List<String>> nodesByHost = new LinkedHashMap<>();
        session.spec().nodes().forEach(n -> nodesByHost.computeIfAbsent(
                stats.get(n.id()).path("machine").asText(n.host()), h -> new ArrayList<>()).add(n.id()));
        int[] depths = DiskProbe.QUEUE_DEPTHS;
        progress.accept("disk: random reads at queue depths " + Arrays.toString(depths) + ", then sequential reads, on "
                + nodesByHost.size() + (nodesByHost.size() == 1 ? " host" : " hosts"));
        List<DiskProbe.Result> hosts = new ArrayList<>();
        for (List<String> nodes : nodesByHost.values()) {
            hosts.add(session.calibrateDisk(nodes.get(0), fileBytes, perTest, pageSize));
        }
        Map<Integer, Double> iops = new TreeMap<>();
        for (int depth : depths) {
            iops.put(depth, Stats.median(hosts.stream().mapToDouble(h -> h.randomIops().get(depth)).toArray()));
        }
        double sequential = Stats.median(hosts.stream().mapToDouble(h -> h.sequentialMibPerSecond()).toArray());
        int sharing = nodesByHost.values().stream().mapToInt(List::size).max().orElse(1);
        return new Calibration.Disk(sequential, iops, sharing);
    }

    /** The largest table small enough to scan and sort a few times in seconds, with a LOCAL index to range over. */
    static StoreManifest.TableMeta calibrationTable(StoreManifest manifest, Map<String, TableStatistics> stats) {
        return manifest.tables().stream()
                .filter(t -> t.indexes() != null && t.indexes().stream().anyMatch(i -> i.scopeOrLocal() == IndexScope.LOCAL)
                        && t.indexes().stream().anyMatch(i -> i.scopeOrLocal() == IndexScope.GLOBAL))
                .filter(t -> stats.get(t.name()).rows() <= MAX_CALIBRATION_ROWS)
                .max(Comparator.comparingLong(t -> stats.get(t.name()).rows()))
                .orElseThrow(() -> new IllegalStateException("calibration needs a table of at most "
                        + MAX_CALIBRATION_ROWS + " rows with a LOCAL and a GLOBAL index; load data first"));
    }

    /** The table of fewest rows: its jobs cost their start-up alone. */
    static StoreManifest.TableMeta smallestTable(StoreManifest manifest, Map<String, TableStatistics> stats) {
        return manifest.tables().stream().filter(t -> stats.get(t.name()).rows() > 0)
                .min(Comparator.comparingLong(t -> stats.get(t.name()).rows()))
                .orElseThrow(() -> new IllegalStateException("calibration needs a table with rows; load data first"));
    }

    /** The table joined with itself on {@code column}, the second copy under another alias; both keys out. */
    private static JoinQueries.Shape selfJoin(StoreManifest.TableMeta t, String column, String rangeColumn) {
        String key = t.primaryKey().get(0);
        return selfJoin(t, column, rangeColumn, List.of(t.name() + "." + key, alias(t) + "." + key));
    }

    private static JoinQueries.Shape selfJoin(StoreManifest.TableMeta t, String column, String rangeColumn,
                                              List<String> output) {
        return new JoinQueries.Shape("calibration", t.name(), rangeColumn,
                List.of(new JoinSpec.Probe(t.name() + "." + column, t.name(), column, alias(t))), output);
    }

    private static String alias(StoreManifest.TableMeta t) {
        return t.name() + "_again";
    }

    private static JoinSpec selfJoin(StoreManifest.TableMeta t, String column, ColumnRange range) {
        return spec(selfJoin(t, column, range.column()), range);
    }

    private static JoinSpec spec(JoinQueries.Shape shape, ColumnRange range) {
        return new JoinSpec(shape.outer(), range, shape.probes(), shape.output());
    }

    /**
     * The index join's figures from the engine itself, each the median of several runs: one-row
     * joins on the primary key for the fixed cost; then at each number of probes in flight a join of about
     * {@value #COLD_MATCHES} rows (a fifth of that in order) on the primary key — local probes only,
     * one read each — with emptied caches for the rate of reads, and again on cached pages for the
     * cost of a row; and the same rows through a GLOBAL index on cached pages, whose extra time
     * over the local join is what its remote requests add. A request's cost is taken where nothing
     * waits for the disk: the reads a request causes on its node are counted with the reads, at
     * their rate. The CPU the nodes spent on the out-of-order cold join, beyond its rows' cost on
     * cached pages, is what its reads cost the cores.
     */
    private static Calibration.IndexJoin indexJoin(ClusterSession session, StoreManifest.TableMeta t,
                                                   TableStatistics stats) {
        String rangeColumn = t.indexes().stream().filter(i -> i.scopeOrLocal() == IndexScope.LOCAL).findFirst()
                .orElseThrow().columns().get(0);
        String probeColumn = t.indexes().stream().filter(i -> i.scopeOrLocal() == IndexScope.GLOBAL).findFirst()
                .orElseThrow().columns().get(0);
        String key = t.primaryKey().get(0);
        JoinQueries.Shape local = selfJoin(t, key, rangeColumn);
        JoinQueries.Shape remote = selfJoin(t, probeColumn, rangeColumn);
        Object value = type(t, rangeColumn).parseValue(stats.column(rangeColumn).max());
        JoinSpec oneRow = selfJoin(t, key, new ColumnRange(rangeColumn, value, value));
        // the coordinator's JVM is fresh: run its join path until it is compiled before timing it
        double[] times = new double[9];
        for (int i = -WARM_UP_JOINS; i < times.length; i++) {
            double seconds = session.join(oneRow, ExecutionMode.OOO, JoinOptimizer.DEFAULT_BUDGET, new CountingSink()).seconds();
            if (i >= 0) {
                times[i] = seconds;
            }
        }
        Arrays.sort(times);
        double dispatch = times[times.length / 2];

        double perProbe = stats.rows() / Math.max(1, stats.column(probeColumn).distinctValues());
        Map<Integer, Double> reads = new LinkedHashMap<>();
        Map<Integer, Double> request = new LinkedHashMap<>();
        double warmRowSeconds = 0;
        ColdRun outOfOrder = null;
        for (int budget : new int[] {1, JoinOptimizer.DEFAULT_BUDGET}) {
            double rows = budget == 1 ? COLD_MATCHES / 5.0 : COLD_MATCHES;
            ExecutionMode mode = budget == 1 ? ExecutionMode.INORDER : ExecutionMode.OOO;
            JoinSpec byKey = session.query(local, Math.min(1, rows / stats.rows())).spec(); // all of a small table
            ColdRun cold = coldRun(session, byKey, mode, budget);
            reads.put(budget, cold.run().pageReads() / Math.max(1e-3, cold.run().seconds() - dispatch));
            JoinSpec byIndex = session.query(remote, Math.min(1, rows / perProbe / stats.rows())).spec();
            double[] warm = warmRowAndRequestSeconds(session, oneRow, byKey, byIndex, mode, budget);
            request.put(budget, warm[1] * 1e6);
            if (mode == ExecutionMode.OOO) { // the row's and the read's cost as the out-of-order model counts them
                outOfOrder = cold;
                warmRowSeconds = warm[0];
            }
        }
        double readCpu = Math.max(0, outOfOrder.coresSeconds() - outOfOrder.run().rows() * warmRowSeconds)
                / Math.max(1, outOfOrder.run().pageReads());
        return new Calibration.IndexJoin(dispatch, reads, request, warmRowSeconds * 1e6, readCpu * 1e6,
                outOfOrder.coresBusy());
    }

    /**
     * Seconds per row of the local join {@code byKey} and per remote request of {@code byIndex},
     * both on cached pages: the medians over {@value #PAIRED_RUNS} rounds of runs, each round
     * timing the one-row join {@code oneRow} (the dispatch), then one of each, back to back. Both
     * costs are differences of timings, which only runs side by side keep clear of the machine's
     * drift (a dispatch measured apart, on a loaded machine, exceeded a whole local join).
     */
    private static double[] warmRowAndRequestSeconds(ClusterSession session, JoinSpec oneRow, JoinSpec byKey,
                                                     JoinSpec byIndex, ExecutionMode mode, int budget) {
        session.join(byKey, mode, budget, new CountingSink()); // reads their pages in
        session.join(byIndex, mode, budget, new CountingSink());
        double[] rowSeconds = new double[PAIRED_RUNS];
        double[] requestSeconds = new double[PAIRED_RUNS];
        for (int i = 0; i < PAIRED_RUNS; i++) {
            double dispatch = session.join(oneRow, mode, budget, new CountingSink()).seconds();
            ClusterSession.JoinRun local = session.join(byKey, mode, budget, new CountingSink());
            ClusterSession.JoinRun remote = session.join(byIndex, mode, budget, new CountingSink());
            rowSeconds[i] = Math.max(0, local.seconds() - dispatch) / Math.max(1, local.rows());
            long requests = remote.fragments().stream().mapToLong(FragmentStats::remoteRequests).sum();
            requestSeconds[i] = Math.max(0, remote.seconds() - dispatch - remote.rows() * rowSeconds[i])
                    / Math.max(1, requests);
        }
        return new double[] {Stats.median(rowSeconds), Stats.median(requestSeconds)};
    }

    /**
     * A join run with emptied caches, and the CPU the nodes spent on it: {@code coresSeconds} is
     * that CPU over the hosts' cores — the wall time it fills with every core at work — and
     * {@code coresBusy} its share of the run's wall time.
     */
    private record ColdRun(ClusterSession.JoinRun run, double coresSeconds, double coresBusy) {
    }

    /**
     * A join timed with emptied caches: the run of median time of {@value #COLD_RUNS}, as one run's
     * figure is at the mercy of whatever else the machine did.
     */
    private static ColdRun coldRun(ClusterSession session, JoinSpec spec, ExecutionMode mode, int budget) {
        session.join(spec, mode, budget, new CountingSink()); // compiles this path
        List<ColdRun> runs = new ArrayList<>();
        for (int i = 0; i < COLD_RUNS; i++) {
            session.dropCaches();
            NodeCpu before = NodeCpu.of(session);
            ClusterSession.JoinRun run = session.join(spec, mode, budget, new CountingSink());
            NodeCpu after = NodeCpu.of(session);
            double coresSeconds = (after.seconds() - before.seconds()) / after.cores();
            runs.add(new ColdRun(run, coresSeconds, coresSeconds / ((after.nanoTime() - before.nanoTime()) / 1e9)));
        }
        runs.sort(Comparator.comparingDouble(r -> r.run().seconds()));
        return runs.get(COLD_RUNS / 2);
    }

    /**
     * CPU seconds the nodes' processes have used so far, the cores of their hosts (each host
     * counted once: its nodes share them), and when it was asked.
     */
    private record NodeCpu(double seconds, int cores, long nanoTime) {
        static NodeCpu of(ClusterSession session) {
            long now = System.nanoTime();
            double seconds = 0;
            Map<String, Integer> coresByHost = new HashMap<>();
            for (Map.Entry<String, JsonNode> node : session.stats().entrySet()) {
                double cpu = node.getValue().path("processCpuSeconds").asDouble(-1);
                if (cpu < 0) {
                    throw new IllegalStateException("node " + node.getKey() + " does not report its CPU time: restart"
                            + " the cluster with this version ('ooo cluster stop' and 'start')");
                }
                seconds += cpu;
                coresByHost.merge(session.spec().node(node.getKey()).host(), node.getValue().path("cores").asInt(1),
                        Math::max);
            }
            return new NodeCpu(seconds, coresByHost.values().stream().mapToInt(Integer::intValue).sum(), now);
        }
    }

    private static DataType type(StoreManifest.TableMeta t, String column) {
        return t.schema().type(t.schema().indexOf(column));
    }

    /**
     * Each the median of {@value #TIMED_RUNS} runs: the start-up of a map-only job and of a PSMJ
     * stage from the same jobs over the smallest table, whose few rows cost nothing — what a job's
     * tasks, reducers and commit cost however little they read. Then three jobs over the
     * calibration table, run in turns so that the machine's drift falls on all three alike: one
     * that only reads it (the scan rate), one that also writes its rows (the output cost, the
     * difference), and the sort-merge self-join whose mappers read the table once, emit every row
     * to both sides — whole rows to one, keys to the other, as a join's stages carry columns — and
     * whose reducers write the whole rows once more: beyond the second job, and the start-ups'
     * difference, its time is the shuffle's.
     */
    private Calibration.MapReduce mapReduce(ClusterSession session, StoreManifest.TableMeta t,
                                            StoreManifest.TableMeta tiny, Map<String, TableStatistics> stats)
            throws IOException, InterruptedException {
        ClusterSpec cluster = session.spec();
        ClusterSecret secret = ClusterSpec.readSecret(clusterDir);
        Configuration conf = JoinJobs.localRunner(new Configuration(), cluster.nodes().size());
        java.nio.file.Path work = Files.createTempDirectory("ooo-calibrate-mr");
        try {
            JoinJobs.startupSeconds(conf); // loads Hadoop's classes
            double startup = medianSeconds(() -> JoinJobs.scan(conf, cluster, secret, tiny.name(), null));
            Path tinyJoined = new Path(work.resolve("psmj-" + tiny.name()).toUri());
            double stageStartup = medianSeconds(() -> psmjSelfJoin(conf, cluster, secret, tiny, stats.get(tiny.name()), tinyJoined));
            TableStatistics tStats = stats.get(t.name());
            double rows = tStats.rows();
            double mib = tStats.bytes() / (double) (1 << 20);
            Path written = new Path(work.resolve("scan").toUri());
            Path joined = new Path(work.resolve("psmj").toUri());
            psmjSelfJoin(conf, cluster, secret, t, tStats, joined); // the first sort at this size runs on cold code
            double[] scans = new double[TIMED_RUNS];
            double[] writes = new double[TIMED_RUNS];
            double[] shuffles = new double[TIMED_RUNS];
            for (int i = 0; i < TIMED_RUNS; i++) {
                scans[i] = JoinJobs.scan(conf, cluster, secret, t.name(), null).seconds();
                written.getFileSystem(conf).delete(written, true);
                double scanAndWrite = JoinJobs.scan(conf, cluster, secret, t.name(), written).seconds();
                writes[i] = scanAndWrite - scans[i];
                shuffles[i] = psmjSelfJoin(conf, cluster, secret, t, tStats, joined).seconds() - scanAndWrite
                        - (stageStartup - startup);
            }
            double scanMibPerSecond = mib / Math.max(1e-3, Stats.median(scans) - startup);
            double outputRowMicros = Math.max(0, Stats.median(writes)) * 1e6 / rows;
            double shuffleRowMicros = Math.max(0, Stats.median(shuffles)) * 1e6 / (2 * rows);
            return new Calibration.MapReduce(startup, stageStartup, scanMibPerSecond, shuffleRowMicros, outputRowMicros);
        } finally {
            Directories.deleteRecursively(work);
        }
    }

    /**
     * PSMJ of {@code t} with itself on its key, over all its rows, into {@code out} (replaced):
     * every column of the one side and the key of the other.
     */
    private static JoinJobs.Run psmjSelfJoin(Configuration conf, ClusterSpec cluster, ClusterSecret secret,
                                             StoreManifest.TableMeta t, TableStatistics stats, Path out)
            throws IOException, InterruptedException {
        String key = t.primaryKey().get(0);
        DataType keyType = type(t, key);
        ColumnRange all = new ColumnRange(key, keyType.parseValue(stats.column(key).min()),
                keyType.parseValue(stats.column(key).max()));
        List<String> output = new ArrayList<>();
        t.schema().names().forEach(c -> output.add(t.name() + "." + c));
        output.add(alias(t) + "." + key);
        out.getFileSystem(conf).delete(out, true);
        return JoinJobs.psmj(conf, cluster, secret, spec(selfJoin(t, key, key, output), all), cluster.nodes().size(), out);
    }

    /** A job that can be run again. */
    private interface TimedJob {
        JoinJobs.Run run() throws IOException, InterruptedException;
    }

    private static double medianSeconds(TimedJob job) throws IOException, InterruptedException {
        double[] seconds = new double[TIMED_RUNS];
        for (int i = 0; i < TIMED_RUNS; i++) {
            seconds[i] = job.run().seconds();
        }
        return Stats.median(seconds);
    }
}
